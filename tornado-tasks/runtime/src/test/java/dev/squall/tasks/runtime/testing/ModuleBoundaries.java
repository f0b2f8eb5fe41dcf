package dev.squall.tasks.runtime.testing;

import dev.squall.tasks.runtime.Device;

import java.lang.invoke.MethodHandles;
import java.lang.module.ModuleDescriptor;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a library module sees of the runtime when its tests run on the module path, as a user's module would: the
 * runtime's descriptor exports only its API package, the backends and {@code spi} are not accessible, and native access
 * is granted to the runtime alone. Fails when the tests run on the class path (the module under test is unnamed).
 */
public final class ModuleBoundaries {
    /** The runtime's packages that no other module may use. */
    public static final List<String> INTERNAL_PACKAGES = List.of("dev.squall.tasks.runtime.spi",
            "dev.squall.tasks.runtime.jvm", "dev.squall.tasks.runtime.opencl", "dev.squall.tasks.runtime.cuda");

    private ModuleBoundaries() {
    }

    /** The runtime module: named, exporting only {@code dev.squall.tasks.runtime}, allowed native access. */
    public static Module assertRuntimeModule() {
        Module runtime = Device.class.getModule();
        assertEquals("dev.squall.tasks.runtime", runtime.getName(), "the runtime is not a named module: tests run on the class path");
        Set<String> exported = runtime.getDescriptor().exports().stream().map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
        assertEquals(Set.of("dev.squall.tasks.runtime"), exported);
        for (String p : INTERNAL_PACKAGES) assertTrue(runtime.getPackages().contains(p), p + " is not in the runtime");
        assertTrue(runtime.isNativeAccessEnabled(), "native access is not granted to the runtime");
        return runtime;
    }

    /**
     * The module of {@code lookup}'s class reads the runtime but cannot reach its internal packages: they are not
     * exported to it and a class of {@code spi} is not accessible ({@link IllegalAccessException}); it has no native
     * access of its own.
     */
    public static void assertRuntimeClosedTo(MethodHandles.Lookup lookup) throws ClassNotFoundException {
        Module runtime = assertRuntimeModule();
        Module library = lookup.lookupClass().getModule();
        assertTrue(library.isNamed(), lookup.lookupClass() + " is in the unnamed module: tests run on the class path");
        assertTrue(library.canRead(runtime), library.getName() + " does not read the runtime");
        assertTrue(runtime.isExported("dev.squall.tasks.runtime", library));
        for (String p : INTERNAL_PACKAGES) assertFalse(runtime.isExported(p, library), p + " is exported to " + library.getName());
        Class<?> spi = Class.forName("dev.squall.tasks.runtime.spi.NativeDevice", false, runtime.getClassLoader());
        assertThrows(IllegalAccessException.class, () -> lookup.accessClass(spi));
        assertFalse(library.isNativeAccessEnabled(), library.getName() + " has native access: only the runtime should");
    }

    /**
     * {@code module} provides at least one implementation of {@code service} in its descriptor, and the providers that
     * a {@link java.util.ServiceLoader} found ({@code loaded}, from every module) include exactly those of
     * {@code module}: a command that the descriptor leaves out, or one found some other way, fails.
     */
    public static void assertProvidersLoaded(Module module, Class<?> service, Collection<?> loaded) {
        Set<String> provided = module.getDescriptor().provides().stream()
                .filter(p -> p.service().equals(service.getName()))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        Set<String> found = loaded.stream().map(Object::getClass).filter(c -> c.getModule() == module)
                .map(Class::getName).collect(Collectors.toSet());
        assertFalse(provided.isEmpty(), module.getName() + " provides no " + service.getSimpleName());
        assertEquals(provided, found);
    }
}
