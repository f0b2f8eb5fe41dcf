package dev.squall.sparse.spmv.kernels;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;

/**
 * DIA (diagonals) and BCSR (dense R x C blocks) SpMV kernels. They compute {@code y = alpha A x + beta y} with {@code
 * coef = {alpha, beta}} read on the device (changing them costs no rebuild); with {@code beta == 0}, {@code y} is
 * written without being read. The compiler generates the single-precision twin {@code DiaBcsrKernelsF32} ({@link
 * Fp32Variant}; accumulation in float, as cuSPARSE does for fp32) and typed handles on both, {@code DiaBcsrKernels}
 * ({@code DiaBcsrKernels.kernel.at(precision)}).
 */
@Fp32Variant(value = "DiaBcsrKernelsF32", handles = "DiaBcsrKernels")
public final class DiaBcsrKernelsF64 {
    private DiaBcsrKernelsF64() {
    }

    /**
     * y[i] = alpha s + beta y[i], never reading y when beta is 0 (so poisoned y cannot leak in). Each SpMV kernel class
     * has this copy: kernels call the device functions of their own class only.
     */
    @DeviceFunction
    static void store(DoubleArray y, int i, double s, DoubleArray coef) {
        double a = coef.get(0);
        double b = coef.get(1);
        if (b == 0) {
            y.set(i, a * s);
        } else {
            y.set(i, a * s + b * y.get(i));
        }
    }

    /** DIA: diagonal {@code d} at column offset {@code offsets[d]}, stored column-major {@code [d * rows + i]}. */
    @Kernel
    public static void dia(@ReadOnly IntArray offsets, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, @NoAlias DoubleArray y,
                           @ReadOnly DoubleArray coef, int rows, int cols, int diagonals) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            for (int d = 0; d < diagonals; d++) {
                int j = i + offsets.get(d);
                if (j >= 0 && j < cols) {
                    s += val.get(d * rows + i) * x.get(j);
                }
            }
            store(y, i, s, coef);
        }
    }

    /**
     * BCSR with R x C blocks: work-item {@code t} computes row {@code t} (row {@code t % r} of block
     * row {@code t / r}); slots whose mask bit is clear are padding and are skipped, so padding is
     * never multiplied by x (no NaN from 0 * Inf).
     */
    @Kernel
    public static void bcsr(@ReadOnly IntArray blockPtr, @ReadOnly IntArray blockCol, @ReadOnly IntArray mask, @ReadOnly DoubleArray val,
                            @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows, int r, int c) {
        for (@Parallel int t = 0; t < rows; t++) {
            int br = t / r;
            int i = t - br * r;
            int end = blockPtr.get(br + 1);
            double s = 0;
            for (int b = blockPtr.get(br); b < end; b++) {
                int m = mask.get(b) >>> (i * c);
                int base = (b * r + i) * c;
                int j0 = blockCol.get(b) * c;
                for (int j = 0; j < c; j++) {
                    if (((m >>> j) & 1) != 0) {
                        s += val.get(base + j) * x.get(j0 + j);
                    }
                }
            }
            store(y, t, s, coef);
        }
    }
}
