package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.DeviceException.Kind;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceEvent;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * An in-order, profiling-enabled OpenCL command queue on the device's context. Recording an event
 * flushes the queue, as OpenCL requires before another queue may wait for that event.
 */
final class OpenClQueue implements NativeQueue {
    final OpenClDevice device;
    final MemorySegment handle;
    private final boolean isDefault;
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment eventOut;  // cl_event* for markers
    private final MemorySegment waitList;  // cl_event[1] for barriers
    private volatile boolean released;

    OpenClQueue(OpenClDevice device, MemorySegment handle, boolean isDefault) {
        this.device = device;
        this.handle = handle;
        this.isDefault = isDefault;
        this.eventOut = arena.allocate(ADDRESS);
        this.waitList = arena.allocate(ADDRESS);
    }

    @Override
    public NativeDevice device() {
        return device;
    }

    /** The handle for a command, after checking the queue and device are usable. */
    MemorySegment usable(String what) {
        if (released) throw new DeviceException(Kind.BAD_ARGUMENT, what + ": the queue on " + device.id + " was released");
        if (device.isClosed()) throw new DeviceException(Kind.BAD_ARGUMENT, what + ": OpenCL device " + device.id + " is closed");
        return handle;
    }

    private static void checkRange(OpenClBuffer b, long offset, long bytes, long hostBytes, String what) {
        if (offset < 0 || bytes < 0 || offset > b.byteSize() - bytes) {
            throw new DeviceException(Kind.BAD_ARGUMENT, what + ": range [" + offset + ", " + offset + "+" + bytes
                    + ") outside " + b);
        }
        if (hostBytes < bytes) {
            throw new DeviceException(Kind.BAD_ARGUMENT, what + ": host segment has " + hostBytes + " bytes, "
                    + bytes + " requested");
        }
    }

