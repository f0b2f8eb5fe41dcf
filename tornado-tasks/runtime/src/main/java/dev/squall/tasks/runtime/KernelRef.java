package dev.squall.tasks.runtime;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A compiled kernel, named by its declaring class and method name, as read from a task's method reference.
 */
record KernelRef(Class<?> owner, String method) implements TaskKernel {
    /** Method references by their class: a non-capturing method reference's class stands for one method. */
    private static final Map<Class<?>, KernelRef> CACHE = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * Reads the class and method behind a method reference such as {@code Kernels::saxpy}. The reference's
     * {@link SerializedLambda} is obtained by serialising it (serialisation calls the lambda's private
     * {@code writeReplace} on its own authority), so the caller's package need not be open to the runtime.
     */
    static KernelRef of(Serializable methodReference) {
        if (methodReference instanceof PrecisionTask p) return p.kernel();
        if (methodReference == null) throw new IllegalArgumentException("a task's kernel is null");
        Class<?> c = methodReference.getClass();
        KernelRef known = CACHE.get(c);
        if (known != null) return known;
        SerializedLambda sl = SerializedMethodReference.of(methodReference);
        if (sl.getImplMethodName().startsWith("lambda$")) {
            throw new IllegalArgumentException("a task's kernel must be a method reference to a @Kernel method (Kernels::saxpy), not a lambda");
        }
        String owner = sl.getImplClass().replace('/', '.');
        try {
            KernelRef ref = new KernelRef(Class.forName(owner, false, c.getClassLoader()), sl.getImplMethodName());
            if (sl.getCapturedArgCount() == 0) CACHE.putIfAbsent(c, ref);
            return ref;
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("kernel class " + owner + " not found", e);
        }
    }

    @Override
    public String toString() {
        return owner.getName() + "::" + method;
    }
}
