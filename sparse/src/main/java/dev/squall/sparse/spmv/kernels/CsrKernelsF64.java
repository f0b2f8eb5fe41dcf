package dev.squall.sparse.spmv.kernels;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;

/**
 * CSR SpMV kernels: one work-item per row ({@code csrScalar}, 32- or 64-bit row pointers), row blocks for CPU devices,
 * CSR-vector (sub-group lanes per row) and merge-path CSR; also {@code scale}, the product of a matrix with no
 * entries. They compute {@code y = alpha A x + beta y} with {@code coef = {alpha, beta}} read on the device (changing
 * them costs no rebuild); with {@code beta == 0}, {@code y} is written without being read. The compiler generates the
 * single-precision twin {@code CsrKernelsF32} ({@link Fp32Variant}; accumulation in float, as cuSPARSE does for fp32)
 * and typed handles on both, {@code CsrKernels} ({@code CsrKernels.kernel.at(precision)}).
 */
@Fp32Variant(value = "CsrKernelsF32", handles = "CsrKernels")
public final class CsrKernelsF64 {
    private CsrKernelsF64() {
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

    /** y = beta y: the whole product for a matrix with no entries. */
    @Kernel
    public static void scale(DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            store(y, i, 0.0, coef);
        }
    }

    /** CSR, one work-item per row. */
    @Kernel
    public static void csrScalar(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                 @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            int end = rowPtr.get(i + 1);
            for (int k = rowPtr.get(i); k < end; k++) {
                s += val.get(k) * x.get(col.get(k));
            }
            store(y, i, s, coef);
        }
    }

    /**
     * CSR with 64-bit row pointers, one work-item per row: for matrices of 2^31 or more entries, whose
     * offsets do not fit in an int (column indices stay 32-bit: the column count is below 2^31).
     */
    @Kernel
    public static void csrScalarLong(@ReadOnly LongArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                     @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            long end = rowPtr.get(i + 1);
            for (long k = rowPtr.get(i); k < end; k++) {
                s += val.get(k) * x.get(col.get(k));
            }
            store(y, i, s, coef);
        }
    }

    /**
     * CSR for CPU devices (the JVM, OpenCL on CPUs): work-item {@code b} computes the {@code blockRows}
     * rows from {@code b * blockRows}, walking their entries as one stream (a row's start is the
     * previous row's end, so each row costs one {@code rowPtr} read), with two accumulators so
     * consecutive products do not wait on one floating-point add chain. alpha and beta are read once.
     */
    @Kernel
    public static void csrRowBlocks(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                    @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef,
                                    int rows, int blockRows, int blocks) {
        for (@Parallel int b = 0; b < blocks; b++) {
            double alpha = coef.get(0);
            double beta = coef.get(1);
            int r0 = b * blockRows;
            int r1 = Math.min(r0 + blockRows, rows);
            int k = rowPtr.get(r0);
            for (int i = r0; i < r1; i++) {
                int end = rowPtr.get(i + 1);
                double s0 = 0;
                double s1 = 0;
                while (k + 1 < end) {
                    s0 += val.get(k) * x.get(col.get(k));
                    s1 += val.get(k + 1) * x.get(col.get(k + 1));
                    k += 2;
                }
                if (k < end) {
                    s0 += val.get(k) * x.get(col.get(k));
                    k++;
                }
                double s = s0 + s1;
                if (beta == 0) {
                    y.set(i, alpha * s);
                } else {
                    y.set(i, alpha * s + beta * y.get(i));
                }
            }
        }
    }

    /**
     * CSR, {@code lanes} work-items per row (a power of two up to the sub-group size), strided over
     * the row and reduced with sub-group shuffles (Bell and Garland's CSR-vector, lanes tuned to the
     * row length as in Venkat's thesis). Grid: rows * lanes work-items, rounded up to the group size.
     */
    @Kernel
    public static void csrVector(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                 @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows, int lanes) {
        int g = ctx.globalIdx;
        int row = g / lanes;
        int lane = g & (lanes - 1);
        double s = 0;
        if (row < rows) {
            int end = rowPtr.get(row + 1);
            for (int k = rowPtr.get(row) + lane; k < end; k += lanes) {
                s += val.get(k) * x.get(col.get(k));
            }
        }
        // every work-item reaches the shuffles; lane 0 of each row segment only reads inside it
        for (int off = lanes / 2; off > 0; off >>= 1) {
            s += ctx.shuffleDown(s, off);
        }
        if (row < rows && lane == 0) {
            store(y, row, s, coef);
        }
    }

    /** Merge-path search (Merrill and Garland, SC'16): rows whose end lies among the first {@code diag} merge items. */
    @DeviceFunction
    static int mergeSearch(IntArray rowPtr, int diag, int rows, int nnz) {
        int lo = Math.max(diag - nnz, 0);
        int hi = Math.min(diag, rows);
        while (lo < hi) {
            int p = (lo + hi) >>> 1;
            if (rowPtr.get(p + 1) <= diag - p - 1) {
                lo = p + 1;
            } else {
                hi = p;
            }
        }
        return lo;
    }

    /**
     * Merge-path CSR, first pass: work-item {@code w} consumes {@code perItem} items of the merge of
     * row ends and nonzeros, so every work-item does the same work however skewed the rows are.
     * The partial sum of the row open at its end goes to {@code carry} (second pass: {@link CooKernelsF64#carryFix}).
     */
    @Kernel
    public static void csrMerge(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, DoubleArray carry, IntArray carryRow,
                                int rows, int nnz, int perItem, int items) {
        for (@Parallel int w = 0; w < items; w++) {
            int total = rows + nnz;
            int d0 = Math.min(w * perItem, total);
            int d1 = Math.min(d0 + perItem, total);
            int i = mergeSearch(rowPtr, d0, rows, nnz);
            int k = d0 - i;
            double s = 0;
            for (int d = d0; d < d1; d++) {
                if (k < rowPtr.get(i + 1)) {
                    s += val.get(k) * x.get(col.get(k));
                    k++;
                } else {
                    store(y, i, s, coef);
                    s = 0;
                    i++;
                }
            }
            carryRow.set(w, i < rows ? i : -1);
            carry.set(w, s);
        }
    }
}
