package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.DeviceProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** A loaded CUmodule. */
final class CudaProgram implements DeviceProgram {
    private final CudaDevice device;
    private final String name;
    private final MemorySegment module;
    private final double buildMillis;
    private final boolean fromCache;

    CudaProgram(CudaDevice device, String name, MemorySegment module, double buildMillis, boolean fromCache) {
        this.device = device;
        this.name = name;
        this.module = module;
        this.buildMillis = buildMillis;
        this.fromCache = fromCache;
    }

    @Override
    public DeviceKernel kernel(String kernelName) {
        device.ensureCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            int rc = CudaApi.cuModuleGetFunction(p, module, a.allocateFrom(kernelName));
            if (rc == CudaErrors.CUDA_ERROR_NOT_FOUND) {
                throw new DeviceException(DeviceException.Kind.NOT_FOUND, "no kernel " + kernelName + " in program " + name
                        + " on " + device.id() + " (kernels must be declared extern \"C\" __global__)");
            }
            CudaErrors.check(rc, "cuModuleGetFunction(" + kernelName + ")", device.id());
            return new CudaKernel(device, kernelName, p.get(ADDRESS, 0), dynamicSharedBytes(a, kernelName));
        }
    }

    /**
     * Dynamic shared memory of a kernel: the value of the module global {@code sq_dynamic_shared_<kernel>}, which the
     * compiler writes for kernels whose local arrays pass the 48 KiB of static shared memory; 0 without it.
     */
    private int dynamicSharedBytes(Arena a, String kernelName) {
        MemorySegment pDptr = a.allocate(JAVA_LONG), pBytes = a.allocate(JAVA_LONG);
        int rc = CudaApi.cuModuleGetGlobal(pDptr, pBytes, module, a.allocateFrom(DYNAMIC_SHARED_PREFIX + kernelName));
        if (rc == CudaErrors.CUDA_ERROR_NOT_FOUND) return 0;
        CudaErrors.check(rc, "cuModuleGetGlobal(" + DYNAMIC_SHARED_PREFIX + kernelName + ")", device.id());
        MemorySegment value = a.allocate(JAVA_INT);
        CudaErrors.check(CudaApi.cuMemcpyDtoHAsync(value, pDptr.get(JAVA_LONG, 0), 4, MemorySegment.NULL), "cuMemcpyDtoHAsync("
                + DYNAMIC_SHARED_PREFIX + kernelName + ")", device.id());
        CudaErrors.check(CudaApi.cuStreamSynchronize(MemorySegment.NULL), "cuStreamSynchronize", device.id());
        return value.get(JAVA_INT, 0);
    }

    /** Prefix of the module global holding a kernel's dynamic shared memory bytes (the compiler's CudaDialect writes it). */
    static final String DYNAMIC_SHARED_PREFIX = "sq_dynamic_shared_";

    @Override
    public double buildMillis() {
        return buildMillis;
    }

    @Override
    public boolean fromCache() {
        return fromCache;
    }

    @Override
    public String toString() {
        return "CudaProgram[" + name + " on " + device.id() + (fromCache ? ", cached" : ", " + buildMillis + " ms") + "]";
    }
}
