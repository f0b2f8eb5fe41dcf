package dev.squall.linalg.cli;

import dev.squall.cli.Launcher;
import dev.squall.cli.SquallSubcommand;
import dev.squall.tasks.runtime.testing.ModuleBoundaries;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;

/** On the module path, as a user runs it: dev.squall.linalg sees only the runtime's API, and its commands are found through its descriptor's {@code provides}. */
@Tag("module-path")
class ModuleBoundaryTest {
    @Test
    void runtimeInternalsAreNotAccessible() throws Exception {
        ModuleBoundaries.assertRuntimeClosedTo(MethodHandles.lookup());
    }

    @Test
    void commandsAreLoadedFromTheDescriptor() {
        ModuleBoundaries.assertProvidersLoaded(getClass().getModule(), SquallSubcommand.class, Launcher.subcommands());
    }
}
