package dev.squall.tasks.runtime.testing;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;

import java.util.List;

/**
 * The devices tests run on: every device present. With {@code SQUALL_REQUIRE_OPENCL=1} or
 * {@code SQUALL_REQUIRE_CUDA=1} a missing backend is a failure, not a quiet skip, so CI and the
 * GPU check cannot pass with a backend absent.
 */
public final class TestDevices {
    private TestDevices() {
    }

    public static List<Device> all() {
        requireIfAsked("opencl", "SQUALL_REQUIRE_OPENCL");
        requireIfAsked("cuda", "SQUALL_REQUIRE_CUDA");
        return Devices.all();
    }

    private static void requireIfAsked(String backend, String env) {
        if (!"1".equals(System.getenv(env))) return;
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.name().equals(backend) && !s.devices().isEmpty()) return;
            if (s.name().equals(backend)) throw new AssertionError(env + "=1 but backend " + backend + " is absent: " + s.unavailableReason());
        }
        throw new AssertionError(env + "=1 but backend " + backend + " is not known");
    }
}
