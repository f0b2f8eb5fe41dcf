package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceEvent;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * A non-blocking CUDA stream ({@code CU_STREAM_NON_BLOCKING}: it does not wait for the legacy default
 * stream, so streams of one device run concurrently unless ordered by events). Synchronous copies from
 * pageable memory go through a staging buffer of this queue, so queues copy independently.
 */
final class CudaQueue implements NativeQueue {
    /** Largest chunk staged through native memory when the host segment is on the Java heap. */
    private static final long STAGING_BYTES = 8L << 20;

    final CudaDevice device;
    final MemorySegment stream;
    private final boolean isDefault;
    private Arena stagingArena;
    private MemorySegment staging;
    private volatile boolean released;

    CudaQueue(CudaDevice device, MemorySegment stream, boolean isDefault) {
        this.device = device;
        this.stream = stream;
        this.isDefault = isDefault;
    }

    @Override
    public NativeDevice device() {
        return device;
    }

    private void checkUsable() {
        if (released) throw bad("queue on " + device.id() + " was released");
        device.ensureCurrent();
    }

    private static DeviceException bad(String msg) {
        return new DeviceException(DeviceException.Kind.BAD_ARGUMENT, msg);
    }

    private static void checkRange(String where, CudaBuffer b, long offset, long bytes, long hostBytes) {
        if (offset < 0 || bytes < 0 || offset > b.byteSize() || bytes > b.byteSize() - offset) {
            throw bad(where + ": offset " + offset + " + " + bytes + " bytes outside a buffer of " + b.byteSize() + " bytes");
        }
        if (bytes > hostBytes) throw bad(where + ": " + bytes + " bytes requested but the host segment has " + hostBytes);
    }

    private MemorySegment staging(long n) {
        if (staging == null || staging.byteSize() < n) {
            if (stagingArena != null) stagingArena.close();
            stagingArena = Arena.ofShared();
            staging = stagingArena.allocate(Math.max(n, 64 * 1024), 64);
        }
        return staging;
    }

