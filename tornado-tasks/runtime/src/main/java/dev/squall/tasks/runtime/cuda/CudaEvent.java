package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceEvent;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

/** A CUevent (created with flags 0, so it carries timing) recorded on one of the device's streams. */
final class CudaEvent implements DeviceEvent {
    final CudaDevice device;
    private final MemorySegment event;
    private volatile boolean released;

    CudaEvent(CudaDevice device, MemorySegment event) {
        this.device = device;
        this.event = event;
    }

    @Override
    public double millisSince(DeviceEvent earlier) {
        if (!(earlier instanceof CudaEvent e) || e.device != device) {
            throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "millisSince: " + earlier + " is not an event of " + device.id());
        }
        if (released || e.released) throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "millisSince: event was released");
        device.ensureCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pMs = a.allocate(JAVA_FLOAT);
            int rc = CudaApi.cuEventElapsedTime(pMs, e.event, event);
            if (rc == CudaErrors.CUDA_ERROR_NOT_READY) {
                throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "cuEventElapsedTime on " + device.id()
                        + ": events not completed yet; call synchronize() first (" + CudaErrors.describe(rc) + ")");
            }
            CudaErrors.check(rc, "cuEventElapsedTime", device.id());
            return pMs.get(JAVA_FLOAT, 0);
        }
    }

    MemorySegment handle() {
        if (released) throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "event of " + device.id() + " was released");
        return event;
    }

    @Override
    public void await() {
        MemorySegment e = handle();
        device.ensureCurrent();
        int rc = CudaApi.cuEventSynchronize(e);
        if (rc != CudaErrors.CUDA_SUCCESS) throw device.asyncError(rc, "cuEventSynchronize", "the commands before the event");
    }

    @Override
    public boolean isComplete() {
        MemorySegment e = handle();
        device.ensureCurrent();
        int rc = CudaApi.cuEventQuery(e);
        if (rc == CudaErrors.CUDA_ERROR_NOT_READY) return false;
        if (rc != CudaErrors.CUDA_SUCCESS) throw device.asyncError(rc, "cuEventQuery", "the commands before the event");
        return true;
    }

    @Override
    public void release() {
        synchronized (this) {
            if (released) return;
            released = true;
        }
        if (device.isClosed()) return; // destroyed with the context
        device.ensureCurrent();
        CudaErrors.check(CudaApi.cuEventDestroy(event), "cuEventDestroy_v2", device.id());
    }

    @Override
    public String toString() {
        return "CUDA event on " + device.id();
    }
}
