package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.KernelBuildException;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One CUDA device. The primary context is retained lazily (at the first allocation, build or
 * copy), so discovery alone costs no device memory. Each queue is a non-blocking stream; the default
 * queue's stream is created with the context.
 */
final class CudaDevice implements NativeDevice {

    /** The (thread, context) pair that was last made current by any CudaDevice; see {@link #ensureCurrent()}. */
    private record Binding(Thread thread, long ctx) {
    }

    private static volatile Binding current;

    final int ordinal;
    final int dev;
    final String id;
    private final DeviceInfo info;
    private final BuildCache cache;
    final int ccMajor;
    final int ccMinor;
    final int maxThreadsPerBlock;
    final long[] maxBlock = new long[3];
    final long[] maxGrid = new long[3];

    private volatile MemorySegment ctx;
    private volatile CudaQueue defaultQueue;
    private volatile boolean closed;
    /** Whether close() released the primary context; it does not while pinned host memory is alive. */
    private boolean contextReleased;

    private final Set<CudaBuffer> liveBuffers = ConcurrentHashMap.newKeySet();
    private final Set<CudaQueue> liveQueues = ConcurrentHashMap.newKeySet();
    /** Pinned host allocations alive: address to size. */
    private final Map<Long, Long> pinned = new ConcurrentSkipListMap<>();
    private final List<MemorySegment> modules = new ArrayList<>();

    private CudaDevice(int ordinal, int dev, DeviceInfo info, BuildCache cache, int ccMajor, int ccMinor, int[] limits) {
        this.ordinal = ordinal;
        this.dev = dev;
        this.id = info.id();
        this.info = info;
        this.cache = cache;
        this.ccMajor = ccMajor;
        this.ccMinor = ccMinor;
        this.maxThreadsPerBlock = info.maxWorkGroupSize();
        for (int i = 0; i < 3; i++) {
            maxBlock[i] = limits[i];
            maxGrid[i] = limits[3 + i];
        }
    }

