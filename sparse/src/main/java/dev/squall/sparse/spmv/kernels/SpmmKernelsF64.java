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
 * SpMM kernels {@code Y = alpha A X + beta Y} on CSR (X and Y row- or column-major) and on CSB blocks (A and A^T); the
 * binned-schedule SpMM is in {@link BinnedCsrKernelsF64}. They compute {@code y = alpha A x + beta y} with {@code coef
 * = {alpha, beta}} read on the device (changing them costs no rebuild); with {@code beta == 0}, {@code y} is written
 * without being read. The compiler generates the single-precision twin {@code SpmmKernelsF32} ({@link Fp32Variant};
 * accumulation in float, as cuSPARSE does for fp32) and typed handles on both, {@code SpmmKernels} ({@code
 * SpmmKernels.kernel.at(precision)}).
 */
@Fp32Variant(value = "SpmmKernelsF32", handles = "SpmmKernels")
public final class SpmmKernelsF64 {
    private SpmmKernelsF64() {
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
     * SpMM {@code Y = alpha A X + beta Y}, X row-major ({@code cols x k}, {@code X[j * k + c]}), Y row-major:
     * work-item {@code t} computes {@code Y[t]}, row {@code t / k}, column {@code t % k}, so neighbouring
     * work-items share the row's entries and read consecutive X and Y elements (coalesced).
     */
    @Kernel
    public static void spmmRowMajor(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                    @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int k, int total) {
        for (@Parallel int t = 0; t < total; t++) {
            int i = t / k;
            int c = t - i * k;
            double s = 0;
            int end = rowPtr.get(i + 1);
            for (int q = rowPtr.get(i); q < end; q++) {
                s += val.get(q) * x.get(col.get(q) * k + c);
            }
            store(y, t, s, coef);
        }
    }

    /**
     * SpMM with X column-major ({@code X[c * cols + j]}) and Y column-major ({@code Y[c * rows + i]}):
     * work-item {@code t} computes {@code Y[t]}, one SpMV row per work-item for each of the k vectors.
     */
    @Kernel
    public static void spmmColMajor(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                    @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows, int cols, int total) {
        for (@Parallel int t = 0; t < total; t++) {
            int c = t / rows;
            int i = t - c * rows;
            int base = c * cols;
            double s = 0;
            int end = rowPtr.get(i + 1);
            for (int q = rowPtr.get(i); q < end; q++) {
                s += val.get(q) * x.get(base + col.get(q));
            }
            store(y, t, s, coef);
        }
    }

    /**
     * CSB product {@code Y = alpha A X + beta Y} (Buluç et al., SPAA 2009): work-item {@code t} owns block
     * row {@code t / k} for vector {@code t % k}, scales its slice of Y by beta (writing 0 when beta is 0,
     * so Y is not read), then adds the entries of the block row's blocks; no other work-item writes that
     * slice, so no atomics. Layout strides as in {@link BinnedCsrKernelsF64#spmmBinned}.
     */
    @Kernel
    public static void csbMultiply(@ReadOnly IntArray blockRowPtr, @ReadOnly IntArray blockCol, @ReadOnly IntArray blockStart,
                                   @ReadOnly IntArray packed, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, @NoAlias DoubleArray y,
                                   @ReadOnly DoubleArray coef, int rows, int beta, int blockRows, int k, int xRow, int xVec, int yRow, int yVec) {
        for (@Parallel int t = 0; t < blockRows * k; t++) {
            int br = t / k;
            int c = t - br * k;
            int i0 = br * beta;
            int i1 = Math.min(i0 + beta, rows);
            csbScaleSlice(y, coef, i0, i1, c * yVec, yRow);
            double alpha = coef.get(0);
            int end = blockRowPtr.get(br + 1);
            for (int b = blockRowPtr.get(br); b < end; b++) {
                int xBase = blockCol.get(b) * beta * xRow + c * xVec;
                int yBase = i0 * yRow + c * yVec;
                int e1 = blockStart.get(b + 1);
                // entries are row-major in a block: sum a row's run in a register, update Y once per run
                int cur = -1;
                double run = 0;
                for (int e = blockStart.get(b); e < e1; e++) {
                    int p = packed.get(e);
                    int r = p >>> 16;
                    if (r != cur) {
                        if (cur >= 0) {
                            int at = yBase + cur * yRow;
                            y.set(at, y.get(at) + alpha * run);
                        }
                        cur = r;
                        run = 0;
                    }
                    run += val.get(e) * x.get(xBase + (p & 0xFFFF) * xRow);
                }
                if (cur >= 0) {
                    int at = yBase + cur * yRow;
                    y.set(at, y.get(at) + alpha * run);
                }
            }
        }
    }

    /**
     * CSB product with the transpose, {@code Y = alpha A^T X + beta Y}, from the same blocks walked by
     * block column ({@code colBlocks} from {@code colBlockPtr}): work-item {@code t} owns block column
     * {@code t / k} of A (a slice of Y) for vector {@code t % k}; an entry at (r, c) in its block adds to
     * {@code Y(c)} from {@code X(r)}.
     */
    @Kernel
    public static void csbMultiplyTransposed(@ReadOnly IntArray colBlockPtr, @ReadOnly IntArray colBlocks, @ReadOnly IntArray blockRow,
                                             @ReadOnly IntArray blockStart, @ReadOnly IntArray packed, @ReadOnly DoubleArray val,
                                             @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int cols, int beta,
                                             int blockCols, int k, int xRow, int xVec, int yRow, int yVec) {
        for (@Parallel int t = 0; t < blockCols * k; t++) {
            int bc = t / k;
            int c = t - bc * k;
            int j0 = bc * beta;
            int j1 = Math.min(j0 + beta, cols);
            csbScaleSlice(y, coef, j0, j1, c * yVec, yRow);
            double alpha = coef.get(0);
            int end = colBlockPtr.get(bc + 1);
            for (int q = colBlockPtr.get(bc); q < end; q++) {
                int b = colBlocks.get(q);
                int xBase = blockRow.get(b) * beta * xRow + c * xVec;
                int yBase = j0 * yRow + c * yVec;
                int e1 = blockStart.get(b + 1);
                for (int e = blockStart.get(b); e < e1; e++) {
                    int p = packed.get(e);
                    int at = yBase + (p & 0xFFFF) * yRow;
                    y.set(at, y.get(at) + alpha * val.get(e) * x.get(xBase + (p >>> 16) * xRow));
                }
            }
        }
    }

    /** y[off + i * stride] = beta y[...] for i in [i0, i1), or 0 when beta is 0 (y not read). */
    @DeviceFunction
    static void csbScaleSlice(DoubleArray y, DoubleArray coef, int i0, int i1, int off, int stride) {
        double b = coef.get(1);
        for (int i = i0; i < i1; i++) {
            int at = off + i * stride;
            if (b == 0) {
                y.set(at, 0.0);
            } else {
                y.set(at, b * y.get(at));
            }
        }
    }
}
