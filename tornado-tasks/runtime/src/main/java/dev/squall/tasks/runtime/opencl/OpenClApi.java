package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.spi.BackendUnavailableException;

import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.*;

/**
 * Downcall handles to the OpenCL ICD loader ({@code libOpenCL.so.1}) and the constants this
 * backend uses (values from the Khronos {@code cl.h}). Types: {@code cl_int}/{@code cl_uint} are
 * {@code int}, {@code size_t}/{@code cl_ulong}/{@code cl_bitfield} are {@code long}, handles are
 * addresses. The wrappers return the raw {@code cl_int} status; callers check it.
 */
final class OpenClApi {
    // clGetPlatformInfo
    static final int CL_PLATFORM_VERSION = 0x0901;
    static final int CL_PLATFORM_NAME = 0x0902;
    static final int CL_PLATFORM_VENDOR = 0x0903;
    // device types
    static final long CL_DEVICE_TYPE_CPU = 1L << 1;
    static final long CL_DEVICE_TYPE_GPU = 1L << 2;
    static final long CL_DEVICE_TYPE_ALL = 0xFFFFFFFFL;
    // clGetDeviceInfo
    static final int CL_DEVICE_TYPE = 0x1000;
    static final int CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
    static final int CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
    static final int CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
    static final int CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
    static final int CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
    static final int CL_DEVICE_NAME = 0x102B;
    static final int CL_DEVICE_VENDOR = 0x102C;
    static final int CL_DRIVER_VERSION = 0x102D;
    static final int CL_DEVICE_VERSION = 0x102F;
    static final int CL_DEVICE_EXTENSIONS = 0x1030;
    static final int CL_DEVICE_DOUBLE_FP_CONFIG = 0x1032;
    // context / queue / memory
    static final long CL_CONTEXT_PLATFORM = 0x1084;
    static final long CL_QUEUE_PROPERTIES = 0x1093;
    static final long CL_QUEUE_PROFILING_ENABLE = 1L << 1;
    static final long CL_MEM_READ_WRITE = 1L;
    static final long CL_MEM_ALLOC_HOST_PTR = 1L << 4;
    static final long CL_MAP_READ = 1L;
    static final long CL_MAP_WRITE = 1L << 1;
    static final int CL_FALSE = 0;
    static final int CL_TRUE = 1;
    // programs and kernels
    static final int CL_PROGRAM_BINARY_SIZES = 0x1165;
    static final int CL_PROGRAM_BINARIES = 0x1166;
    static final int CL_PROGRAM_BUILD_LOG = 0x1183;
    static final int CL_KERNEL_NUM_ARGS = 0x1191;
    static final int CL_KERNEL_WORK_GROUP_SIZE = 0x11B0;
    static final int CL_KERNEL_LOCAL_MEM_SIZE = 0x11B2;
    static final int CL_KERNEL_PRIVATE_MEM_SIZE = 0x11B4;
    // events
    static final int CL_PROFILING_COMMAND_END = 0x1283;
    static final int CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;
    static final int CL_COMPLETE = 0;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ValueLayout.OfLong SIZE_T = JAVA_LONG;

    final String library;
    final MethodHandle clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo;
    final MethodHandle clCreateContext, clCreateCommandQueue, clReleaseContext, clReleaseCommandQueue;
    final Optional<MethodHandle> clCreateCommandQueueWithProperties;
    final MethodHandle clCreateBuffer, clReleaseMemObject, clEnqueueWriteBuffer, clEnqueueReadBuffer;
    final MethodHandle clCreateProgramWithSource, clCreateProgramWithBinary, clBuildProgram;
    final MethodHandle clGetProgramBuildInfo, clGetProgramInfo, clReleaseProgram;
    final MethodHandle clCreateKernel, clSetKernelArg, clGetKernelInfo, clGetKernelWorkGroupInfo, clReleaseKernel;
    final MethodHandle clEnqueueNDRangeKernel, clEnqueueMarkerWithWaitList, clGetEventProfilingInfo;
    final MethodHandle clWaitForEvents, clReleaseEvent, clFinish, clEnqueueFillBuffer;
    final MethodHandle clEnqueueBarrierWithWaitList, clFlush, clGetEventInfo, clEnqueueMapBuffer, clEnqueueUnmapMemObject;

