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
 * COO SpMV (also the COO part of HYB) as a segmented reduction without atomics, and its carry pass, which merge-path
 * CSR shares. They compute {@code y = alpha A x + beta y} with {@code coef = {alpha, beta}} read on the device
 * (changing them costs no rebuild); with {@code beta == 0}, {@code y} is written without being read. The compiler
 * generates the single-precision twin {@code CooKernelsF32} ({@link Fp32Variant}; accumulation in float, as cuSPARSE
 * does for fp32) and typed handles on both, {@code CooKernels} ({@code CooKernels.kernel.at(precision)}).
 */
@Fp32Variant(value = "CooKernelsF32", handles = "CooKernels")
public final class CooKernelsF64 {
    private CooKernelsF64() {
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

    /**
     * COO, row-sorted, segmented reduction without atomics, first of two passes: work-item
     * {@code w} reduces entries {@code [w * chunk, (w + 1) * chunk)}; rows that end in its chunk
     * are stored (their earlier parts come in the second pass); the sum of a row still open at
     * the chunk's end goes to {@code carry[w]} with its row in {@code carryRow[w]} (-1 if none).
     * With {@code writeEmpty}, rows with no entries get {@code beta y}; HYB turns it off and adds.
     */
    @Kernel
    public static void cooChunks(@ReadOnly IntArray row, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                 @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, DoubleArray carry, IntArray carryRow,
                                 int nnz, int rows, int chunk, int chunks, int writeEmpty) {
        for (@Parallel int w = 0; w < chunks; w++) {
            int start = w * chunk;
            int end = Math.min(start + chunk, nnz);
            int r = row.get(start);
            if (writeEmpty != 0) {
                int from = start == 0 ? 0 : row.get(start - 1) + 1;
                for (int e = from; e < r; e++) {
                    store(y, e, 0.0, coef);
                }
            }
            double s = 0;
            for (int k = start; k < end; k++) {
                int rk = row.get(k);
                if (rk != r) {
                    store(y, r, s, coef);
                    if (writeEmpty != 0) {
                        for (int e = r + 1; e < rk; e++) {
                            store(y, e, 0.0, coef);
                        }
                    }
                    r = rk;
                    s = 0;
                }
                s += val.get(k) * x.get(col.get(k));
            }
            if (end == nnz || row.get(end) != r) {
                store(y, r, s, coef);
                carryRow.set(w, -1);
                carry.set(w, 0.0);
                if (end == nnz && writeEmpty != 0) {
                    for (int e = r + 1; e < rows; e++) {
                        store(y, e, 0.0, coef);
                    }
                }
            } else {
                carryRow.set(w, r);
                carry.set(w, s);
            }
        }
    }

    /**
     * Second pass of the segmented reductions (COO and merge-path CSR): the last work-item that
     * carries a row adds the carries of the run of work-items before it that carry the same row.
     * Exactly one work-item writes each row, so no atomics are needed.
     */
    @Kernel
    public static void carryFix(@NoAlias DoubleArray y, @ReadOnly DoubleArray coef, @ReadOnly DoubleArray carry,
                                @ReadOnly IntArray carryRow, int chunks) {
        for (@Parallel int w = 0; w < chunks; w++) {
            int r = carryRow.get(w);
            if (r < 0 || (w + 1 < chunks && carryRow.get(w + 1) == r)) {
                continue;
            }
            double s = 0;
            int t = w;
            while (t >= 0 && carryRow.get(t) == r) {
                s += carry.get(t);
                t--;
            }
            y.set(r, y.get(r) + coef.get(0) * s);
        }
    }
}
