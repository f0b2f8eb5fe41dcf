package dev.squall.sparse.solve.kernels;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;

/** Vector conversions between double and single precision, for a single-precision preconditioner inside double-precision CG. */
public final class ConvertKernels {
    private ConvertKernels() {
    }

    /** {@code dst[i] = (float) src[i]} (rounded to nearest). */
    @Kernel
    public static void toSingle(@ReadOnly DoubleArray src, @NoAlias FloatArray dst, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            dst.set(i, (float) src.get(i));
        }
    }

    /** {@code dst[i] = src[i]} widened to double. */
    @Kernel
    public static void toDouble(@ReadOnly FloatArray src, @NoAlias DoubleArray dst, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            dst.set(i, (double) src.get(i));
        }
    }
}
