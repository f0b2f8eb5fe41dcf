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
 * ELL and SELL-C-sigma SpMV kernels. They compute {@code y = alpha A x + beta y} with {@code coef = {alpha, beta}}
 * read on the device (changing them costs no rebuild); with {@code beta == 0}, {@code y} is written without being
 * read. The compiler generates the single-precision twin {@code EllKernelsF32} ({@link Fp32Variant}; accumulation in
 * float, as cuSPARSE does for fp32) and typed handles on both, {@code EllKernels} ({@code
 * EllKernels.kernel.at(precision)}).
 */
@Fp32Variant(value = "EllKernelsF32", handles = "EllKernels")
public final class EllKernelsF64 {
    private EllKernelsF64() {
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

    /** ELL, column-major ({@code [k * rows + i]}), one work-item per row; padding is never read. */
    @Kernel
    public static void ell(@ReadOnly IntArray rowLen, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                           @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            int len = rowLen.get(i);
            int idx = i;
            for (int k = 0; k < len; k++) {
                s += val.get(idx) * x.get(col.get(idx));
                idx += rows;
            }
            store(y, i, s, coef);
        }
    }

    /**
     * SELL-C-sigma (Kreutzer et al., SIAM J. Sci. Comput. 2014): slot {@code s} is lane
     * {@code s % c} of chunk {@code s / c}, holding row {@code perm[s]} (or -1 for padding);
     * chunk entries are column-major from {@code chunkPtr[chunk]}.
     */
    @Kernel
    public static void sell(@ReadOnly IntArray chunkPtr, @ReadOnly IntArray slotLen, @ReadOnly IntArray perm,
                            @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, @NoAlias DoubleArray y,
                            @ReadOnly DoubleArray coef, int slots, int c) {
        for (@Parallel int s = 0; s < slots; s++) {
            int row = perm.get(s);
            if (row < 0) {
                continue;
            }
            int chunk = s / c;
            int idx = chunkPtr.get(chunk) + (s - chunk * c);
            int len = slotLen.get(s);
            double sum = 0;
            for (int k = 0; k < len; k++) {
                sum += val.get(idx) * x.get(col.get(idx));
                idx += c;
            }
            store(y, row, sum, coef);
        }
    }
}
