package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.spi.DeviceBuffer;

import java.lang.foreign.MemorySegment;

/** A {@code cl_mem} buffer (CL_MEM_READ_WRITE) of one device. */
final class OpenClBuffer implements DeviceBuffer {
    final OpenClDevice device;
    final MemorySegment mem;
    private final long bytes;
    private volatile boolean released;

    OpenClBuffer(OpenClDevice device, MemorySegment mem, long bytes) {
        this.device = device;
        this.mem = mem;
        this.bytes = bytes;
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    boolean isReleased() {
        return released;
    }

    @Override
    public void release() {
        synchronized (device) {
            if (released) return;
            released = true;
            device.released(this);
            OpenClErrors.check(device.api.releaseMemObject(mem), "clReleaseMemObject", device.id);
        }
    }

    @Override
    public String toString() {
        return "OpenCL buffer of " + bytes + " bytes on " + device.id + (released ? " (released)" : "");
    }
}
