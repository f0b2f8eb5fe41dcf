package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.spi.BackendUnavailableException;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Finds a CUDA device for tests: skips without one, fails instead when SQUALL_REQUIRE_CUDA=1. */
final class CudaTestSupport {
    private CudaTestSupport() {
    }

    static boolean requireCuda() {
        return "1".equals(System.getenv("SQUALL_REQUIRE_CUDA"));
    }

    /** Whether the dynamic loader can open the driver library at all. */
    static boolean libcudaLoadable() {
        for (String name : CudaLibrary.NAMES) {
            try {
                SymbolLookup.libraryLookup(name, Arena.global());
                return true;
            } catch (IllegalArgumentException e) {
                // try the next name
            }
        }
        return false;
    }

    /** The first CUDA device, or a skipped test (a failed one under SQUALL_REQUIRE_CUDA=1). */
    static NativeDevice firstDevice(BuildCache cache) {
        String why;
        try {
            List<NativeDevice> devices = new CudaBackend(cache).discover();
            if (!devices.isEmpty()) return devices.getFirst();
            why = "the CUDA driver reports no devices";
        } catch (BackendUnavailableException e) {
            why = e.getMessage();
        }
        if (requireCuda()) fail("SQUALL_REQUIRE_CUDA=1 but no CUDA device: " + why);
        assumeTrue(false, "no CUDA device: " + why);
        throw new AssertionError("unreachable");
    }
}
