package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceEvent;

import java.lang.foreign.MemorySegment;

/** A marker ({@code clEnqueueMarkerWithWaitList}) in one of the device's profiling queues. */
final class OpenClEvent implements DeviceEvent {
    final OpenClDevice device;
    final MemorySegment handle;
    private volatile boolean released;

    OpenClEvent(OpenClDevice device, MemorySegment handle) {
        this.device = device;
        this.handle = handle;
    }

    @Override
    public double millisSince(DeviceEvent earlier) {
        if (!(earlier instanceof OpenClEvent e) || e.device != device) {
            throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT,
                    "millisSince: " + earlier + " is not an event of " + device.id);
        }
        if (released || e.released) {
            throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "millisSince: event already released");
        }
        return device.millisBetween(e, this);
    }

    MemorySegment handle() {
        if (released) throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "event of " + device.id + " was released");
        return handle;
    }

    @Override
    public void await() {
        handle();
        device.await(this);
    }

    @Override
    public boolean isComplete() {
        handle();
        return device.isComplete(this);
    }

    @Override
    public void release() {
        synchronized (device) {
            if (released) return;
            released = true;
            device.eventReleased(this);
            OpenClErrors.check(device.api.releaseEvent(handle), "clReleaseEvent", device.id);
        }
    }

    @Override
    public String toString() {
        return "OpenCL event on " + device.id;
    }
}
