package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.BackendUnavailableException;
import dev.squall.tasks.runtime.spi.NativeBackend;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The OpenCL backend: every device of every platform the ICD loader reports, as {@code opencl:P:D}.
 * Reached through {@code java.lang.foreign} only.
 */
public final class OpenClBackend implements NativeBackend {
    private final BuildCache cache;

    /** Uses {@link BuildCache#standard()}. */
    public OpenClBackend() {
        this(BuildCache.standard());
    }

    /** Uses the given build cache for every device it discovers (tests pass a temporary directory). */
    public OpenClBackend(BuildCache cache) {
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    @Override
    public String name() {
        return "opencl";
    }

    @Override
    public List<NativeDevice> discover() throws BackendUnavailableException {
        OpenClApi api = OpenClApi.load();
        List<NativeDevice> devices = new ArrayList<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment count = a.allocate(JAVA_INT);
            int rc = api.getPlatformIDs(0, MemorySegment.NULL, count);
            if (rc == OpenClErrors.CL_PLATFORM_NOT_FOUND_KHR || (rc == OpenClErrors.CL_SUCCESS && count.get(JAVA_INT, 0) == 0)) {
                throw new BackendUnavailableException("no OpenCL platform found by " + api.library
                        + " (CL_PLATFORM_NOT_FOUND_KHR; install a driver such as pocl-opencl-icd)");
            }
            if (rc != OpenClErrors.CL_SUCCESS) {
                throw new BackendUnavailableException(OpenClErrors.message("clGetPlatformIDs", rc, "opencl"));
            }
            int np = count.get(JAVA_INT, 0);
            MemorySegment platforms = a.allocate(ADDRESS, np);
            rc = api.getPlatformIDs(np, platforms, count);
            if (rc != OpenClErrors.CL_SUCCESS) {
                throw new BackendUnavailableException(OpenClErrors.message("clGetPlatformIDs", rc, "opencl"));
            }
            np = Math.min(np, count.get(JAVA_INT, 0));
            List<String> problems = new ArrayList<>();
            for (int p = 0; p < np; p++) {
                MemorySegment platform = platforms.getAtIndex(ADDRESS, p);
                String pid = "opencl:" + p;
                try {
                    String pname = OpenClApi.infoString(a,
                            (s, v, r) -> api.getPlatformInfo(platform, OpenClApi.CL_PLATFORM_NAME, s, v, r),
                            "clGetPlatformInfo", pid);
                    int nd;
                    rc = api.getDeviceIDs(platform, OpenClApi.CL_DEVICE_TYPE_ALL, 0, MemorySegment.NULL, count);
                    if (rc == OpenClErrors.CL_DEVICE_NOT_FOUND) continue; // a platform with no device
                    OpenClErrors.check(rc, "clGetDeviceIDs", pid);
                    nd = count.get(JAVA_INT, 0);
                    if (nd == 0) continue;
                    MemorySegment ids = a.allocate(ADDRESS, nd);
                    OpenClErrors.check(api.getDeviceIDs(platform, OpenClApi.CL_DEVICE_TYPE_ALL, nd, ids, count),
                            "clGetDeviceIDs", pid);
                    nd = Math.min(nd, count.get(JAVA_INT, 0));
                    for (int d = 0; d < nd; d++) {
                        devices.add(new OpenClDevice(api, cache, platform, ids.getAtIndex(ADDRESS, d), pname,
                                pid + ":" + d));
                    }
                } catch (DeviceException e) {
                    problems.add(e.getMessage()); // one broken platform does not hide the others
                }
            }
            if (devices.isEmpty()) {
                throw new BackendUnavailableException("no OpenCL device found on " + np + " platform(s)"
                        + (problems.isEmpty() ? "" : ": " + String.join("; ", problems)));
            }
        }
        return List.copyOf(devices);
    }
}
