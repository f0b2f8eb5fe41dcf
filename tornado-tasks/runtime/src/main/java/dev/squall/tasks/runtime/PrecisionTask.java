package dev.squall.tasks.runtime;

import java.io.Serial;

/**
 * The kernel a {@link KernelVariants} handle picked for a precision. It stands where a method reference
 * would in {@link TaskGraph#task}; the graph reads its kernel and precision instead of a serialized lambda.
 * It cannot be called as a Java method.
 */
final class PrecisionTask implements KernelFunctions.Task1<Object>, KernelFunctions.Task2<Object, Object>, KernelFunctions.Task3<Object, Object, Object>, KernelFunctions.Task4<Object, Object, Object, Object>, KernelFunctions.Task5<Object, Object, Object, Object, Object>, KernelFunctions.Task6<Object, Object, Object, Object, Object, Object>, KernelFunctions.Task7<Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task8<Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task9<Object, Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task10<Object, Object, Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task11<Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task12<Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task13<Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task14<Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object>, KernelFunctions.Task15<Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object, Object> {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Method references of generated handles are long-lived constants: read each one's kernel once. */
    private static final java.util.Map<Object, KernelRef> RESOLVED = new java.util.concurrent.ConcurrentHashMap<>();

    private final KernelRef kernel;
    private final Precision precision;

    private PrecisionTask(KernelRef kernel, Precision precision) {
        this.kernel = kernel;
        this.precision = precision;
    }

    static PrecisionTask of(Precision precision, java.io.Serializable methodReference) {
        if (precision == null) throw new IllegalArgumentException("a kernel variant needs a precision, got null");
        return new PrecisionTask(RESOLVED.computeIfAbsent(methodReference, m -> KernelRef.of((java.io.Serializable) m)), precision);
    }

    KernelRef kernel() {
        return kernel;
    }

    Precision precision() {
        return precision;
    }

    private UnsupportedOperationException notCallable() {
        return new UnsupportedOperationException("kernel handle " + kernel + " (" + precision + ") is launched through a TaskGraph task, not called");
    }

    @Override
    public void apply(Object a) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i, Object j) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i, Object j, Object k) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i, Object j, Object k, Object l) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i, Object j, Object k, Object l, Object m) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i, Object j, Object k, Object l, Object m, Object n) {
        throw notCallable();
    }

    @Override
    public void apply(Object a, Object b, Object c, Object d, Object e, Object f, Object g, Object h, Object i, Object j, Object k, Object l, Object m, Object n, Object o) {
        throw notCallable();
    }
}
