package dev.squall.tasks.runtime.cuda;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcalls into the CUDA driver API ({@code cuda.h}). Every function returns the raw
 * {@code CUresult}; {@link CudaErrors} turns non-zero results into exceptions.
 *
 * <p>C types as bound here (LP64): {@code CUresult}, {@code CUdevice}, enums and
 * {@code unsigned int} are {@code int}; {@code size_t} and {@code CUdeviceptr}
 * ({@code unsigned long long}) are {@code long}; {@code CUcontext}, {@code CUstream},
 * {@code CUmodule}, {@code CUfunction}, {@code CUevent} and all pointers are addresses.
 * The {@code _v2} names are the ones {@code cuda.h} {@code #define}s the plain names to.
 *
 * <p>This class must only be initialised after {@link CudaLibrary#load()} succeeded; a missing
 * required symbol makes initialisation fail with an {@link UnsatisfiedLinkError} cause.
 */
final class CudaApi {
    // CUdevice_attribute
    static final int ATTR_MAX_THREADS_PER_BLOCK = 1;
    static final int ATTR_MAX_BLOCK_DIM_X = 2;
    static final int ATTR_MAX_BLOCK_DIM_Y = 3;
    static final int ATTR_MAX_BLOCK_DIM_Z = 4;
    static final int ATTR_MAX_GRID_DIM_X = 5;
    static final int ATTR_MAX_GRID_DIM_Y = 6;
    static final int ATTR_MAX_GRID_DIM_Z = 7;
    static final int ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8;
    static final int ATTR_WARP_SIZE = 10;
    static final int ATTR_MULTIPROCESSOR_COUNT = 16;
    static final int ATTR_COMPUTE_CAPABILITY_MAJOR = 75;
    static final int ATTR_COMPUTE_CAPABILITY_MINOR = 76;

    // CUfunction_attribute
    static final int FUNC_MAX_THREADS_PER_BLOCK = 0;
    static final int FUNC_SHARED_SIZE_BYTES = 1;
    static final int FUNC_CONST_SIZE_BYTES = 2;
    static final int FUNC_LOCAL_SIZE_BYTES = 3;
    static final int FUNC_NUM_REGS = 4;
    static final int FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

    // flags
    static final int CU_STREAM_NON_BLOCKING = 1;
    static final int CU_EVENT_DEFAULT = 0;
    static final int CU_EVENT_WAIT_DEFAULT = 0;
    static final int CU_MEMHOSTALLOC_PORTABLE = 1;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIB = CudaLibrary.loaded();

    private static final MethodHandle CU_INIT = h("cuInit", JAVA_INT);
    private static final MethodHandle CU_DRIVER_GET_VERSION = h("cuDriverGetVersion", ADDRESS);
    private static final MethodHandle CU_GET_ERROR_NAME = h("cuGetErrorName", JAVA_INT, ADDRESS);
    private static final MethodHandle CU_GET_ERROR_STRING = h("cuGetErrorString", JAVA_INT, ADDRESS);
    private static final MethodHandle CU_DEVICE_GET_COUNT = h("cuDeviceGetCount", ADDRESS);
    private static final MethodHandle CU_DEVICE_GET = h("cuDeviceGet", ADDRESS, JAVA_INT);
    private static final MethodHandle CU_DEVICE_GET_NAME = h("cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
    private static final MethodHandle CU_DEVICE_TOTAL_MEM = h("cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
    private static final MethodHandle CU_DEVICE_GET_ATTRIBUTE = h("cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
    private static final MethodHandle CU_PRIMARY_CTX_RETAIN = h("cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
    private static final MethodHandle CU_PRIMARY_CTX_RELEASE = h("cuDevicePrimaryCtxRelease_v2", JAVA_INT);
    private static final MethodHandle CU_CTX_SET_CURRENT = h("cuCtxSetCurrent", ADDRESS);
    private static final MethodHandle CU_STREAM_CREATE = h("cuStreamCreate", ADDRESS, JAVA_INT);
    private static final MethodHandle CU_STREAM_CREATE_WITH_PRIORITY = h("cuStreamCreateWithPriority", ADDRESS, JAVA_INT, JAVA_INT);
    private static final MethodHandle CU_CTX_GET_STREAM_PRIORITY_RANGE = h("cuCtxGetStreamPriorityRange", ADDRESS, ADDRESS);
    private static final MethodHandle CU_STREAM_DESTROY = h("cuStreamDestroy_v2", ADDRESS);
    private static final MethodHandle CU_STREAM_SYNCHRONIZE = h("cuStreamSynchronize", ADDRESS);
    private static final MethodHandle CU_STREAM_WAIT_EVENT = h("cuStreamWaitEvent", ADDRESS, ADDRESS, JAVA_INT);
    private static final MethodHandle CU_MEM_ALLOC = h("cuMemAlloc_v2", ADDRESS, JAVA_LONG);
    private static final MethodHandle CU_MEM_FREE = h("cuMemFree_v2", JAVA_LONG);
    private static final MethodHandle CU_MEM_GET_INFO = h("cuMemGetInfo_v2", ADDRESS, ADDRESS);
    private static final MethodHandle CU_MEM_HOST_ALLOC = h("cuMemHostAlloc", ADDRESS, JAVA_LONG, JAVA_INT);
    private static final MethodHandle CU_MEM_FREE_HOST = h("cuMemFreeHost", ADDRESS);
    private static final MethodHandle CU_MEMCPY_HTOD_ASYNC = h("cuMemcpyHtoDAsync_v2", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
    private static final MethodHandle CU_MEMSET_D8_ASYNC = h("cuMemsetD8Async", JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS);
    private static final MethodHandle CU_MEMCPY_DTOH_ASYNC = h("cuMemcpyDtoHAsync_v2", ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
    private static final MethodHandle CU_MODULE_LOAD_DATA = h("cuModuleLoadData", ADDRESS, ADDRESS);
    private static final MethodHandle CU_MODULE_UNLOAD = h("cuModuleUnload", ADDRESS);
    private static final MethodHandle CU_MODULE_GET_FUNCTION = h("cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle CU_FUNC_GET_ATTRIBUTE = h("cuFuncGetAttribute", ADDRESS, JAVA_INT, ADDRESS);
    private static final MethodHandle CU_FUNC_SET_ATTRIBUTE = h("cuFuncSetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
    private static final MethodHandle CU_MODULE_GET_GLOBAL = h("cuModuleGetGlobal_v2", ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    /** CUDA 12.4+: {@code cuFuncGetParamInfo(CUfunction, size_t index, size_t* offset, size_t* size)}; null if absent. */
    private static final MethodHandle CU_FUNC_GET_PARAM_INFO = optional("cuFuncGetParamInfo", ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);
    private static final MethodHandle CU_LAUNCH_KERNEL = h("cuLaunchKernel",
            ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle CU_EVENT_CREATE = h("cuEventCreate", ADDRESS, JAVA_INT);
    private static final MethodHandle CU_EVENT_RECORD = h("cuEventRecord", ADDRESS, ADDRESS);
    /** CUDA 13 headers map cuEventElapsedTime to the _v2 symbol (same C signature); older drivers have only v1. */
    private static final MethodHandle CU_EVENT_ELAPSED_TIME = firstOf(new String[] {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
            ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle CU_EVENT_DESTROY = h("cuEventDestroy_v2", ADDRESS);
    private static final MethodHandle CU_EVENT_SYNCHRONIZE = h("cuEventSynchronize", ADDRESS);
    private static final MethodHandle CU_EVENT_QUERY = h("cuEventQuery", ADDRESS);

    private CudaApi() {
    }

    private static MethodHandle h(String name, java.lang.foreign.MemoryLayout... args) {
        MemorySegment sym = LIB.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libcuda has no symbol " + name));
        return LINKER.downcallHandle(sym, FunctionDescriptor.of(JAVA_INT, args));
    }

    private static MethodHandle optional(String name, java.lang.foreign.MemoryLayout... args) {
        return LIB.find(name).map(s -> LINKER.downcallHandle(s, FunctionDescriptor.of(JAVA_INT, args))).orElse(null);
    }

    private static MethodHandle firstOf(String[] names, java.lang.foreign.MemoryLayout... args) {
        for (String n : names) {
            MethodHandle m = optional(n, args);
            if (m != null) return m;
        }
        throw new UnsatisfiedLinkError("libcuda has none of " + String.join(", ", names));
    }

    private static RuntimeException fail(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    static int cuInit(int flags) {
        try { return (int) CU_INIT.invokeExact(flags); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDriverGetVersion(MemorySegment pVersion) {
        try { return (int) CU_DRIVER_GET_VERSION.invokeExact(pVersion); } catch (Throwable t) { throw fail(t); }
    }

    static int cuGetErrorName(int error, MemorySegment pStr) {
        try { return (int) CU_GET_ERROR_NAME.invokeExact(error, pStr); } catch (Throwable t) { throw fail(t); }
    }

    static int cuGetErrorString(int error, MemorySegment pStr) {
        try { return (int) CU_GET_ERROR_STRING.invokeExact(error, pStr); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDeviceGetCount(MemorySegment pCount) {
        try { return (int) CU_DEVICE_GET_COUNT.invokeExact(pCount); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDeviceGet(MemorySegment pDevice, int ordinal) {
        try { return (int) CU_DEVICE_GET.invokeExact(pDevice, ordinal); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDeviceGetName(MemorySegment name, int len, int dev) {
        try { return (int) CU_DEVICE_GET_NAME.invokeExact(name, len, dev); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDeviceTotalMem(MemorySegment pBytes, int dev) {
        try { return (int) CU_DEVICE_TOTAL_MEM.invokeExact(pBytes, dev); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDeviceGetAttribute(MemorySegment pi, int attrib, int dev) {
        try { return (int) CU_DEVICE_GET_ATTRIBUTE.invokeExact(pi, attrib, dev); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDevicePrimaryCtxRetain(MemorySegment pCtx, int dev) {
        try { return (int) CU_PRIMARY_CTX_RETAIN.invokeExact(pCtx, dev); } catch (Throwable t) { throw fail(t); }
    }

    static int cuDevicePrimaryCtxRelease(int dev) {
        try { return (int) CU_PRIMARY_CTX_RELEASE.invokeExact(dev); } catch (Throwable t) { throw fail(t); }
    }

    static int cuCtxSetCurrent(MemorySegment ctx) {
        try { return (int) CU_CTX_SET_CURRENT.invokeExact(ctx); } catch (Throwable t) { throw fail(t); }
    }

    static int cuStreamCreate(MemorySegment pStream, int flags) {
        try { return (int) CU_STREAM_CREATE.invokeExact(pStream, flags); } catch (Throwable t) { throw fail(t); }
    }

    static int cuStreamCreateWithPriority(MemorySegment pStream, int flags, int priority) {
        try { return (int) CU_STREAM_CREATE_WITH_PRIORITY.invokeExact(pStream, flags, priority); } catch (Throwable t) { throw fail(t); }
    }

    /** Priorities of streams in the current context: numerically lower is greater ({@code greatest <= least}). */
    static int cuCtxGetStreamPriorityRange(MemorySegment least, MemorySegment greatest) {
        try { return (int) CU_CTX_GET_STREAM_PRIORITY_RANGE.invokeExact(least, greatest); } catch (Throwable t) { throw fail(t); }
    }

    static int cuStreamDestroy(MemorySegment stream) {
        try { return (int) CU_STREAM_DESTROY.invokeExact(stream); } catch (Throwable t) { throw fail(t); }
    }

    static int cuStreamSynchronize(MemorySegment stream) {
        try { return (int) CU_STREAM_SYNCHRONIZE.invokeExact(stream); } catch (Throwable t) { throw fail(t); }
    }

    /** {@code cuStreamWaitEvent(CUstream, CUevent, unsigned int flags)}. */
    static int cuStreamWaitEvent(MemorySegment stream, MemorySegment event, int flags) {
        try { return (int) CU_STREAM_WAIT_EVENT.invokeExact(stream, event, flags); } catch (Throwable t) { throw fail(t); }
    }

    /** {@code cuMemHostAlloc(void** pp, size_t bytesize, unsigned int flags)}: page-locked host memory. */
    static int cuMemHostAlloc(MemorySegment pp, long bytes, int flags) {
        try { return (int) CU_MEM_HOST_ALLOC.invokeExact(pp, bytes, flags); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemFreeHost(MemorySegment p) {
        try { return (int) CU_MEM_FREE_HOST.invokeExact(p); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemAlloc(MemorySegment pDptr, long bytes) {
        try { return (int) CU_MEM_ALLOC.invokeExact(pDptr, bytes); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemFree(long dptr) {
        try { return (int) CU_MEM_FREE.invokeExact(dptr); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemGetInfo(MemorySegment pFree, MemorySegment pTotal) {
        try { return (int) CU_MEM_GET_INFO.invokeExact(pFree, pTotal); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        try { return (int) CU_MEMCPY_HTOD_ASYNC.invokeExact(dst, src, bytes, stream); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemsetD8Async(long dst, byte value, long bytes, MemorySegment stream) {
        try { return (int) CU_MEMSET_D8_ASYNC.invokeExact(dst, value, bytes, stream); } catch (Throwable t) { throw fail(t); }
    }

    static int cuMemcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
        try { return (int) CU_MEMCPY_DTOH_ASYNC.invokeExact(dst, src, bytes, stream); } catch (Throwable t) { throw fail(t); }
    }

    static int cuModuleLoadData(MemorySegment pModule, MemorySegment image) {
        try { return (int) CU_MODULE_LOAD_DATA.invokeExact(pModule, image); } catch (Throwable t) { throw fail(t); }
    }

    static int cuModuleUnload(MemorySegment module) {
        try { return (int) CU_MODULE_UNLOAD.invokeExact(module); } catch (Throwable t) { throw fail(t); }
    }

    static int cuModuleGetFunction(MemorySegment pFunc, MemorySegment module, MemorySegment name) {
        try { return (int) CU_MODULE_GET_FUNCTION.invokeExact(pFunc, module, name); } catch (Throwable t) { throw fail(t); }
    }

    static int cuFuncGetAttribute(MemorySegment pi, int attrib, MemorySegment func) {
        try { return (int) CU_FUNC_GET_ATTRIBUTE.invokeExact(pi, attrib, func); } catch (Throwable t) { throw fail(t); }
    }

    static int cuFuncSetAttribute(MemorySegment func, int attrib, int value) {
        try { return (int) CU_FUNC_SET_ATTRIBUTE.invokeExact(func, attrib, value); } catch (Throwable t) { throw fail(t); }
    }

    static int cuModuleGetGlobal(MemorySegment pDptr, MemorySegment pBytes, MemorySegment module, MemorySegment name) {
        try { return (int) CU_MODULE_GET_GLOBAL.invokeExact(pDptr, pBytes, module, name); } catch (Throwable t) { throw fail(t); }
    }

    static boolean hasFuncGetParamInfo() {
        return CU_FUNC_GET_PARAM_INFO != null;
    }

    static int cuFuncGetParamInfo(MemorySegment func, long index, MemorySegment pOffset, MemorySegment pSize) {
        try { return (int) CU_FUNC_GET_PARAM_INFO.invokeExact(func, index, pOffset, pSize); } catch (Throwable t) { throw fail(t); }
    }

    static int cuLaunchKernel(MemorySegment f, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                              int sharedMemBytes, MemorySegment stream, MemorySegment kernelParams, MemorySegment extra) {
        try {
            return (int) CU_LAUNCH_KERNEL.invokeExact(f, gridX, gridY, gridZ, blockX, blockY, blockZ,
                    sharedMemBytes, stream, kernelParams, extra);
        } catch (Throwable t) {
            throw fail(t);
        }
    }

    static int cuEventCreate(MemorySegment pEvent, int flags) {
        try { return (int) CU_EVENT_CREATE.invokeExact(pEvent, flags); } catch (Throwable t) { throw fail(t); }
    }

    static int cuEventRecord(MemorySegment event, MemorySegment stream) {
        try { return (int) CU_EVENT_RECORD.invokeExact(event, stream); } catch (Throwable t) { throw fail(t); }
    }

    static int cuEventElapsedTime(MemorySegment pMillis, MemorySegment start, MemorySegment end) {
        try { return (int) CU_EVENT_ELAPSED_TIME.invokeExact(pMillis, start, end); } catch (Throwable t) { throw fail(t); }
    }

    static int cuEventSynchronize(MemorySegment event) {
        try { return (int) CU_EVENT_SYNCHRONIZE.invokeExact(event); } catch (Throwable t) { throw fail(t); }
    }

    /** CUDA_SUCCESS when the event has completed, CUDA_ERROR_NOT_READY while work before it is pending. */
    static int cuEventQuery(MemorySegment event) {
        try { return (int) CU_EVENT_QUERY.invokeExact(event); } catch (Throwable t) { throw fail(t); }
    }

    static int cuEventDestroy(MemorySegment event) {
        try { return (int) CU_EVENT_DESTROY.invokeExact(event); } catch (Throwable t) { throw fail(t); }
    }
}
