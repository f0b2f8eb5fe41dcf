package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.spi.BackendUnavailableException;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Finds an OpenCL device; skips when there is none unless {@code SQUALL_REQUIRE_OPENCL=1}, which makes it a failure. */
final class OpenClTestSupport {
    private OpenClTestSupport() {
    }

    static boolean required() {
        return "1".equals(System.getenv("SQUALL_REQUIRE_OPENCL"));
    }

    static List<NativeDevice> devices(BuildCache cache) {
        try {
            List<NativeDevice> devices = new OpenClBackend(cache).discover();
            assertFalse(devices.isEmpty(), "discover() returned no device without throwing");
            return devices;
        } catch (BackendUnavailableException e) {
            if (required()) fail("SQUALL_REQUIRE_OPENCL=1 but OpenCL is unavailable: " + e.getMessage(), e);
            assumeTrue(false, "OpenCL unavailable: " + e.getMessage());
            throw new AssertionError("unreachable");
        }
    }

    static NativeDevice device(BuildCache cache) {
        return devices(cache).get(0);
    }
}
