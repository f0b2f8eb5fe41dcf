package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.spi.BackendUnavailableException;
import dev.squall.tasks.runtime.spi.NativeBackend;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The CUDA backend: the driver API ({@code libcuda.so.1}) for devices, memory and launches, and
 * NVRTC (loaded lazily at the first build) for compiling CUDA C to CUBIN or PTX.
 * Device ids are {@code cuda:N} with N the driver's device ordinal.
 */
public final class CudaBackend implements NativeBackend {
    private final BuildCache cache;

    public CudaBackend() {
        this(BuildCache.standard());
    }

    public CudaBackend(BuildCache cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public List<NativeDevice> discover() throws BackendUnavailableException {
        CudaLibrary.load();
        try {
            return discoverLoaded();
        } catch (ExceptionInInitializerError | NoClassDefFoundError | UnsatisfiedLinkError e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            throw new BackendUnavailableException("libcuda.so.1 is unusable (driver too old?): " + c.getMessage(), e);
        }
    }

    private List<NativeDevice> discoverLoaded() throws BackendUnavailableException {
        int rc = CudaApi.cuInit(0);
        if (rc != CudaErrors.CUDA_SUCCESS) {
            throw new BackendUnavailableException("cuInit failed: " + CudaErrors.describe(rc)
                    + (rc == CudaErrors.CUDA_ERROR_STUB_LIBRARY ? " (loaded the toolkit's stub libcuda, not the driver)" : ""));
        }
        List<NativeDevice> devices = new ArrayList<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pInt = a.allocate(JAVA_INT);
            rc = CudaApi.cuDriverGetVersion(pInt);
            if (rc != CudaErrors.CUDA_SUCCESS) throw new BackendUnavailableException("cuDriverGetVersion failed: " + CudaErrors.describe(rc));
            int v = pInt.get(JAVA_INT, 0);
            String driverVersion = (v / 1000) + "." + ((v % 1000) / 10);
            rc = CudaApi.cuDeviceGetCount(pInt);
            if (rc != CudaErrors.CUDA_SUCCESS) throw new BackendUnavailableException("cuDeviceGetCount failed: " + CudaErrors.describe(rc));
            int count = pInt.get(JAVA_INT, 0);
            for (int ordinal = 0; ordinal < count; ordinal++) {
                rc = CudaApi.cuDeviceGet(pInt, ordinal);
                if (rc != CudaErrors.CUDA_SUCCESS) {
                    throw new BackendUnavailableException("cuDeviceGet(" + ordinal + ") failed: " + CudaErrors.describe(rc));
                }
                int dev = pInt.get(JAVA_INT, 0);
                try {
                    devices.add(CudaDevice.open(ordinal, dev, driverVersion, cache));
                } catch (RuntimeException e) {
                    throw new BackendUnavailableException("cuda:" + ordinal + ": " + e.getMessage(), e);
                }
            }
        }
        return devices;
    }
}
