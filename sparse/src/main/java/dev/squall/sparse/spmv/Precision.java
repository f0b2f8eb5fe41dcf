package dev.squall.sparse.spmv;

import dev.squall.sparse.spmv.kernels.Fp32Kernels;
import dev.squall.sparse.spmv.kernels.Fp64Kernels;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelArray;

/** Floating-point precision of values and vectors on the device; indices are 32-bit either way. */
public enum Precision {
    FP32(4, Fp32Kernels.class),
    FP64(8, Fp64Kernels.class);

    private final int bytes;
    private final Class<?> kernels;

    Precision(int bytes, Class<?> kernels) {
        this.bytes = bytes;
        this.kernels = kernels;
    }

    /** Parses {@code fp32} / {@code fp64} (case-insensitive). */
    public static Precision parse(String s) {
        return switch (s.strip().toLowerCase()) {
            case "fp32", "float", "single" -> FP32;
            case "fp64", "double" -> FP64;
            default -> throw new IllegalArgumentException("precision '" + s + "' is not fp32 or fp64");
        };
    }

    public int bytes() {
        return bytes;
    }

    /** The class holding this precision's kernels. */
    public Class<?> kernels() {
        return kernels;
    }

    /** A device array of this precision holding {@code v} (at least one element: empty buffers are not portable). */
    public KernelArray array(double[] v) {
        KernelArray a = vector(v.length);
        write(a, v);
        return a;
    }

    /** A zeroed device array of this precision with {@code n} elements (at least one). */
    public KernelArray vector(int n) {
        return this == FP64 ? new DoubleArray(Math.max(1, n)) : new FloatArray(Math.max(1, n));
    }

    /** Writes {@code v} into the host side of {@code a}, rounding to float for FP32. */
    public static void write(KernelArray a, double[] v) {
        if (a instanceof DoubleArray d) {
            for (int i = 0; i < v.length; i++) d.set(i, v[i]);
        } else {
            FloatArray f = (FloatArray) a;
            for (int i = 0; i < v.length; i++) f.set(i, (float) v[i]);
        }
    }

    /** The first {@code n} elements of the host side of {@code a}, widened to double. */
    public static double[] read(KernelArray a, int n) {
        double[] v = new double[n];
        if (a instanceof DoubleArray d) {
            for (int i = 0; i < n; i++) v[i] = d.get(i);
        } else {
            FloatArray f = (FloatArray) a;
            for (int i = 0; i < n; i++) v[i] = f.get(i);
        }
        return v;
    }
}
