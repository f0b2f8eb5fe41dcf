package dev.squall.tasks.runtime;

import dev.squall.tasks.api.spi.GeneratedKernels;
import dev.squall.tasks.api.spi.KernelInfo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds what the compiler generated for kernel classes: the {@link GeneratedKernels} class and
 * the OpenCL C / CUDA C programs stored as resources.
 *
 * <pre>{@code String cuda = KernelRegistry.source(Kernels.class, "cuda"); }</pre>
 */
public final class KernelRegistry {
    private static final Map<Class<?>, GeneratedKernels> GENERATED = new ConcurrentHashMap<>();
    private static final Map<String, String> SOURCES = new ConcurrentHashMap<>();

    private KernelRegistry() {
    }

    /** Name of the generated class for an owner: same package, {@code Outer$Inner} becomes {@code Outer_Inner_SquallKernels}. */
    public static String generatedClassName(String ownerBinaryName) {
        int dot = ownerBinaryName.lastIndexOf('.');
        String pkg = dot < 0 ? "" : ownerBinaryName.substring(0, dot + 1);
        return pkg + ownerBinaryName.substring(dot + 1).replace('$', '_') + "_SquallKernels";
    }

    public static GeneratedKernels generated(Class<?> owner) {
        return GENERATED.computeIfAbsent(owner, o -> {
            String name = generatedClassName(o.getName());
            Module m = o.getModule();
            if (m.isNamed() && !m.isOpen(o.getPackageName(), KernelRegistry.class.getModule())) {
                // the runtime instantiates the generated class and, on the JVM, calls SPMD kernel methods reflectively
                throw new IllegalStateException("module " + m.getName() + " holds kernels in " + o.getPackageName()
                        + " but does not open that package to the runtime: add 'opens " + o.getPackageName()
                        + " to dev.squall.tasks.runtime;' to its module-info.java");
            }
            try {
                Class<?> c = Class.forName(name, true, o.getClassLoader());
                return (GeneratedKernels) c.getDeclaredConstructor().newInstance();
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException(o.getName() + " has no generated kernels (" + name + " not found): compile it with "
                        + "squall-compiler on the class path and -proc:full (Maven: <proc>full</proc>)", e);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot load " + name, e);
            }
        });
    }

    /** The compiler's description of one kernel. */
    static KernelInfo info(KernelRef ref) {
        for (KernelInfo k : generated(ref.owner()).kernels()) {
            if (k.name().equals(ref.method())) return k;
        }
        throw new IllegalArgumentException(ref + " is not a @Kernel method (kernels of " + ref.owner().getName() + ": "
                + generated(ref.owner()).kernels().stream().map(KernelInfo::name).toList() + ")");
    }

    /** The generated program for {@code backend} ("opencl" or "cuda") of an owner class. */
    public static String source(Class<?> owner, String backend) {
        return source(owner.getName(), backend, owner.getClassLoader());
    }

    public static String source(String ownerBinaryName, String backend, ClassLoader loader) {
        String ext = switch (backend) {
            case "opencl" -> ".cl";
            case "cuda" -> ".cu";
            default -> throw new IllegalArgumentException("no generated source for backend " + backend + " (opencl or cuda)");
        };
        String path = "META-INF/squall/kernels/" + ownerBinaryName + ext;
        return SOURCES.computeIfAbsent(path, p -> {
            try (InputStream in = (loader != null ? loader : ClassLoader.getSystemClassLoader()).getResourceAsStream(p)) {
                if (in == null) throw new IllegalArgumentException("generated source " + p + " not found on the class path");
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Every kernel class listed by the jars and folders on the class path, sorted. */
    public static List<String> ownerClasses(ClassLoader loader) {
        TreeSet<String> owners = new TreeSet<>();
        try {
            Enumeration<URL> idx = loader.getResources("META-INF/squall/kernels.idx");
            while (idx.hasMoreElements()) {
                try (InputStream in = idx.nextElement().openStream()) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                        if (!line.isBlank()) owners.add(line.strip());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(owners);
    }
}