    @Override
    public void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        OpenClBuffer b = device.own(dst, "copyToDevice destination");
        checkRange(b, dstOffset, bytes, src.byteSize(), "copyToDevice");
        if (bytes == 0) return;
        MemorySegment q = usable("copyToDevice");
        int rc;
        if (src.isNative()) {
            rc = device.api.enqueueWriteBuffer(q, b.mem, true, dstOffset, bytes, src);
        } else {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment tmp = a.allocate(bytes, 8);
                MemorySegment.copy(src, 0, tmp, 0, bytes);
                rc = device.api.enqueueWriteBuffer(q, b.mem, true, dstOffset, bytes, tmp);
            }
        }
        if (rc != OpenClErrors.CL_SUCCESS) {
            throw device.commandError("clEnqueueWriteBuffer", rc, "writing " + bytes + " bytes at " + dstOffset + " into " + b);
        }
    }

    @Override
    public void zero(DeviceBuffer dst, long offset, long bytes) {
        OpenClBuffer b = device.own(dst, "zero destination");
        checkRange(b, offset, bytes, bytes, "zero");
        if (bytes == 0) return;
        MemorySegment q = usable("zero");
        int rc;
        try (Arena a = Arena.ofConfined()) {
            rc = device.api.enqueueFillBuffer(q, b.mem, a.allocate(1), offset, bytes);
        }
        if (rc == OpenClErrors.CL_SUCCESS) rc = device.api.finish(q);
        if (rc != OpenClErrors.CL_SUCCESS) {
            throw device.commandError("clEnqueueFillBuffer", rc, "zeroing " + bytes + " bytes at " + offset + " of " + b);
        }
    }

    @Override
    public void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        OpenClBuffer b = device.own(src, "copyToHost source");
        checkRange(b, srcOffset, bytes, dst.byteSize(), "copyToHost");
        if (dst.isReadOnly()) throw new DeviceException(Kind.BAD_ARGUMENT, "copyToHost: destination is read-only");
        if (bytes == 0) return;
        MemorySegment q = usable("copyToHost");
        int rc;
        if (dst.isNative()) {
            rc = device.api.enqueueReadBuffer(q, b.mem, true, srcOffset, bytes, dst);
        } else {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment tmp = a.allocate(bytes, 8);
                rc = device.api.enqueueReadBuffer(q, b.mem, true, srcOffset, bytes, tmp);
                if (rc == OpenClErrors.CL_SUCCESS) MemorySegment.copy(tmp, 0, dst, 0, bytes);
            }
        }
        if (rc != OpenClErrors.CL_SUCCESS) {
            throw device.commandError("clEnqueueReadBuffer", rc, "reading " + bytes + " bytes at " + srcOffset + " from " + b);
        }
    }

    @Override
    public void copyToDeviceAsync(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        OpenClBuffer b = device.own(dst, "copyToDeviceAsync destination");
        checkRange(b, dstOffset, bytes, src.byteSize(), "copyToDeviceAsync");
        if (!device.isPinned(src.asSlice(0, bytes))) {
            throw new DeviceException(Kind.BAD_ARGUMENT, "copyToDeviceAsync on " + device.id
                    + ": the source is not pinned memory of this device (allocatePinned); use copyToDevice");
        }
        if (bytes == 0) return;
        int rc = device.api.enqueueWriteBuffer(usable("copyToDeviceAsync"), b.mem, false, dstOffset, bytes, src);
        if (rc != OpenClErrors.CL_SUCCESS) {
            throw device.commandError("clEnqueueWriteBuffer", rc, "writing " + bytes + " bytes at " + dstOffset + " into " + b);
        }
    }

    @Override
    public void copyToHostAsync(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        OpenClBuffer b = device.own(src, "copyToHostAsync source");
        checkRange(b, srcOffset, bytes, dst.byteSize(), "copyToHostAsync");
        if (dst.isReadOnly()) throw new DeviceException(Kind.BAD_ARGUMENT, "copyToHostAsync: destination is read-only");
        if (!device.isPinned(dst.asSlice(0, bytes))) {
            throw new DeviceException(Kind.BAD_ARGUMENT, "copyToHostAsync on " + device.id
                    + ": the destination is not pinned memory of this device (allocatePinned); use copyToHost");
        }
        if (bytes == 0) return;
        int rc = device.api.enqueueReadBuffer(usable("copyToHostAsync"), b.mem, false, srcOffset, bytes, dst);
        if (rc != OpenClErrors.CL_SUCCESS) {
            throw device.commandError("clEnqueueReadBuffer", rc, "reading " + bytes + " bytes at " + srcOffset + " from " + b);
        }
    }

    @Override
    public synchronized DeviceEvent record() {
        MemorySegment q = usable("record");
        int rc = device.api.enqueueMarkerWithWaitList(q, eventOut);
        if (rc != OpenClErrors.CL_SUCCESS) throw device.commandError("clEnqueueMarkerWithWaitList", rc, "recording an event");
        OpenClEvent e = device.eventCreated(eventOut.get(ADDRESS, 0));
        // another queue may wait for this event: OpenCL requires the commands before it to be submitted
        rc = device.api.flush(q);
        if (rc != OpenClErrors.CL_SUCCESS) throw device.commandError("clFlush", rc, "submitting commands before an event");
        return e;
    }

    @Override
    public synchronized void waitFor(DeviceEvent event) {
        if (!(event instanceof OpenClEvent e) || e.device != device) {
            throw new DeviceException(Kind.BAD_ARGUMENT, "waitFor on " + device.id + ": " + event
                    + " is not an event of this device");
        }
        MemorySegment q = usable("waitFor");
        waitList.set(ADDRESS, 0, e.handle());
        int rc = device.api.enqueueBarrierWithWaitList(q, 1, waitList);
        if (rc != OpenClErrors.CL_SUCCESS) throw device.commandError("clEnqueueBarrierWithWaitList", rc, "waiting for " + event);
    }

    @Override
    public void synchronize() {
        int rc = device.api.finish(usable("synchronize"));
        if (rc != OpenClErrors.CL_SUCCESS) throw device.commandError("clFinish", rc, "waiting for queued commands");
    }

    @Override
    public void release() {
        if (isDefault) return;
        synchronized (this) {
            if (released) return;
            released = true;
        }
        device.queueReleased(this);
        if (device.isClosed()) return; // released with the device
        int rc = device.api.finish(handle);
        int rr = device.api.releaseCommandQueue(handle);
        if (rc != OpenClErrors.CL_SUCCESS) throw device.commandError("clFinish", rc, "releasing a queue");
        OpenClErrors.check(rr, "clReleaseCommandQueue", device.id);
    }

    /** Releases the handle without waiting (the device is closing and has finished the queue). */
    void releaseAtClose() {
        released = true;
        device.api.releaseCommandQueue(handle);
    }

    boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return (isDefault ? "default queue" : "queue") + " of " + device.id;
    }
}
