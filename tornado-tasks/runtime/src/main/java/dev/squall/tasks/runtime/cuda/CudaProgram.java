package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.DeviceProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

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
            return new CudaKernel(device, kernelName, p.get(ADDRESS, 0));
        }
    }

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
