package dev.squall.linalg.testing;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;

import java.util.List;

/**
 * The devices tests run on: every device present; with {@code SQUALL_REQUIRE_OPENCL=1} or
 * {@code SQUALL_REQUIRE_CUDA=1} a missing backend fails. Same contract as the runtime's test
 * helper, which is not installed as a test-jar in the offline repository this module builds from.
 */
public final class TestDevices {
    private TestDevices() {
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