    private static volatile OpenClApi instance;

    /** Loads the loader library once per JVM. */
    static OpenClApi load() throws BackendUnavailableException {
        OpenClApi api = instance;
        if (api == null) {
            synchronized (OpenClApi.class) {
                api = instance;
                if (api == null) instance = api = new OpenClApi(lookupLibrary());
            }
        }
        return api;
    }

    private record Lib(String name, SymbolLookup lookup) {}

    @SuppressWarnings("restricted") // native access is this backend's purpose; run with --enable-native-access
    private static Lib lookupLibrary() throws BackendUnavailableException {
        for (String name : new String[] {"libOpenCL.so.1", "libOpenCL.so"}) {
            try {
                return new Lib(name, SymbolLookup.libraryLookup(name, Arena.global()));
            } catch (IllegalArgumentException | UnsatisfiedLinkError notThere) {
                // try the next name
            }
        }
        throw new BackendUnavailableException(
                "libOpenCL.so.1 not found (install ocl-icd-libopencl1 and a driver such as pocl-opencl-icd)");
    }

    private OpenClApi(Lib lib) throws BackendUnavailableException {
        this.library = lib.name();
        SymbolLookup l = lib.lookup();
        clGetPlatformIDs = h(l, "clGetPlatformIDs", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
        clGetPlatformInfo = h(l, "clGetPlatformInfo", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS, ADDRESS);
        clGetDeviceIDs = h(l, "clGetDeviceIDs", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS);
        clGetDeviceInfo = h(l, "clGetDeviceInfo", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS, ADDRESS);
        clCreateContext = h(l, "clCreateContext", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        clCreateCommandQueue = h(l, "clCreateCommandQueue", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
        clCreateCommandQueueWithProperties =
                opt(l, "clCreateCommandQueueWithProperties", ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        clReleaseContext = h(l, "clReleaseContext", JAVA_INT, ADDRESS);
        clReleaseCommandQueue = h(l, "clReleaseCommandQueue", JAVA_INT, ADDRESS);
        clCreateBuffer = h(l, "clCreateBuffer", ADDRESS, ADDRESS, JAVA_LONG, SIZE_T, ADDRESS, ADDRESS);
        clReleaseMemObject = h(l, "clReleaseMemObject", JAVA_INT, ADDRESS);
        clEnqueueWriteBuffer = h(l, "clEnqueueWriteBuffer", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, SIZE_T, SIZE_T,
                ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        clEnqueueReadBuffer = h(l, "clEnqueueReadBuffer", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, SIZE_T, SIZE_T,
                ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        clCreateProgramWithSource = h(l, "clCreateProgramWithSource", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
                ADDRESS);
        clCreateProgramWithBinary = h(l, "clCreateProgramWithBinary", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS);
        clBuildProgram = h(l, "clBuildProgram", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        clGetProgramBuildInfo = h(l, "clGetProgramBuildInfo", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, SIZE_T, ADDRESS,
                ADDRESS);
        clGetProgramInfo = h(l, "clGetProgramInfo", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS, ADDRESS);
        clReleaseProgram = h(l, "clReleaseProgram", JAVA_INT, ADDRESS);
        clCreateKernel = h(l, "clCreateKernel", ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        clSetKernelArg = h(l, "clSetKernelArg", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS);
        clGetKernelInfo = h(l, "clGetKernelInfo", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS, ADDRESS);
        clGetKernelWorkGroupInfo = h(l, "clGetKernelWorkGroupInfo", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, SIZE_T,
                ADDRESS, ADDRESS);
        clReleaseKernel = h(l, "clReleaseKernel", JAVA_INT, ADDRESS);
        clEnqueueNDRangeKernel = h(l, "clEnqueueNDRangeKernel", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
                ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        clEnqueueMarkerWithWaitList = h(l, "clEnqueueMarkerWithWaitList", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
                ADDRESS);
        clGetEventProfilingInfo = h(l, "clGetEventProfilingInfo", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS,
                ADDRESS);
        clWaitForEvents = h(l, "clWaitForEvents", JAVA_INT, JAVA_INT, ADDRESS);
        clReleaseEvent = h(l, "clReleaseEvent", JAVA_INT, ADDRESS);
        clFinish = h(l, "clFinish", JAVA_INT, ADDRESS);
        clEnqueueFillBuffer = h(l, "clEnqueueFillBuffer", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, SIZE_T, SIZE_T, SIZE_T,
                JAVA_INT, ADDRESS, ADDRESS);
        clEnqueueBarrierWithWaitList = h(l, "clEnqueueBarrierWithWaitList", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
                ADDRESS);
        clFlush = h(l, "clFlush", JAVA_INT, ADDRESS);
        clGetEventInfo = h(l, "clGetEventInfo", JAVA_INT, ADDRESS, JAVA_INT, SIZE_T, ADDRESS, ADDRESS);
        clEnqueueMapBuffer = h(l, "clEnqueueMapBuffer", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, SIZE_T,
                SIZE_T, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        clEnqueueUnmapMemObject = h(l, "clEnqueueUnmapMemObject", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT,
                ADDRESS, ADDRESS);
    }

    @SuppressWarnings("restricted")
    private static Optional<MethodHandle> opt(SymbolLookup l, String name, MemoryLayout ret, MemoryLayout... args) {
        return l.find(name).map(addr -> LINKER.downcallHandle(addr, FunctionDescriptor.of(ret, args)));
    }

    private static MethodHandle h(SymbolLookup l, String name, MemoryLayout ret, MemoryLayout... args)
            throws BackendUnavailableException {
        Optional<MethodHandle> mh = opt(l, name, ret, args);
        if (mh.isEmpty()) {
            throw new BackendUnavailableException("OpenCL loader lacks " + name + " (OpenCL 1.2 or newer required)");
        }
        return mh.get();
    }

    /** A downcall threw (it cannot, for these signatures, short of a linker bug): rethrow unchecked. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException re) return re;
        if (t instanceof Error e) throw e;
        return new IllegalStateException("OpenCL downcall failed", t);
    }

    // ---- typed wrappers (invokeExact; no boxing on the launch path) ----

    int getPlatformIDs(int n, MemorySegment platforms, MemorySegment count) {
        try { return (int) clGetPlatformIDs.invokeExact(n, platforms, count); } catch (Throwable t) { throw rethrow(t); }
    }

    int getPlatformInfo(MemorySegment p, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetPlatformInfo.invokeExact(p, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    int getDeviceIDs(MemorySegment p, long type, int n, MemorySegment devices, MemorySegment count) {
        try { return (int) clGetDeviceIDs.invokeExact(p, type, n, devices, count); } catch (Throwable t) { throw rethrow(t); }
    }

    int getDeviceInfo(MemorySegment d, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetDeviceInfo.invokeExact(d, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createContext(MemorySegment props, int n, MemorySegment devices, MemorySegment err) {
        try {
            return (MemorySegment) clCreateContext.invokeExact(props, n, devices, MemorySegment.NULL, MemorySegment.NULL, err);
        } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createCommandQueue(MemorySegment ctx, MemorySegment dev, long props, MemorySegment err) {
        try { return (MemorySegment) clCreateCommandQueue.invokeExact(ctx, dev, props, err); } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createCommandQueueWithProperties(MemorySegment ctx, MemorySegment dev, MemorySegment props,
                                                   MemorySegment err) {
        try {
            return (MemorySegment) clCreateCommandQueueWithProperties.orElseThrow().invokeExact(ctx, dev, props, err);
        } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createBuffer(MemorySegment ctx, long flags, long size, MemorySegment err) {
        try { return (MemorySegment) clCreateBuffer.invokeExact(ctx, flags, size, MemorySegment.NULL, err); } catch (Throwable t) { throw rethrow(t); }
    }

    int enqueueWriteBuffer(MemorySegment q, MemorySegment mem, long offset, long size, MemorySegment src) {
        return enqueueWriteBuffer(q, mem, true, offset, size, src);
    }

    /** {@code blocking}: return after the copy (CL_TRUE) or at once (CL_FALSE; {@code src} must stay unchanged until it ran). */
    int enqueueWriteBuffer(MemorySegment q, MemorySegment mem, boolean blocking, long offset, long size, MemorySegment src) {
        try {
            return (int) clEnqueueWriteBuffer.invokeExact(q, mem, blocking ? CL_TRUE : CL_FALSE, offset, size, src, 0,
                    MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int enqueueReadBuffer(MemorySegment q, MemorySegment mem, long offset, long size, MemorySegment dst) {
        return enqueueReadBuffer(q, mem, true, offset, size, dst);
    }

    int enqueueReadBuffer(MemorySegment q, MemorySegment mem, boolean blocking, long offset, long size, MemorySegment dst) {
        try {
            return (int) clEnqueueReadBuffer.invokeExact(q, mem, blocking ? CL_TRUE : CL_FALSE, offset, size, dst, 0,
                    MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    /** A barrier: commands enqueued after it wait for the {@code n} events in {@code events}. */
    int enqueueBarrierWithWaitList(MemorySegment q, int n, MemorySegment events) {
        try {
            return (int) clEnqueueBarrierWithWaitList.invokeExact(q, n, events, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int flush(MemorySegment q) {
        try { return (int) clFlush.invokeExact(q); } catch (Throwable t) { throw rethrow(t); }
    }

    int getEventInfo(MemorySegment ev, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetEventInfo.invokeExact(ev, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    /** Blocking map of {@code size} bytes for reading and writing; returns the host pointer (errors in {@code err}). */
    MemorySegment enqueueMapBuffer(MemorySegment q, MemorySegment mem, long size, MemorySegment err) {
        try {
            return (MemorySegment) clEnqueueMapBuffer.invokeExact(q, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0L, size, 0,
                    MemorySegment.NULL, MemorySegment.NULL, err);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int enqueueUnmapMemObject(MemorySegment q, MemorySegment mem, MemorySegment mapped) {
        try {
            return (int) clEnqueueUnmapMemObject.invokeExact(q, mem, mapped, 0, MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createProgramWithSource(MemorySegment ctx, MemorySegment strings, MemorySegment lengths, MemorySegment err) {
        try { return (MemorySegment) clCreateProgramWithSource.invokeExact(ctx, 1, strings, lengths, err); } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createProgramWithBinary(MemorySegment ctx, MemorySegment devices, MemorySegment lengths,
                                          MemorySegment binaries, MemorySegment status, MemorySegment err) {
        try {
            return (MemorySegment) clCreateProgramWithBinary.invokeExact(ctx, 1, devices, lengths, binaries, status, err);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int buildProgram(MemorySegment prog, MemorySegment devices, MemorySegment options) {
        try {
            return (int) clBuildProgram.invokeExact(prog, 1, devices, options, MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int getProgramBuildInfo(MemorySegment prog, MemorySegment dev, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetProgramBuildInfo.invokeExact(prog, dev, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    int getProgramInfo(MemorySegment prog, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetProgramInfo.invokeExact(prog, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    MemorySegment createKernel(MemorySegment prog, MemorySegment name, MemorySegment err) {
        try { return (MemorySegment) clCreateKernel.invokeExact(prog, name, err); } catch (Throwable t) { throw rethrow(t); }
    }

    int setKernelArg(MemorySegment k, int index, long size, MemorySegment value) {
        try { return (int) clSetKernelArg.invokeExact(k, index, size, value); } catch (Throwable t) { throw rethrow(t); }
    }

    int getKernelInfo(MemorySegment k, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetKernelInfo.invokeExact(k, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    int getKernelWorkGroupInfo(MemorySegment k, MemorySegment dev, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetKernelWorkGroupInfo.invokeExact(k, dev, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    int enqueueNDRangeKernel(MemorySegment q, MemorySegment k, int dims, MemorySegment global, MemorySegment local) {
        try {
            return (int) clEnqueueNDRangeKernel.invokeExact(q, k, dims, MemorySegment.NULL, global, local, 0,
                    MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int enqueueMarkerWithWaitList(MemorySegment q, MemorySegment eventOut) {
        try { return (int) clEnqueueMarkerWithWaitList.invokeExact(q, 0, MemorySegment.NULL, eventOut); } catch (Throwable t) { throw rethrow(t); }
    }

    int getEventProfilingInfo(MemorySegment ev, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try { return (int) clGetEventProfilingInfo.invokeExact(ev, param, size, value, sizeRet); } catch (Throwable t) { throw rethrow(t); }
    }

    int waitForEvents(int n, MemorySegment events) {
        try { return (int) clWaitForEvents.invokeExact(n, events); } catch (Throwable t) { throw rethrow(t); }
    }

    /** Enqueues filling {@code size} bytes of {@code mem} from {@code offset} with the one-byte {@code pattern} (copied at the call). */
    int enqueueFillBuffer(MemorySegment q, MemorySegment mem, MemorySegment pattern, long offset, long size) {
        try {
            return (int) clEnqueueFillBuffer.invokeExact(q, mem, pattern, 1L, offset, size, 0, MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) { throw rethrow(t); }
    }

    int finish(MemorySegment q) {
        try { return (int) clFinish.invokeExact(q); } catch (Throwable t) { throw rethrow(t); }
    }

    int releaseEvent(MemorySegment h) {
        try { return (int) clReleaseEvent.invokeExact(h); } catch (Throwable t) { throw rethrow(t); }
    }

    int releaseMemObject(MemorySegment h) {
        try { return (int) clReleaseMemObject.invokeExact(h); } catch (Throwable t) { throw rethrow(t); }
    }

    int releaseKernel(MemorySegment h) {
        try { return (int) clReleaseKernel.invokeExact(h); } catch (Throwable t) { throw rethrow(t); }
    }

    int releaseProgram(MemorySegment h) {
        try { return (int) clReleaseProgram.invokeExact(h); } catch (Throwable t) { throw rethrow(t); }
    }

    int releaseCommandQueue(MemorySegment h) {
        try { return (int) clReleaseCommandQueue.invokeExact(h); } catch (Throwable t) { throw rethrow(t); }
    }

    int releaseContext(MemorySegment h) {
        try { return (int) clReleaseContext.invokeExact(h); } catch (Throwable t) { throw rethrow(t); }
    }

    // ---- info helpers (temporary memory from a caller's arena) ----

    interface InfoCall {
        int call(long size, MemorySegment value, MemorySegment sizeRet);
    }

    /** Size-then-value query of a string; returns the text up to the first NUL. */
    static String infoString(Arena a, InfoCall f, String function, String deviceId) {
        MemorySegment sz = a.allocate(SIZE_T);
        OpenClErrors.check(f.call(0, MemorySegment.NULL, sz), function, deviceId);
        long n = sz.get(SIZE_T, 0);
        if (n <= 0) return "";
        MemorySegment buf = a.allocate(n + 1);
        OpenClErrors.check(f.call(n, buf, MemorySegment.NULL), function, deviceId);
        return buf.getString(0).trim();
    }

    /** A {@code cl_ulong} or {@code size_t} query. */
    static long infoLong(Arena a, InfoCall f, String function, String deviceId) {
        MemorySegment v = a.allocate(JAVA_LONG);
        OpenClErrors.check(f.call(8, v, MemorySegment.NULL), function, deviceId);
        return v.get(JAVA_LONG, 0);
    }

    /** A {@code cl_uint} query. */
    static int infoInt(Arena a, InfoCall f, String function, String deviceId) {
        MemorySegment v = a.allocate(JAVA_INT);
        OpenClErrors.check(f.call(4, v, MemorySegment.NULL), function, deviceId);
        return v.get(JAVA_INT, 0);
    }
}
