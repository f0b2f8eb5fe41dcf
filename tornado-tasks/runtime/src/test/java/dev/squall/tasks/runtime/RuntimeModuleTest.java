package dev.squall.tasks.runtime;

import dev.squall.tasks.runtime.testing.ModuleBoundaries;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runtime's tests run inside the named module, which exports only its API and holds native access. */
@Tag("module-path")
class RuntimeModuleTest {
    @Test
    void testsRunInsideTheClosedRuntimeModule() {
        Module runtime = ModuleBoundaries.assertRuntimeModule();
        assertEquals(runtime, getClass().getModule());
        // the kernel authors' contract is exported by the api module, not by the runtime
        Module api = dev.squall.tasks.api.spi.GeneratedKernels.class.getModule();
        assertEquals("dev.squall.tasks.api", api.getName());
        assertTrue(runtime.canRead(api));
    }
}
