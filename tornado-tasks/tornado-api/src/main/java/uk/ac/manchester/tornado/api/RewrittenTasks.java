package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.SerializedMethodReference;
import uk.ac.manchester.tornado.api.exceptions.TornadoRuntimeException;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * Tasks whose kernels Squall's compiler rewrote when the program was built: a kernel with a {@code @Reduce} parameter
 * (two stages) or with matrix parameters (elements and sizes). For a kernel {@code p.Owner::k} the compiler wrote
 * {@code p.Owner_SquallTornado.k(graph, id, args, device)}, which adds the rewritten task(s) to a Squall graph; this
 * class finds that method for a task's method reference, or nothing when the kernel was not rewritten. A modular program
 * opens (or exports) its kernel packages to {@code tornado.api} for it.
 */
final class RewrittenTasks {
    private RewrittenTasks() {
    }

    static final String SUFFIX = "_SquallTornado";

    /** The adding method by the method reference's class (one per non-capturing reference). */
    private static final Map<Class<?>, Optional<Method>> CACHE = Collections.synchronizedMap(new WeakHashMap<>());

    /** What {@link #add} did. */
    enum Added {
        /** The kernel was not rewritten: add it as it is. */
        NOTHING,
        /** Its rewrite (matrices and vectors as arrays). */
        REWRITE,
        /** The two stages of its {@code @Reduce}, whose launch grids are the compiler's. */
        REDUCTION
    }

    /** Adds the rewritten tasks standing for {@code code}'s kernel, if it was rewritten. */
    static Added add(dev.squall.tasks.runtime.TaskGraph graph, String id, Serializable code, Object[] args, Function<Object, Object> device) {
        Optional<Method> adder = CACHE.computeIfAbsent(code.getClass(), c -> find(code));
        if (adder.isEmpty()) return Added.NOTHING;
        try {
            adder.get().invoke(null, graph, id, args, device);
            boolean reduction = false;
            for (Method m : adder.get().getDeclaringClass().getMethods()) reduction |= m.getName().equals(adder.get().getName() + "_squallPartials");
            return reduction ? Added.REDUCTION : Added.REWRITE;
        } catch (IllegalAccessException e) {
            throw new TornadoRuntimeException("task " + id + ": cannot call " + adder.get() + " (a modular program opens its kernel packages to "
                    + "tornado.api): " + e.getMessage(), e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new TornadoRuntimeException("task " + id + ": " + e.getCause(), e.getCause());
        }
    }

    private static Optional<Method> find(Serializable code) {
        SerializedLambda sl = serializedForm(code);
        if (sl == null) return Optional.empty();
        String owner = sl.getImplClass().replace('/', '.');
        int dot = owner.lastIndexOf('.');
        String generated = owner.substring(0, dot + 1) + owner.substring(dot + 1).replace('$', '_') + SUFFIX;
        try {
            Class<?> c = Class.forName(generated, true, code.getClass().getClassLoader());
            return Optional.of(c.getMethod(sl.getImplMethodName(), dev.squall.tasks.runtime.TaskGraph.class, String.class, Object[].class, Function.class));
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return Optional.empty();
        }
    }

    /** A method reference's serialised form, or null if {@code code} is not a serialisable method reference. */
    private static SerializedLambda serializedForm(Serializable code) {
        try {
            return SerializedMethodReference.of(code);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
