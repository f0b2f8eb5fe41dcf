package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.DeviceException.Kind;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.KernelBuildException;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One OpenCL device with its own context and in-order, profiling-enabled command queues: the default
 * queue, created with the context on first use, and those of {@link #newQueue()}. Native scratch
 * memory lives in an automatic arena so any thread may call.
 */
final class OpenClDevice implements NativeDevice {
    /** Build options: the language version only, nothing that changes semantics. */
    static final String BUILD_OPTIONS = "-cl-std=CL1.2";
    /**
     * NVIDIA's OpenCL has no sub-group extension but accepts inline PTX: generated programs then shuffle within
     * warps ({@code shfl.sync}) instead of exchanging through local memory (LANGUAGE.md, sub-groups).
     */
    static final String NVIDIA_OPTIONS = BUILD_OPTIONS + " -DSQ_NV_PTX=1";

    /** The build options for this device. */
    String buildOptions() {
        return info.vendor().toUpperCase(java.util.Locale.ROOT).contains("NVIDIA") ? NVIDIA_OPTIONS : BUILD_OPTIONS;
    }

    final OpenClApi api;
    final String id;
    final MemorySegment platform;
    final MemorySegment device;
    private final BuildCache cache;
    private final DeviceInfo info;
    private final String platformVersion;
    private final long maxAllocBytes;

    /**
     * Device-lifetime native scratch, reused by calls (never concurrent). An automatic arena: any
     * thread may use it, and devices that are discovered but never closed leak nothing.
     */
    private final Arena arena = Arena.ofAuto();
    final MemorySegment err;         // cl_int errcode_ret
    final MemorySegment deviceList;  // cl_device_id[1]

    private MemorySegment context = MemorySegment.NULL;
    private OpenClQueue defaultQueue;
    private volatile boolean closed;
    private final Set<OpenClBuffer> liveBuffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<OpenClQueue> liveQueues = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Pinned host allocations alive: aligned address to usable size. */
    private final ConcurrentSkipListMap<Long, Long> pinned = new ConcurrentSkipListMap<>();
    private final Set<OpenClLaunch> liveLaunches = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<OpenClEvent> liveEvents = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<OpenClProgram> programs = new ArrayList<>();

    OpenClDevice(OpenClApi api, BuildCache cache, MemorySegment platform, MemorySegment device, String platformName,
                 String id) {
        this.api = api;
        this.cache = cache;
        this.platform = platform;
        this.device = device;
        this.id = id;
        this.err = arena.allocate(JAVA_INT);
        this.deviceList = arena.allocate(ADDRESS);
        deviceList.set(ADDRESS, 0, device);
        try (Arena a = Arena.ofConfined()) {
            platformVersion = OpenClApi.infoString(a,
                    (s, v, r) -> api.getPlatformInfo(platform, OpenClApi.CL_PLATFORM_VERSION, s, v, r),
                    "clGetPlatformInfo", id);
            String name = str(a, OpenClApi.CL_DEVICE_NAME);
            String driver = str(a, OpenClApi.CL_DRIVER_VERSION);
            String version = str(a, OpenClApi.CL_DEVICE_VERSION);
            String extensions = str(a, OpenClApi.CL_DEVICE_EXTENSIONS);
            long type = lng(a, OpenClApi.CL_DEVICE_TYPE);
            long global = lng(a, OpenClApi.CL_DEVICE_GLOBAL_MEM_SIZE);
            long local = lng(a, OpenClApi.CL_DEVICE_LOCAL_MEM_SIZE);
            maxAllocBytes = lng(a, OpenClApi.CL_DEVICE_MAX_MEM_ALLOC_SIZE);
            int units = OpenClApi.infoInt(a, (s, v, r) -> api.getDeviceInfo(device, OpenClApi.CL_DEVICE_MAX_COMPUTE_UNITS, s, v, r),
                    "clGetDeviceInfo(CL_DEVICE_MAX_COMPUTE_UNITS)", id);
            long wg = lng(a, OpenClApi.CL_DEVICE_MAX_WORK_GROUP_SIZE);
            // CL_DEVICE_DOUBLE_FP_CONFIG is a capability probe: drivers without fp64 may reject the query itself.
            MemorySegment fp = a.allocate(JAVA_LONG);
            int rc = api.getDeviceInfo(device, OpenClApi.CL_DEVICE_DOUBLE_FP_CONFIG, 8, fp, MemorySegment.NULL);
            boolean fp64 = (rc == OpenClErrors.CL_SUCCESS && fp.get(JAVA_LONG, 0) != 0)
                    || List.of(extensions.split("\\s+")).contains("cl_khr_fp64");
            info = new DeviceInfo("opencl", id, name, platformName, driver, global, local, units,
                    (int) Math.min(wg, Integer.MAX_VALUE), 32, fp64, (type & OpenClApi.CL_DEVICE_TYPE_GPU) != 0 ? DeviceType.GPU
                    : (type & OpenClApi.CL_DEVICE_TYPE_CPU) != 0 ? DeviceType.CPU : DeviceType.ACCELERATOR, version);
        }
    }

    private String str(Arena a, int param) {
        return OpenClApi.infoString(a, (s, v, r) -> api.getDeviceInfo(device, param, s, v, r),
                "clGetDeviceInfo(0x" + Integer.toHexString(param) + ")", id);
    }

    private long lng(Arena a, int param) {
        return OpenClApi.infoLong(a, (s, v, r) -> api.getDeviceInfo(device, param, s, v, r),
                "clGetDeviceInfo(0x" + Integer.toHexString(param) + ")", id);
    }

    @Override
    public DeviceInfo info() {
        return info;
    }

    long maxAllocBytes() {
        return maxAllocBytes;
    }

    @Override
    public String toString() {
        return id + " (" + info.name() + ", " + info.vendor() + ")";
    }

    // ---- context and queue ----

    private void checkOpen() {
        if (closed) throw new DeviceException(Kind.BAD_ARGUMENT, "OpenCL device " + id + " is closed");
    }

    /** The context, created with the queue on first use. */
    synchronized MemorySegment context() {
        checkOpen();
        if (context.equals(MemorySegment.NULL)) open();
        return context;
    }

    @Override
    public synchronized NativeQueue defaultQueue() {
        context();
        return defaultQueue;
    }

    /** The queue as one of ours ({@code null} means the default queue), or null when it belongs elsewhere. */
    OpenClQueue queue(NativeQueue q) {
        if (q == null) return (OpenClQueue) defaultQueue();
        return q instanceof OpenClQueue oq && oq.device == this ? oq : null;
    }

    @Override
    public NativeQueue newQueue() {
        MemorySegment ctx = context();
        OpenClQueue q = new OpenClQueue(this, createQueue(ctx), false);
        synchronized (this) {
            checkOpen();
            liveQueues.add(q);
        }
        return q;
    }

    synchronized void queueReleased(OpenClQueue q) {
        liveQueues.remove(q);
    }

    /** An in-order command queue with profiling on {@code ctx}. */
    private MemorySegment createQueue(MemorySegment ctx) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment e = a.allocate(JAVA_INT);
            MemorySegment q = MemorySegment.NULL;
            int rc = -1;
            if (api.clCreateCommandQueueWithProperties.isPresent() && majorVersion(info.computeCapability()) >= 2) {
                MemorySegment qp = a.allocate(JAVA_LONG, 3);
                qp.setAtIndex(JAVA_LONG, 0, OpenClApi.CL_QUEUE_PROPERTIES);
                qp.setAtIndex(JAVA_LONG, 1, OpenClApi.CL_QUEUE_PROFILING_ENABLE);
                qp.setAtIndex(JAVA_LONG, 2, 0L);
                q = api.createCommandQueueWithProperties(ctx, device, qp, e);
                rc = e.get(JAVA_INT, 0);
            }
            if (rc != OpenClErrors.CL_SUCCESS) {
                q = api.createCommandQueue(ctx, device, OpenClApi.CL_QUEUE_PROFILING_ENABLE, e);
                rc = e.get(JAVA_INT, 0);
            }
            if (rc != OpenClErrors.CL_SUCCESS) throw OpenClErrors.exception("clCreateCommandQueue", rc, id, null);
            return q;
        }
    }

    private void open() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment props = a.allocate(JAVA_LONG, 3);
            props.setAtIndex(JAVA_LONG, 0, OpenClApi.CL_CONTEXT_PLATFORM);
            props.setAtIndex(JAVA_LONG, 1, platform.address());
            props.setAtIndex(JAVA_LONG, 2, 0L);
            MemorySegment ctx = api.createContext(props, 1, deviceList, err);
            OpenClErrors.check(err.get(JAVA_INT, 0), "clCreateContext", id);
            MemorySegment q;
            try {
                q = createQueue(ctx);
            } catch (DeviceException e) {
                api.releaseContext(ctx);
                throw e;
            }
            context = ctx;
            defaultQueue = new OpenClQueue(this, q, true);
        }
    }

    private static int majorVersion(String deviceVersion) {
        // "OpenCL <major>.<minor> <vendor-specific>"
        String[] parts = deviceVersion.split("\\s+");
        if (parts.length < 2) return 1;
        try {
            return Integer.parseInt(parts[1].substring(0, parts[1].indexOf('.')));
        } catch (RuntimeException e) {
            return 1;
        }
    }

    // ---- memory ----

    private String sizes(long requested) {
        return "requested " + requested + " bytes, device has " + info.globalMemoryBytes()
                + " bytes (max single allocation " + maxAllocBytes + ")";
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        if (bytes < 0) throw new DeviceException(Kind.BAD_ARGUMENT, "negative allocation size " + bytes + " on " + id);
        MemorySegment ctx = context();
        if (bytes > maxAllocBytes || bytes > info.globalMemoryBytes()) {
            throw new DeviceException(Kind.OUT_OF_MEMORY, "cannot allocate on " + id + " (" + info.name() + "): "
                    + sizes(bytes));
        }
        // A zero-byte array still gets a valid cl_mem (OpenCL rejects size 0).
        MemorySegment mem = api.createBuffer(ctx, OpenClApi.CL_MEM_READ_WRITE, Math.max(bytes, 1), err);
        int rc = err.get(JAVA_INT, 0);
        if (rc != OpenClErrors.CL_SUCCESS) {
            if (OpenClErrors.isOutOfMemory(rc) || rc == -61 /* CL_INVALID_BUFFER_SIZE */) {
                throw new DeviceException(Kind.OUT_OF_MEMORY, OpenClErrors.message("clCreateBuffer", rc, id) + ": "
                        + sizes(bytes));
            }
            throw OpenClErrors.exception("clCreateBuffer", rc, id, sizes(bytes));
        }
        OpenClBuffer b = new OpenClBuffer(this, mem, bytes);
        synchronized (this) {
            liveBuffers.add(b);
        }
        return b;
    }

    synchronized void released(OpenClBuffer b) {
        liveBuffers.remove(b);
    }

    /** The buffer as ours, or BAD_ARGUMENT. */
    OpenClBuffer own(DeviceBuffer b, String what) {
        if (!(b instanceof OpenClBuffer ob) || ob.device != this) {
            throw new DeviceException(Kind.BAD_ARGUMENT, what + " is not a buffer of " + id + ": " + b);
        }
        if (ob.isReleased()) throw new DeviceException(Kind.BAD_ARGUMENT, what + " was released: " + ob);
        return ob;
    }

    /** An error from a command that may be the first to touch lazily allocated memory. */
    DeviceException commandError(String function, int rc, String detail) {
        if (OpenClErrors.isOutOfMemory(rc)) {
            return new DeviceException(Kind.OUT_OF_MEMORY, OpenClErrors.message(function, rc, id) + ": " + detail
                    + "; device has " + info.globalMemoryBytes() + " bytes (max single allocation " + maxAllocBytes + ")");
        }
        return OpenClErrors.exception(function, rc, id, detail);
    }

    // ---- pinned host memory ----

    @Override
    public MemorySegment allocatePinned(long bytes) {
        if (bytes < 0) throw new DeviceException(Kind.BAD_ARGUMENT, "negative pinned allocation size " + bytes + " on " + id);
        MemorySegment ctx = context();
        long size = bytes + 64; // room to align the mapped pointer to 64 bytes
        try (Arena a = Arena.ofConfined()) {
            MemorySegment e = a.allocate(JAVA_INT);
            MemorySegment mem = api.createBuffer(ctx, OpenClApi.CL_MEM_READ_WRITE | OpenClApi.CL_MEM_ALLOC_HOST_PTR, size, e);
            int rc = e.get(JAVA_INT, 0);
            if (rc != OpenClErrors.CL_SUCCESS) {
                if (OpenClErrors.isOutOfMemory(rc) || rc == -61 /* CL_INVALID_BUFFER_SIZE */) {
                    throw new DeviceException(Kind.OUT_OF_MEMORY, OpenClErrors.message("clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", rc, id)
                            + ": " + sizes(size));
                }
                throw OpenClErrors.exception("clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", rc, id, sizes(size));
            }
            MemorySegment mapped = api.enqueueMapBuffer(defaultQueue.usable("allocatePinned"), mem, size, e);
            rc = e.get(JAVA_INT, 0);
            if (rc != OpenClErrors.CL_SUCCESS) {
                api.releaseMemObject(mem);
                throw commandError("clEnqueueMapBuffer", rc, "mapping " + size + " bytes of pinned host memory");
            }
            long aligned = (mapped.address() + 63) & -64L;
            pinned.put(aligned, Math.max(1, bytes));
            @SuppressWarnings("restricted") // native access is this backend's purpose
            MemorySegment seg = MemorySegment.ofAddress(aligned).reinterpret(bytes, Arena.ofAuto(),
                    s -> freePinned(mem, mapped, aligned));
            seg.fill((byte) 0);
            return seg;
        }
    }

    @Override
    public boolean isPinned(MemorySegment segment) {
        if (!segment.isNative()) return false;
        long start = segment.address();
        Map.Entry<Long, Long> e = pinned.floorEntry(start);
        return e != null && start + segment.byteSize() <= e.getKey() + e.getValue();
    }

    /** Unmaps and releases a pinned allocation (from the cleaner, once its segment is unreachable). */
    private void freePinned(MemorySegment mem, MemorySegment mapped, long aligned) {
        pinned.remove(aligned);
        synchronized (this) {
            // after close the queue is gone; releasing the buffer frees the mapping with it
            if (!closed) api.enqueueUnmapMemObject(defaultQueue.handle, mem, mapped);
            api.releaseMemObject(mem);
        }
    }

    // ---- programs ----

    /** The device identity in the cache key: name, driver, platform. */
    String cacheIdentity() {
        return info.name() + "\0" + info.driverVersion() + "\0" + info.vendor() + "\0" + platformVersion;
    }

    @Override
    public DeviceProgram build(String name, String source) {
        MemorySegment ctx = context();
        String key = BuildCache.key("opencl", cacheIdentity(), buildOptions(), source);
        Optional<byte[]> cached = cache.get(key);
        if (cached.isPresent()) {
            OpenClProgram p = fromBinary(ctx, name, cached.get());
            if (p != null) return register(p);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment text = a.allocateFrom(source);
            MemorySegment strings = a.allocateFrom(ADDRESS, text);
            MemorySegment lengths = a.allocateFrom(JAVA_LONG, text.byteSize() - 1);
            MemorySegment prog = api.createProgramWithSource(ctx, strings, lengths, err);
            OpenClErrors.check(err.get(JAVA_INT, 0), "clCreateProgramWithSource", id);
            long t0 = System.nanoTime();
            int rc = api.buildProgram(prog, deviceList, a.allocateFrom(buildOptions()));
            double ms = (System.nanoTime() - t0) / 1e6;
            if (rc != OpenClErrors.CL_SUCCESS) {
                String log;
                try {
                    log = buildLog(prog);
                } finally {
                    api.releaseProgram(prog);
                }
                if (rc == OpenClErrors.CL_BUILD_PROGRAM_FAILURE) throw new KernelBuildException(name, id, log, source);
                throw OpenClErrors.exception("clBuildProgram", rc, id, "program " + name + ":\n" + log);
            }
            OpenClProgram p = new OpenClProgram(this, name, prog, ms, false);
            register(p);
            byte[] binary = binary(prog);
            if (binary.length > 0) cache.put(key, binary);
            return p;
        }
    }

    private synchronized OpenClProgram register(OpenClProgram p) {
        programs.add(p);
        return p;
    }

    /** Loads and builds a cached binary; null (with a warning) when the driver rejects it. */
    private OpenClProgram fromBinary(MemorySegment ctx, String name, byte[] binary) {
        if (binary.length == 0) return null;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment bin = a.allocate(binary.length);
            MemorySegment.copy(binary, 0, bin, JAVA_BYTE, 0, binary.length);
            MemorySegment lengths = a.allocateFrom(JAVA_LONG, binary.length);
            MemorySegment binaries = a.allocateFrom(ADDRESS, bin);
            MemorySegment status = a.allocate(JAVA_INT);
            status.set(JAVA_INT, 0, -1);
            MemorySegment prog = api.createProgramWithBinary(ctx, deviceList, lengths, binaries, status, err);
            int rc = err.get(JAVA_INT, 0);
            if (rc == OpenClErrors.CL_SUCCESS && status.get(JAVA_INT, 0) != OpenClErrors.CL_SUCCESS) {
                rc = status.get(JAVA_INT, 0);
            }
            String function = "clCreateProgramWithBinary";
            if (rc == OpenClErrors.CL_SUCCESS) {
                long t0 = System.nanoTime();
                rc = api.buildProgram(prog, deviceList, a.allocateFrom(buildOptions()));
                double ms = (System.nanoTime() - t0) / 1e6;
                if (rc == OpenClErrors.CL_SUCCESS) return new OpenClProgram(this, name, prog, ms, true);
                function = "clBuildProgram";
            }
            if (!prog.equals(MemorySegment.NULL)) api.releaseProgram(prog);
            System.err.println("squall: warning: cached OpenCL binary of " + name + " rejected by " + id + " ("
                    + OpenClErrors.message(function, rc, id) + "); rebuilding from source");
            return null;
        }
    }

    String buildLog(MemorySegment prog) {
        try (Arena a = Arena.ofConfined()) {
            return OpenClApi.infoString(a,
                    (s, v, r) -> api.getProgramBuildInfo(prog, device, OpenClApi.CL_PROGRAM_BUILD_LOG, s, v, r),
                    "clGetProgramBuildInfo(CL_PROGRAM_BUILD_LOG)", id);
        }
    }

    private byte[] binary(MemorySegment prog) {
        try (Arena a = Arena.ofConfined()) {
            long size = OpenClApi.infoLong(a,
                    (s, v, r) -> api.getProgramInfo(prog, OpenClApi.CL_PROGRAM_BINARY_SIZES, s, v, r),
                    "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", id);
            if (size <= 0) return new byte[0];
            MemorySegment bin = a.allocate(size);
            MemorySegment ptrs = a.allocateFrom(ADDRESS, bin);
            OpenClErrors.check(api.getProgramInfo(prog, OpenClApi.CL_PROGRAM_BINARIES, ADDRESS.byteSize(), ptrs,
                    MemorySegment.NULL), "clGetProgramInfo(CL_PROGRAM_BINARIES)", id);
            return bin.toArray(JAVA_BYTE);
        }
    }

    synchronized void launchCreated(OpenClLaunch l) {
        liveLaunches.add(l);
    }

    synchronized void launchReleased(OpenClLaunch l) {
        liveLaunches.remove(l);
    }

    // ---- synchronization and events ----

    @Override
    public void synchronize() {
        OpenClQueue q;
        synchronized (this) {
            checkOpen();
            q = defaultQueue;
        }
        if (q == null) return; // nothing was ever queued
        q.synchronize();
    }

    /** Tracks an event a queue has just created, so close() can release it. */
    synchronized OpenClEvent eventCreated(MemorySegment handle) {
        OpenClEvent e = new OpenClEvent(this, handle);
        liveEvents.add(e);
        return e;
    }

    synchronized void eventReleased(OpenClEvent e) {
        liveEvents.remove(e);
    }

    /** Device time from {@code a} to {@code b} (CL_PROFILING_COMMAND_END of each), in milliseconds. */
    double millisBetween(OpenClEvent a, OpenClEvent b) {
        checkOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pair = arena.allocate(ADDRESS, 2);
            pair.setAtIndex(ADDRESS, 0, a.handle);
            pair.setAtIndex(ADDRESS, 1, b.handle);
            int rc = api.waitForEvents(2, pair);
            if (rc != OpenClErrors.CL_SUCCESS) throw commandError("clWaitForEvents", rc, "waiting for two events");
            MemorySegment ulong = arena.allocate(JAVA_LONG);
            return (end(b, ulong) - end(a, ulong)) / 1e6;
        }
    }

    private long end(OpenClEvent e, MemorySegment ulong) {
        int rc = api.getEventProfilingInfo(e.handle, OpenClApi.CL_PROFILING_COMMAND_END, 8, ulong, MemorySegment.NULL);
        OpenClErrors.check(rc, "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)", id);
        return ulong.get(JAVA_LONG, 0);
    }

    /** Waits for one event; a failed command before it is reported with its OpenCL status. */
    void await(OpenClEvent e) {
        checkOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocateFrom(ADDRESS, e.handle);
            int rc = api.waitForEvents(1, list);
            if (rc == OpenClErrors.CL_SUCCESS) return;
            int status = status(e, arena);
            throw commandError("clWaitForEvents", status < 0 ? status : rc, "a command before the awaited event failed");
        }
    }

    /** Whether the event's commands have finished; a failed command is reported with its OpenCL status. */
    boolean isComplete(OpenClEvent e) {
        checkOpen();
        try (Arena arena = Arena.ofConfined()) {
            int status = status(e, arena);
            if (status < 0) throw commandError("clGetEventInfo", status, "a command before the event failed");
            return status == OpenClApi.CL_COMPLETE;
        }
    }

    private int status(OpenClEvent e, Arena arena) {
        MemorySegment v = arena.allocate(JAVA_INT);
        int rc = api.getEventInfo(e.handle, OpenClApi.CL_EVENT_COMMAND_EXECUTION_STATUS, 4, v, MemorySegment.NULL);
        OpenClErrors.check(rc, "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", id);
        return v.get(JAVA_INT, 0);
    }

    // ---- teardown ----

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        synchronized (this) {
            if (closed) return;
            for (OpenClQueue q : List.copyOf(liveQueues)) {
                int rc = api.finish(q.handle);
                if (rc != OpenClErrors.CL_SUCCESS) failures.add(OpenClErrors.exception("clFinish", rc, id, "at close"));
            }
            if (defaultQueue != null) {
                int rc = api.finish(defaultQueue.handle);
                if (rc != OpenClErrors.CL_SUCCESS) failures.add(OpenClErrors.exception("clFinish", rc, id, "at close"));
            }
            for (OpenClEvent e : List.copyOf(liveEvents)) run(failures, e::release);
            for (OpenClLaunch l : List.copyOf(liveLaunches)) run(failures, l::release);
            for (OpenClProgram p : programs) run(failures, p::release);
            programs.clear();
            for (OpenClBuffer b : List.copyOf(liveBuffers)) run(failures, b::release);
            for (OpenClQueue q : List.copyOf(liveQueues)) q.releaseAtClose();
            liveQueues.clear();
            if (defaultQueue != null) {
                int rc = api.releaseCommandQueue(defaultQueue.handle);
                if (rc != OpenClErrors.CL_SUCCESS) failures.add(OpenClErrors.exception("clReleaseCommandQueue", rc, id, null));
                rc = api.releaseContext(context);
                if (rc != OpenClErrors.CL_SUCCESS) failures.add(OpenClErrors.exception("clReleaseContext", rc, id, null));
            }
            context = MemorySegment.NULL;
            closed = true;
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            for (int i = 1; i < failures.size(); i++) first.addSuppressed(failures.get(i));
            throw first;
        }
    }

    boolean isClosed() {
        return closed;
    }

    private static void run(List<RuntimeException> failures, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }
}
