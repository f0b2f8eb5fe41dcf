package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.testing.ModuleBoundaries;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;

/** On the module path, as a user runs it: tornado.api sees only the runtime's API. */
@Tag("module-path")
class ModuleBoundaryTest {
    @Test
    void runtimeInternalsAreNotAccessible() throws Exception {
        ModuleBoundaries.assertRuntimeClosedTo(MethodHandles.lookup());
    }
}
