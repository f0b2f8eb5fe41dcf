package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.spi.DeviceBuffer;

/** A {@code cuMemAlloc_v2} allocation; {@link #dptr} is the CUdeviceptr. */
final class CudaBuffer implements DeviceBuffer {
    final CudaDevice device;
    final long dptr;
    private final long size;
    private volatile boolean released;

    CudaBuffer(CudaDevice device, long dptr, long size) {
        this.device = device;
        this.dptr = dptr;
        this.size = size;
    }

    @Override
    public long byteSize() {
        return size;
    }

    boolean isReleased() {
        return released;
    }

    @Override
    public void release() {
        synchronized (this) {
            if (released) return;
            released = true;
        }
        device.free(this);
    }

    @Override
    public String toString() {
        return "CudaBuffer[" + device.id() + ", 0x" + Long.toHexString(dptr) + ", " + size + " bytes"
                + (released ? ", released" : "") + "]";
    }
}