    @Override
    public synchronized void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        CudaBuffer d = device.buffer(dst, "copyToDevice");
        checkRange("copyToDevice", d, dstOffset, bytes, src.byteSize());
        if (bytes == 0) return;
        checkUsable();
        if (src.isNative()) {
            CudaErrors.check(CudaApi.cuMemcpyHtoDAsync(d.dptr + dstOffset, src, bytes, stream), "cuMemcpyHtoDAsync_v2", device.id());
            syncStream("cuMemcpyHtoDAsync_v2");
            return;
        }
        for (long done = 0; done < bytes; ) {
            long n = Math.min(bytes - done, STAGING_BYTES);
            MemorySegment st = staging(n);
            MemorySegment.copy(src, done, st, 0, n);
            CudaErrors.check(CudaApi.cuMemcpyHtoDAsync(d.dptr + dstOffset + done, st, n, stream), "cuMemcpyHtoDAsync_v2", device.id());
            syncStream("cuMemcpyHtoDAsync_v2");
            done += n;
        }
    }

    @Override
    public synchronized void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        CudaBuffer s = device.buffer(src, "copyToHost");
        checkRange("copyToHost", s, srcOffset, bytes, dst.byteSize());
        if (dst.isReadOnly()) throw bad("copyToHost: destination segment is read-only");
        if (bytes == 0) return;
        checkUsable();
        if (dst.isNative()) {
            CudaErrors.check(CudaApi.cuMemcpyDtoHAsync(dst, s.dptr + srcOffset, bytes, stream), "cuMemcpyDtoHAsync_v2", device.id());
            syncStream("cuMemcpyDtoHAsync_v2");
            return;
        }
        for (long done = 0; done < bytes; ) {
            long n = Math.min(bytes - done, STAGING_BYTES);
            MemorySegment st = staging(n);
            CudaErrors.check(CudaApi.cuMemcpyDtoHAsync(st, s.dptr + srcOffset + done, n, stream), "cuMemcpyDtoHAsync_v2", device.id());
            syncStream("cuMemcpyDtoHAsync_v2");
            MemorySegment.copy(st, 0, dst, done, n);
            done += n;
        }
    }

    @Override
    public synchronized void zero(DeviceBuffer dst, long offset, long bytes) {
        CudaBuffer d = device.buffer(dst, "zero");
        checkRange("zero", d, offset, bytes, bytes);
        if (bytes == 0) return;
        checkUsable();
        CudaErrors.check(CudaApi.cuMemsetD8Async(d.dptr + offset, (byte) 0, bytes, stream), "cuMemsetD8Async", device.id());
        syncStream("cuMemsetD8Async");
    }

    @Override
    public synchronized void copyToDeviceAsync(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        CudaBuffer d = device.buffer(dst, "copyToDeviceAsync");
        checkRange("copyToDeviceAsync", d, dstOffset, bytes, src.byteSize());
        if (!device.isPinned(src.asSlice(0, bytes))) {
            throw bad("copyToDeviceAsync on " + device.id() + ": the source is not pinned memory of this device "
                    + "(allocatePinned); use copyToDevice");
        }
        if (bytes == 0) return;
        checkUsable();
        CudaErrors.check(CudaApi.cuMemcpyHtoDAsync(d.dptr + dstOffset, src, bytes, stream), "cuMemcpyHtoDAsync_v2", device.id());
    }

    @Override
    public synchronized void copyToHostAsync(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        CudaBuffer s = device.buffer(src, "copyToHostAsync");
        checkRange("copyToHostAsync", s, srcOffset, bytes, dst.byteSize());
        if (dst.isReadOnly()) throw bad("copyToHostAsync: destination segment is read-only");
        if (!device.isPinned(dst.asSlice(0, bytes))) {
            throw bad("copyToHostAsync on " + device.id() + ": the destination is not pinned memory of this device "
                    + "(allocatePinned); use copyToHost");
        }
        if (bytes == 0) return;
        checkUsable();
        CudaErrors.check(CudaApi.cuMemcpyDtoHAsync(dst, s.dptr + srcOffset, bytes, stream), "cuMemcpyDtoHAsync_v2", device.id());
    }

    @Override
    public synchronized DeviceEvent record() {
        checkUsable();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            CudaErrors.check(CudaApi.cuEventCreate(p, CudaApi.CU_EVENT_DEFAULT), "cuEventCreate", device.id());
            MemorySegment ev = p.get(ADDRESS, 0);
            int rc = CudaApi.cuEventRecord(ev, stream);
            if (rc != CudaErrors.CUDA_SUCCESS) {
                CudaApi.cuEventDestroy(ev);
                throw CudaErrors.error(rc, "cuEventRecord", device.id());
            }
            return new CudaEvent(device, ev);
        }
    }

    @Override
    public synchronized void waitFor(DeviceEvent event) {
        if (!(event instanceof CudaEvent e) || e.device != device) {
            throw bad("waitFor on " + device.id() + ": " + event + " is not an event of this device");
        }
        checkUsable();
        CudaErrors.check(CudaApi.cuStreamWaitEvent(stream, e.handle(), CudaApi.CU_EVENT_WAIT_DEFAULT), "cuStreamWaitEvent", device.id());
    }

    @Override
    public void synchronize() {
        if (released) throw bad("queue on " + device.id() + " was released");
        if (device.isClosed()) throw bad(device.id() + " is closed");
        device.ensureCurrent();
        syncStream("the last command");
    }

    void syncStream(String after) {
        int rc = CudaApi.cuStreamSynchronize(stream);
        if (rc != CudaErrors.CUDA_SUCCESS) throw device.asyncError(rc, "cuStreamSynchronize", after);
    }

    @Override
    public void release() {
        if (isDefault) return;
        synchronized (this) {
            if (released) return;
            released = true;
        }
        device.queueReleased(this);
        if (device.isClosed()) return; // destroyed with the context
        device.ensureCurrent();
        int rc = CudaApi.cuStreamSynchronize(stream);
        int rd = CudaApi.cuStreamDestroy(stream);
        freeStaging();
        if (rc != CudaErrors.CUDA_SUCCESS) throw device.asyncError(rc, "cuStreamSynchronize", "the queue's last command");
        CudaErrors.check(rd, "cuStreamDestroy_v2", device.id());
    }

    synchronized void freeStaging() {
        if (stagingArena != null) {
            stagingArena.close();
            stagingArena = null;
            staging = null;
        }
    }

    boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return (isDefault ? "default queue" : "queue") + " of " + device.id();
    }
}
