package dev.squall.tasks.runtime;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;

/**
 * A kernel named by its declaring class and method name.
 *
 * <pre>{@code KernelRef k = KernelRef.of(Kernels.class, "saxpy"); }</pre>
 */
public record KernelRef(Class<?> owner, String method) {

    public static KernelRef of(Class<?> owner, String method) {
        return new KernelRef(owner, method);
    }

    /** Reads the class and method behind a method reference such as {@code Kernels::saxpy}. */
    static KernelRef of(Serializable methodReference) {
        if (methodReference instanceof PrecisionTask p) return p.kernel();
        if (methodReference == null) throw new IllegalArgumentException("a task's kernel is null");
        SerializedLambda sl;
        try {
            Method m = methodReference.getClass().getDeclaredMethod("writeReplace");
            m.setAccessible(true);
            sl = (SerializedLambda) m.invoke(methodReference);
        } catch (ReflectiveOperationException | ClassCastException | SecurityException e) {
            throw new IllegalArgumentException("a task's kernel must be a method reference such as Kernels::saxpy, got "
                    + methodReference.getClass().getName(), e);
        }
        if (sl.getImplMethodName().startsWith("lambda$")) {
            throw new IllegalArgumentException("a task's kernel must be a method reference to a @Kernel method (Kernels::saxpy), not a lambda");
        }
        String owner = sl.getImplClass().replace('/', '.');
        ClassLoader cl = methodReference.getClass().getClassLoader();
        try {
            return new KernelRef(Class.forName(owner, false, cl), sl.getImplMethodName());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("kernel class " + owner + " not found", e);
        }
    }

    @Override
    public String toString() {
        return owner.getName() + "::" + method;
    }
}
