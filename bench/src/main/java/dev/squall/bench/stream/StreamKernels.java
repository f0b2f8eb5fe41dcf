package dev.squall.bench.stream;

import dev.squall.tasks.api.*;

/**
 * The four STREAM kernels (McCalpin): copy, scale, add, triad, in fp32 and fp64 (the fp64 copy is the project's one
 * copy kernel, added through {@link dev.squall.sparse.limits.CopyBandwidth#copyTask}). Each reads and
 * writes every element once, so bytes moved / time is the device's sustainable bandwidth.
 */
public final class StreamKernels {
    private StreamKernels() {
    }

    @Kernel
    public static void scale64(@ReadOnly DoubleArray c, @NoAlias DoubleArray b, double s, int n) {
        for (@Parallel int i = 0; i < n; i++) b.set(i, s * c.get(i));
    }

    @Kernel
    public static void add64(@ReadOnly DoubleArray a, @ReadOnly DoubleArray b, @NoAlias DoubleArray c, int n) {
        for (@Parallel int i = 0; i < n; i++) c.set(i, a.get(i) + b.get(i));
    }

    @Kernel
    public static void triad64(@NoAlias DoubleArray a, @ReadOnly DoubleArray b, @ReadOnly DoubleArray c, double s, int n) {
        for (@Parallel int i = 0; i < n; i++) a.set(i, b.get(i) + s * c.get(i));
    }

    @Kernel
    public static void copy32(@ReadOnly FloatArray a, @NoAlias FloatArray c, int n) {
        for (@Parallel int i = 0; i < n; i++) c.set(i, a.get(i));
    }

    @Kernel
    public static void scale32(@ReadOnly FloatArray c, @NoAlias FloatArray b, float s, int n) {
        for (@Parallel int i = 0; i < n; i++) b.set(i, s * c.get(i));
    }

    @Kernel
    public static void add32(@ReadOnly FloatArray a, @ReadOnly FloatArray b, @NoAlias FloatArray c, int n) {
        for (@Parallel int i = 0; i < n; i++) c.set(i, a.get(i) + b.get(i));
    }

    @Kernel
    public static void triad32(@NoAlias FloatArray a, @ReadOnly FloatArray b, @ReadOnly FloatArray c, float s, int n) {
        for (@Parallel int i = 0; i < n; i++) a.set(i, b.get(i) + s * c.get(i));
    }

    /** The smallest useful kernel, for measuring dispatch overhead. */
    @Kernel
    public static void touch(IntArray a, int n) {
        for (@Parallel int i = 0; i < n; i++) a.set(i, a.get(i) + 1);
    }
}
