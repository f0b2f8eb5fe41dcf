package dev.squall.linalg.plan;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelArray;

/**
 * Element precision of a linalg operation: picks the kernel class and boxes scalars the way the
 * kernels of that precision take them.
 *
 * <pre>{@code
 * KernelArray a = Precision.FP32.fromDoubles(values);   // a FloatArray
 * }</pre>
 */
public enum Precision {
    FP64, FP32;

    /** Parses {@code fp64}/{@code fp32} (case-insensitive); anything else is an error naming the value. */
    public static Precision parse(String s) {
        return switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "fp64", "double", "f64" -> FP64;
            case "fp32", "float", "f32" -> FP32;
            default -> throw new IllegalArgumentException("precision must be fp32 or fp64, got '" + s + "'");
        };
    }

    /** The kernel class for this precision. */
    public Class<?> pick(Class<?> f64, Class<?> f32) {
        return this == FP64 ? f64 : f32;
    }

    /** A scalar argument as the kernels of this precision take it. */
    public Object scalar(double v) {
        return this == FP64 ? (Object) v : (Object) (float) v;
    }

    public KernelArray allocate(long length) {
        return this == FP64 ? new DoubleArray(length) : new FloatArray(length);
    }

    public KernelArray fromDoubles(double[] v) {
        if (this == FP64) return DoubleArray.fromArray(v);
        FloatArray f = new FloatArray(v.length);
        for (int i = 0; i < v.length; i++) f.set(i, (float) v[i]);
        return f;
    }

    /** Unit roundoff of this precision. */
    public double epsilon() {
        return this == FP64 ? 0x1p-53 : 0x1p-24;
    }

    /** Whether {@code a} holds elements of this precision. */
    public boolean holds(KernelArray a) {
        return this == FP64 ? a instanceof DoubleArray : a instanceof FloatArray;
    }

    public static Precision of(KernelArray a) {
        if (a instanceof DoubleArray) return FP64;
        if (a instanceof FloatArray) return FP32;
        throw new IllegalArgumentException("linalg works on DoubleArray or FloatArray, got " + a.elementType() + " array");
    }

    public static double[] toDoubles(KernelArray a) {
        if (a instanceof DoubleArray d) return d.toHeapArray();
        if (a instanceof FloatArray f) {
            double[] r = new double[f.getSize()];
            for (int i = 0; i < r.length; i++) r[i] = f.get(i);
            return r;
        }
        throw new IllegalArgumentException("not a floating-point array: " + a);
    }

    public static double get(KernelArray a, long i) {
        return a instanceof DoubleArray d ? d.get(i) : ((FloatArray) a).get(i);
    }

    public static void fill(KernelArray a, double v) {
        if (a instanceof DoubleArray d) d.init(v);
        else ((FloatArray) a).init((float) v);
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
