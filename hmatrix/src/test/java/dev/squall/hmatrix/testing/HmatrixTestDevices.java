package dev.squall.hmatrix.testing;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import java.util.List;

/**
 * The devices tests run on: every device present. With {@code SQUALL_REQUIRE_OPENCL=1} or
 * {@code SQUALL_REQUIRE_CUDA=1} a missing backend fails the test instead of being skipped
 * (the rule of the runtime's own test devices, whose test-jar other modules do not get).
 */
public final class HmatrixTestDevices {
    private HmatrixTestDevices() {
    }

    public static List<Device> all() {
        require("opencl", "SQUALL_REQUIRE_OPENCL");
        require("cuda", "SQUALL_REQUIRE_CUDA");
        return Devices.all();
    }

    private static void require(String backend, String env) {
        if (!"1".equals(System.getenv(env))) return;
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.name().equals(backend) && !s.devices().isEmpty()) return;
            if (s.name().equals(backend)) throw new AssertionError(env + "=1 but backend " + backend + " is absent: " + s.unavailableReason());
        }
        throw new AssertionError(env + "=1 but backend " + backend + " is not known");
    }
}
