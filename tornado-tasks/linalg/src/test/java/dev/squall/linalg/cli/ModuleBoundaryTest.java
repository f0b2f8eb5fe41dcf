package dev.squall.linalg.cli;

import dev.squall.cli.Launcher;
import dev.squall.cli.SquallSubcommand;
import dev.squall.tasks.runtime.testing.ModuleBoundaries;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** On the module path, as a user runs it: dev.squall.linalg sees only the runtime's API, and its commands are found through its descriptor's {@code provides}. */
class ModuleBoundaryTest {
    @Test
    void runtimeInternalsAreNotAccessible() throws Exception {
        ModuleBoundaries.assertRuntimeClosedTo(MethodHandles.lookup());
    }

    @Test
    void commandsAreLoadedFromTheDescriptor() {
        Module module = getClass().getModule();
        Set<String> provided = module.getDescriptor().provides().stream()
                .filter(p -> p.service().equals(SquallSubcommand.class.getName()))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        Set<String> loaded = Launcher.subcommands().stream().map(Object::getClass).filter(c -> c.getModule() == module)
                .map(Class::getName).collect(Collectors.toSet());
        assertFalse(provided.isEmpty(), "dev.squall.linalg provides no command");
        assertEquals(provided, loaded);
    }
}