    /** Reads identity and limits; creates no context. */
    static CudaDevice open(int ordinal, int dev, String driverVersion, BuildCache cache) {
        String id = "cuda:" + ordinal;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment nameBuf = a.allocate(256);
            CudaErrors.check(CudaApi.cuDeviceGetName(nameBuf, 256, dev), "cuDeviceGetName", id);
            String name = nameBuf.getString(0, StandardCharsets.UTF_8).strip();
            MemorySegment pBytes = a.allocate(JAVA_LONG);
            CudaErrors.check(CudaApi.cuDeviceTotalMem(pBytes, dev), "cuDeviceTotalMem_v2", id);
            long total = pBytes.get(JAVA_LONG, 0);
            MemorySegment pi = a.allocate(JAVA_INT);
            int shared = attribute(pi, CudaApi.ATTR_MAX_SHARED_MEMORY_PER_BLOCK, dev, id);
            int sms = attribute(pi, CudaApi.ATTR_MULTIPROCESSOR_COUNT, dev, id);
            int maxThreads = attribute(pi, CudaApi.ATTR_MAX_THREADS_PER_BLOCK, dev, id);
            int warp = attribute(pi, CudaApi.ATTR_WARP_SIZE, dev, id);
            int major = attribute(pi, CudaApi.ATTR_COMPUTE_CAPABILITY_MAJOR, dev, id);
            int minor = attribute(pi, CudaApi.ATTR_COMPUTE_CAPABILITY_MINOR, dev, id);
            int[] limits = {
                    attribute(pi, CudaApi.ATTR_MAX_BLOCK_DIM_X, dev, id),
                    attribute(pi, CudaApi.ATTR_MAX_BLOCK_DIM_Y, dev, id),
                    attribute(pi, CudaApi.ATTR_MAX_BLOCK_DIM_Z, dev, id),
                    attribute(pi, CudaApi.ATTR_MAX_GRID_DIM_X, dev, id),
                    attribute(pi, CudaApi.ATTR_MAX_GRID_DIM_Y, dev, id),
                    attribute(pi, CudaApi.ATTR_MAX_GRID_DIM_Z, dev, id)};
            DeviceInfo info = new DeviceInfo("cuda", id, name, "NVIDIA", driverVersion, total, shared, sms, maxThreads,
                    warp, true, DeviceType.GPU, major + "." + minor);
            return new CudaDevice(ordinal, dev, info, cache, major, minor, limits);
        }
    }

    private static int attribute(MemorySegment pi, int attr, int dev, String id) {
        CudaErrors.check(CudaApi.cuDeviceGetAttribute(pi, attr, dev), "cuDeviceGetAttribute(" + attr + ")", id);
        return pi.get(JAVA_INT, 0);
    }

    @Override
    public DeviceInfo info() {
        return info;
    }

    String id() {
        return id;
    }

    // ------------------------------------------------------------------ context

    private synchronized MemorySegment openContext() {
        if (closed) throw closedError();
        if (ctx != null) return ctx;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            CudaErrors.check(CudaApi.cuDevicePrimaryCtxRetain(p, dev), "cuDevicePrimaryCtxRetain", id);
            MemorySegment c = p.get(ADDRESS, 0);
            int rc = CudaApi.cuCtxSetCurrent(c);
            if (rc != CudaErrors.CUDA_SUCCESS) {
                CudaApi.cuDevicePrimaryCtxRelease(dev);
                throw CudaErrors.error(rc, "cuCtxSetCurrent", id);
            }
            current = new Binding(Thread.currentThread(), c.address());
            rc = CudaApi.cuStreamCreate(p, CudaApi.CU_STREAM_NON_BLOCKING);
            if (rc != CudaErrors.CUDA_SUCCESS) {
                CudaApi.cuDevicePrimaryCtxRelease(dev);
                current = null;
                throw CudaErrors.error(rc, "cuStreamCreate", id);
            }
            defaultQueue = new CudaQueue(this, p.get(ADDRESS, 0), true);
            ctx = c;
            return c;
        }
    }

    /**
     * Makes this device's context current on the calling thread. The driver's binding is per OS
     * thread; we remember the last (thread, context) pair we set, so a thread that keeps using one
     * device pays one volatile read. Virtual threads can change carrier between calls, so for them
     * the context is always set.
     */
    void ensureCurrent() {
        MemorySegment c = ctx;
        if (c == null) c = openContext();
        if (closed) throw closedError();
        Thread t = Thread.currentThread();
        Binding b = current;
        if (b != null && b.thread == t && b.ctx == c.address() && !t.isVirtual()) return;
        int rc = CudaApi.cuCtxSetCurrent(c);
        if (rc != CudaErrors.CUDA_SUCCESS) throw CudaErrors.error(rc, "cuCtxSetCurrent", id);
        current = new Binding(t, c.address());
    }

    @Override
    public NativeQueue defaultQueue() {
        ensureCurrent();
        return defaultQueue;
    }

    @Override
    public NativeQueue newQueue() {
        ensureCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            CudaErrors.check(CudaApi.cuStreamCreate(p, CudaApi.CU_STREAM_NON_BLOCKING), "cuStreamCreate", id);
            CudaQueue q = new CudaQueue(this, p.get(ADDRESS, 0), false);
            liveQueues.add(q);
            return q;
        }
    }

    void queueReleased(CudaQueue q) {
        liveQueues.remove(q);
    }

    /** The queue as one of ours ({@code null} means the default queue), or null when it belongs elsewhere. */
    CudaQueue queue(NativeQueue q) {
        if (q == null) {
            ensureCurrent();
            return defaultQueue;
        }
        return q instanceof CudaQueue cq && cq.device == this ? cq : null;
    }

    boolean isClosed() {
        return closed;
    }

    private DeviceException closedError() {
        return new DeviceException(DeviceException.Kind.BAD_ARGUMENT, id + " is closed");
    }

    private static DeviceException bad(String msg) {
        return new DeviceException(DeviceException.Kind.BAD_ARGUMENT, msg);
    }

    // ------------------------------------------------------------------ memory

    @Override
    public DeviceBuffer allocate(long bytes) {
        if (bytes < 0) throw bad("allocate: negative size " + bytes + " on " + id);
        ensureCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            int rc = CudaApi.cuMemAlloc(p, Math.max(1, bytes));
            if (rc == CudaErrors.CUDA_ERROR_OUT_OF_MEMORY
                    || (rc == CudaErrors.CUDA_ERROR_INVALID_VALUE && bytes > info.globalMemoryBytes())) {
                throw outOfMemory(a, bytes, rc);
            }
            CudaErrors.check(rc, "cuMemAlloc_v2(" + bytes + " bytes)", id);
            CudaBuffer b = new CudaBuffer(this, p.get(JAVA_LONG, 0), bytes);
            liveBuffers.add(b);
            return b;
        }
    }

    private DeviceException outOfMemory(Arena a, long bytes, int rc) {
        MemorySegment pFree = a.allocate(JAVA_LONG), pTotal = a.allocate(JAVA_LONG);
        String sizes;
        if (CudaApi.cuMemGetInfo(pFree, pTotal) == CudaErrors.CUDA_SUCCESS) {
            sizes = "free " + pFree.get(JAVA_LONG, 0) + " of " + pTotal.get(JAVA_LONG, 0) + " bytes";
        } else {
            sizes = "free unknown of " + info.globalMemoryBytes() + " bytes";
        }
        return new DeviceException(DeviceException.Kind.OUT_OF_MEMORY, "cuMemAlloc_v2 on " + id + ": requested "
                + bytes + " bytes, " + sizes + " (" + CudaErrors.name(rc) + ")");
    }

    void free(CudaBuffer b) {
        liveBuffers.remove(b);
        if (closed) return; // freed with the context
        ensureCurrent();
        CudaErrors.check(CudaApi.cuMemFree(b.dptr), "cuMemFree_v2", id);
    }

    CudaBuffer buffer(DeviceBuffer b, String where) {
        if (!(b instanceof CudaBuffer cb) || cb.device != this) {
            throw bad(where + ": buffer " + b + " does not belong to " + id);
        }
        if (cb.isReleased()) throw bad(where + ": buffer was released");
        return cb;
    }

    // ------------------------------------------------------------------ pinned host memory

    @Override
    public MemorySegment allocatePinned(long bytes) {
        if (bytes < 0) throw bad("allocatePinned: negative size " + bytes + " on " + id);
        ensureCurrent();
        long address;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pp = a.allocate(ADDRESS);
            int rc = CudaApi.cuMemHostAlloc(pp, Math.max(1, bytes), CudaApi.CU_MEMHOSTALLOC_PORTABLE);
            if (rc == CudaErrors.CUDA_ERROR_OUT_OF_MEMORY) {
                throw new DeviceException(DeviceException.Kind.OUT_OF_MEMORY, "cuMemHostAlloc on " + id + ": "
                        + bytes + " bytes of page-locked host memory not available (" + CudaErrors.describe(rc) + ")");
            }
            CudaErrors.check(rc, "cuMemHostAlloc(" + bytes + " bytes)", id);
            address = pp.get(ADDRESS, 0).address();
        }
        if (address % 64 != 0) { // cuMemHostAlloc returns page-aligned memory; anything else breaks KernelArray's contract
            freePinned(address);
            throw new DeviceException(DeviceException.Kind.DRIVER_ERROR, "cuMemHostAlloc on " + id + " returned 0x"
                    + Long.toHexString(address) + ", not 64-byte aligned");
        }
        pinned.put(address, Math.max(1, bytes));
        long at = address;
        @SuppressWarnings("restricted") // native access is this backend's purpose
        MemorySegment seg = MemorySegment.ofAddress(address).reinterpret(bytes, Arena.ofAuto(), s -> freePinned(at));
        seg.fill((byte) 0);
        return seg;
    }

    @Override
    public boolean isPinned(MemorySegment segment) {
        if (!segment.isNative()) return false;
        long start = segment.address();
        Map.Entry<Long, Long> e = ((ConcurrentSkipListMap<Long, Long>) pinned).floorEntry(start);
        return e != null && start + segment.byteSize() <= e.getKey() + e.getValue();
    }

    /** Frees page-locked memory (from the cleaner when its segment is unreachable); after close, releases the context with the last. */
    private synchronized void freePinned(long address) {
        pinned.remove(address);
        MemorySegment c = ctx;
        if (c == null || contextReleased) return;
        if (CudaApi.cuCtxSetCurrent(c) != CudaErrors.CUDA_SUCCESS) return;
        current = new Binding(Thread.currentThread(), c.address());
        CudaApi.cuMemFreeHost(MemorySegment.ofAddress(address));
        if (closed && pinned.isEmpty()) releaseContext();
    }

    // ------------------------------------------------------------------ build

    private record Target(boolean cubin, int arch) {
        String option() {
            return "--gpu-architecture=" + (cubin ? "sm_" : "compute_") + arch;
        }
    }

    private List<Target> targets(NvrtcApi nv) {
        int cc = ccMajor * 10 + ccMinor;
        int[] sup = nv.supportedArchs;
        List<Target> out = new ArrayList<>();
        if (sup.length == 0) {
            if (nv.canEmitCubin()) out.add(new Target(true, cc));
            out.add(new Target(false, cc));
            return out;
        }
        int best = -1;
        for (int s : sup) {
            if (s == cc && nv.canEmitCubin()) out.add(new Target(true, cc));
            if (s <= cc) best = Math.max(best, s);
        }
        if (best < 0) {
            throw new DeviceException(DeviceException.Kind.UNAVAILABLE, "NVRTC " + nv.version() + " (" + nv.libraryPath
                    + ") supports sm_" + sup[0] + "..sm_" + sup[sup.length - 1] + " but " + id + " is sm_" + cc);
        }
        out.add(new Target(false, best)); // PTX for the newest virtual arch <= device; the driver JITs it
        return out;
    }

    @Override
    public DeviceProgram build(String name, String source) {
        if (closed) throw closedError();
        NvrtcApi nv = NvrtcApi.get();
        int cc = ccMajor * 10 + ccMinor;
        String identity = info.name() + " sm_" + cc + " nvrtc " + nv.version();
        List<Target> targets = targets(nv);
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            List<String> options = List.of(t.option(), "-default-device", "--std=c++17", "-lineinfo");
            String key = BuildCache.key("cuda", identity, String.join(" ", options), source);
            Optional<byte[]> hit = cache.get(key);
            if (hit.isPresent()) {
                try {
                    return new CudaProgram(this, name, loadModule(hit.get(), name), 0.0, true);
                } catch (DeviceException e) {
                    // a stale or corrupt cache entry: rebuild and overwrite it
                }
            }
            long t0 = System.nanoTime();
            NvrtcApi.Result r = nv.compile(name + ".cu", source, options, t.cubin(), id);
            double ms = (System.nanoTime() - t0) / 1e6;
            if (r.rc() == NvrtcApi.NVRTC_SUCCESS) {
                MemorySegment module = loadModule(r.image(), name);
                cache.put(key, r.image());
                return new CudaProgram(this, name, module, ms, false);
            }
            if (r.rc() == NvrtcApi.NVRTC_ERROR_COMPILATION) {
                throw new KernelBuildException(name, id, r.log(), source);
            }
            if (r.rc() == NvrtcApi.NVRTC_ERROR_INVALID_OPTION && i + 1 < targets.size()) continue;
            throw new DeviceException(DeviceException.Kind.DRIVER_ERROR, "NVRTC " + nv.version() + " failed to compile "
                    + name + " for " + id + " with " + options + ": " + nv.errorString(r.rc()) + " (" + r.rc() + ")"
                    + (r.log().isEmpty() ? "" : "\n" + r.log()));
        }
        throw new IllegalStateException("no NVRTC target for " + id);
    }

    private MemorySegment loadModule(byte[] image, String name) {
        ensureCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment img = a.allocate(image.length + 1L, 16); // zeroed: PTX text stays NUL-terminated
            MemorySegment.copy(image, 0, img, JAVA_BYTE, 0, image.length);
            MemorySegment p = a.allocate(ADDRESS);
            int rc = CudaApi.cuModuleLoadData(p, img);
            if (rc != CudaErrors.CUDA_SUCCESS) {
                String hint = rc == CudaErrors.CUDA_ERROR_UNSUPPORTED_PTX_VERSION
                        ? " (NVRTC is newer than the driver " + info.driverVersion() + "; use a matching NVRTC via SQUALL_NVRTC)" : "";
                DeviceException e = CudaErrors.error(rc, "cuModuleLoadData(" + name + ")", id);
                throw new DeviceException(e.kind(), e.getMessage() + hint);
            }
            MemorySegment m = p.get(ADDRESS, 0);
            synchronized (modules) {
                modules.add(m);
            }
            return m;
        }
    }

    // ------------------------------------------------------------------ sync, events, close

    /** A failure of earlier asynchronous work, as {@code function} reported it after {@code where}. */
    DeviceException asyncError(int rc, String function, String where) {
        String msg = "a kernel or copy failed on " + id + " (reported by " + function + " after " + where + "): "
                + CudaErrors.describe(rc);
        if (CudaErrors.sticky(rc)) msg += " (the CUDA context is now unusable; restart the process)";
        return new DeviceException(CudaErrors.kind(rc), msg);
    }

    @Override
    public void synchronize() {
        if (closed) throw closedError();
        if (ctx == null) return; // nothing was ever queued
        ensureCurrent();
        defaultQueue.syncStream("the last launch");
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        MemorySegment c = ctx;
        if (c == null) return;
        try {
            if (CudaApi.cuCtxSetCurrent(c) == CudaErrors.CUDA_SUCCESS) {
                for (CudaQueue q : liveQueues) CudaApi.cuStreamSynchronize(q.stream);
                CudaApi.cuStreamSynchronize(defaultQueue.stream);
                for (CudaBuffer b : liveBuffers) CudaApi.cuMemFree(b.dptr);
                liveBuffers.clear();
                synchronized (modules) {
                    for (MemorySegment m : modules) CudaApi.cuModuleUnload(m);
                    modules.clear();
                }
                for (CudaQueue q : liveQueues) {
                    CudaApi.cuStreamDestroy(q.stream);
                    q.freeStaging();
                }
                liveQueues.clear();
                CudaApi.cuStreamDestroy(defaultQueue.stream);
                defaultQueue.freeStaging();
            }
        } finally {
            // pinned host memory lives in the context: keep it until the last pinned segment is freed
            if (pinned.isEmpty()) releaseContext();
            else current = null;
        }
    }

    private void releaseContext() {
        contextReleased = true;
        CudaApi.cuDevicePrimaryCtxRelease(dev);
        current = null;
    }

    @Override
    public String toString() {
        return id + " (" + info.name() + ", sm_" + ccMajor + ccMinor + ")";
    }
}
