package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.KernelArg;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** A CUfunction with its launch limits and, where the driver reports it, its parameter sizes. */
final class CudaKernel implements DeviceKernel {
    final CudaDevice device;
    private final String name;
    final MemorySegment function;
    /** min(device max threads per block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK). */
    final int maxThreadsPerBlock;
    private final int numRegs;
    private final int sharedBytes;
    private final int localBytes;
    /** Parameter sizes from cuFuncGetParamInfo (CUDA 12.4+), or null when the driver cannot tell. */
    private final long[] paramSizes;

    /** Dynamic shared memory bytes asked for at each launch (0 for kernels within the static 48 KiB). */
    final int dynamicSharedBytes;

    CudaKernel(CudaDevice device, String name, MemorySegment function, int dynamicSharedBytes) {
        this.device = device;
        this.name = name;
        this.function = function;
        this.dynamicSharedBytes = dynamicSharedBytes;
        if (dynamicSharedBytes > 0) {
            // opt in past the 48 KiB default; the driver refuses more than the device's per-block maximum
            int rc = CudaApi.cuFuncSetAttribute(function, CudaApi.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamicSharedBytes);
            if (rc != CudaErrors.CUDA_SUCCESS) {
                throw CudaErrors.error(rc, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + dynamicSharedBytes + ") for kernel " + name
                        + ": it needs " + dynamicSharedBytes + " bytes of local memory", device.id());
            }
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pi = a.allocate(JAVA_INT);
            int funcMax = attribute(pi, CudaApi.FUNC_MAX_THREADS_PER_BLOCK);
            maxThreadsPerBlock = funcMax > 0 ? Math.min(funcMax, device.maxThreadsPerBlock) : device.maxThreadsPerBlock;
            numRegs = attribute(pi, CudaApi.FUNC_NUM_REGS);
            sharedBytes = attribute(pi, CudaApi.FUNC_SHARED_SIZE_BYTES);
            localBytes = attribute(pi, CudaApi.FUNC_LOCAL_SIZE_BYTES);
            paramSizes = paramSizes(a, function);
        }
    }

    private int attribute(MemorySegment pi, int attr) {
        CudaErrors.check(CudaApi.cuFuncGetAttribute(pi, attr, function), "cuFuncGetAttribute(" + attr + ", " + name + ")", device.id());
        return pi.get(JAVA_INT, 0);
    }

    private static long[] paramSizes(Arena a, MemorySegment function) {
        if (!CudaApi.hasFuncGetParamInfo()) return null;
        MemorySegment pOffset = a.allocate(JAVA_LONG), pSize = a.allocate(JAVA_LONG);
        long[] sizes = new long[16];
        int n = 0;
        while (n < 4096) {
            int rc = CudaApi.cuFuncGetParamInfo(function, n, pOffset, pSize);
            if (rc != CudaErrors.CUDA_SUCCESS) {
                // index 0 failing may mean "no parameters" or "cannot tell"; do not guess
                if (n == 0) return null;
                break;
            }
            if (n == sizes.length) sizes = java.util.Arrays.copyOf(sizes, n * 2);
            sizes[n++] = pSize.get(JAVA_LONG, 0);
        }
        return java.util.Arrays.copyOf(sizes, n);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public BoundLaunch bind(KernelArg[] args) {
        if (paramSizes != null) {
            if (args.length != paramSizes.length) {
                throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "kernel " + name + " on " + device.id()
                        + " takes " + paramSizes.length + " parameters, " + args.length + " arguments given");
            }
            for (int i = 0; i < args.length; i++) {
                long w = width(args[i]);
                if (w != paramSizes[i]) {
                    throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "kernel " + name + " parameter " + i
                            + " is " + paramSizes[i] + " bytes but the argument " + args[i] + " is " + w + " bytes");
                }
            }
        }
        return new CudaBoundLaunch(this, args);
    }

    static int width(KernelArg arg) {
        return switch (arg) {
            case KernelArg.Buffer b -> 8;
            case KernelArg.I8 v -> 1;
            case KernelArg.I16 v -> 2;
            case KernelArg.I32 v -> 4;
            case KernelArg.I64 v -> 8;
            case KernelArg.F32 v -> 4;
            case KernelArg.F64 v -> 8;
        };
    }

    @Override
    public String resourceReport() {
        return "registers " + numRegs + ", shared " + (sharedBytes + dynamicSharedBytes) + " B, local " + localBytes
                + " B, max threads/block " + maxThreadsPerBlock;
    }

    @Override
    public String toString() {
        return "CudaKernel[" + name + " on " + device.id() + "]";
    }
}
