package dev.squall.tasks.runtime;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelArray;

import java.util.Locale;

/**
 * Floating-point precision of a computation's values: picks the kernel of that precision from a
 * {@code @Fp32Variant} pair ({@link KernelVariants}) and makes and reads the arrays those kernels take.
 *
 * <pre>{@code
 * Precision p = Precision.parse("fp32");
 * KernelArray x = p.fromDoubles(values);                      // a FloatArray
 * graph.task("axpy", AxpyVariants.axpy.at(p), x, y, 2.0, n);  // runs AxpyF32.axpy
 * }</pre>
 */
public enum Precision {
    FP32(4, 0x1p-24),
    FP64(8, 0x1p-53);

    private final int bytes;
    private final double epsilon;

    Precision(int bytes, double epsilon) {
        this.bytes = bytes;
        this.epsilon = epsilon;
    }

    /** Parses {@code fp32}/{@code float}/{@code single}/{@code f32} or {@code fp64}/{@code double}/{@code f64}, case-insensitive. */
    public static Precision parse(String s) {
        if (s == null) throw new IllegalArgumentException("precision must be fp32 or fp64, got nothing");
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "fp32", "float", "single", "f32" -> FP32;
            case "fp64", "double", "f64" -> FP64;
            default -> throw new IllegalArgumentException("precision must be fp32 or fp64, got '" + s + "'");
        };
    }

    /** The precision of a {@link DoubleArray} or {@link FloatArray}. */
    public static Precision of(KernelArray a) {
        if (a instanceof DoubleArray) return FP64;
        if (a instanceof FloatArray) return FP32;
        throw new IllegalArgumentException("expected a DoubleArray or FloatArray, got " + (a == null ? "null" : a.elementType() + " array"));
    }

    /** Bytes of one value. */
    public int bytes() {
        return bytes;
    }

    /** Unit roundoff (2^-24 or 2^-53). */
    public double epsilon() {
        return epsilon;
    }

    /** {@code fp64} for FP64, {@code fp32} for FP32. */
    public <T> T pick(T fp64, T fp32) {
        return this == FP64 ? fp64 : fp32;
    }

    /** Whether {@code a} holds values of this precision. */
    public boolean holds(KernelArray a) {
        return this == FP64 ? a instanceof DoubleArray : a instanceof FloatArray;
    }

    /** A zeroed array of {@code length} values of this precision. */
    public KernelArray allocate(long length) {
        return this == FP64 ? new DoubleArray(length) : new FloatArray(length);
    }

    /** An array of this precision holding {@code v} (rounded to float for FP32). */
    public KernelArray fromDoubles(double[] v) {
        KernelArray a = allocate(v.length);
        write(a, v);
        return a;
    }

    /** Writes {@code v} into the host side of {@code a} from index 0, rounding to float for a FloatArray. */
    public static void write(KernelArray a, double[] v) {
        if (a instanceof DoubleArray d) {
            for (int i = 0; i < v.length; i++) d.set(i, v[i]);
        } else if (a instanceof FloatArray f) {
            for (int i = 0; i < v.length; i++) f.set(i, (float) v[i]);
        } else {
            of(a);
        }
    }

    /** The first {@code n} values of the host side of {@code a}, widened to double. */
    public static double[] read(KernelArray a, int n) {
        double[] v = new double[n];
        if (a instanceof DoubleArray d) {
            for (int i = 0; i < n; i++) v[i] = d.get(i);
        } else if (a instanceof FloatArray f) {
            for (int i = 0; i < n; i++) v[i] = f.get(i);
        } else {
            of(a);
        }
        return v;
    }

    /** Every value of the host side of {@code a}, widened to double. */
    public static double[] toDoubles(KernelArray a) {
        return read(a, Math.toIntExact(a.getSizeLong()));
    }

    /** Value {@code i} of the host side of {@code a}, widened to double. */
    public static double get(KernelArray a, long i) {
        return a instanceof DoubleArray d ? d.get(i) : ((FloatArray) a).get(i);
    }

    /** Sets every value of the host side of {@code a} to {@code v}. */
    public static void fill(KernelArray a, double v) {
        if (a instanceof DoubleArray d) d.init(v);
        else if (a instanceof FloatArray f) f.init((float) v);
        else of(a);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
