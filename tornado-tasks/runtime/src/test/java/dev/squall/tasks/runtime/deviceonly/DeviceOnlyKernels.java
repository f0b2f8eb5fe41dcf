package dev.squall.tasks.runtime.deviceonly;

import dev.squall.tasks.api.*;

/** Kernels that pass intermediate results between graphs through device-only arrays ({@link DeviceOnlyArrayTest}). */
public final class DeviceOnlyKernels {
    private DeviceOnlyKernels() {
    }

    /** {@code t[i] = a x[i] + i}. */
    @Kernel
    public static void affine(@ReadOnly DoubleArray x, DoubleArray t, double a, int n) {
        for (@Parallel int i = 0; i < n; i++) t.set(i, a * x.get(i) + i);
    }

    /** {@code acc[i] += x[i]} and {@code counts[i] += i % 7 - 3}, {@code wide[i] += i * 2^33}: read-modify-write, so zero-filling shows. */
    @Kernel
    public static void accumulate(@ReadOnly DoubleArray x, DoubleArray acc, IntArray counts, LongArray wide, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            acc.set(i, acc.get(i) + x.get(i));
            counts.set(i, counts.get(i) + i % 7 - 3);
            wide.set(i, wide.get(i) + (long) i * (1L << 33));
        }
    }

    /** {@code y[i] = t[i] * t[i] - acc[i]}. */
    @Kernel
    public static void combine(@ReadOnly DoubleArray t, @ReadOnly DoubleArray acc, DoubleArray y, int n) {
        for (@Parallel int i = 0; i < n; i++) y.set(i, t.get(i) * t.get(i) - acc.get(i));
    }
}
