package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * Cholesky kernels in double precision: the small-matrix factorisation in local memory (one
 * work-group per matrix, used batched and for the diagonal blocks of the blocked algorithm),
 * triangle and rectangle copies, and the triangular solves with the factor.
 *
 * <p>The compiler generates the single-precision twin {@code CholeskyKernelsF32} from this class
 * and the typed handles on both, {@code CholeskyKernels} ({@code @Fp32Variant}): {@code CholeskyKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "CholeskyKernelsF32", handles = "CholeskyKernels")
public final class CholeskyKernelsF64 {
    /** Largest matrix {@link #potrfSmall} factors (its local-memory tile is MAX_N x MAX_N). */
    public static final int MAX_N = 64;
    /** Work-items per group for every kernel here. */
    public static final int THREADS = 256;

    private CholeskyKernelsF64() {
    }

    /**
     * Factors {@code batch} matrices of order {@code n <= MAX_N} in place: matrix {@code e} starts
     * at {@code aOff + e * stride} with leading dimension {@code lda}; on return its lower triangle
     * holds {@code L} and its upper triangle zeros. The first pivot that is not positive (or NaN)
     * stops that matrix and is reported as {@code atomicMin(info[infoOff + e], pivotBase + j)},
     * so the caller initialises {@code info} to {@code Integer.MAX_VALUE}.
     *
     * <p>Right-looking on the unscaled columns, one barrier per column: step {@code j} updates
     * {@code a_rc -= a_rj a_cj / a_jj} for {@code c > j}, which reads only column j, and the
     * columns are scaled by {@code 1 / sqrt(a_jj)} once, while the factor is written out. Work-item
     * {@code t} owns row {@code t % 64} and every fourth column from {@code t / 64}: a fixed
     * mapping, so the inner loop has no integer division.
     */
    @Kernel
    public static void potrfSmall(KernelContext ctx, DoubleArray a, int aOff, int lda, int stride, int n,
                                  IntArray info, int infoOff, int pivotBase) {
        double[] l = ctx.allocateDoubleLocalArray(MAX_N * MAX_N);
        int e = ctx.groupIdx;
        int lid = ctx.localIdx;
        int base = aOff + e * stride;
        for (int idx = lid; idx < n * n; idx += THREADS) {
            int r = idx % n, c = idx / n;
            l[idx] = r >= c ? a.get(base + r + c * lda) : 0;
        }
        ctx.localBarrier();
        int phases = THREADS / MAX_N;
        int row = lid % MAX_N, phase = lid / MAX_N;
        int failedAt = -1;
        // barriers stay outside conditionals (PoCL needs every barrier reached unconditionally)
        for (int j = 0; j < n; j++) {
            double d = l[j + j * n];
            if (failedAt < 0 && !(d > 0)) {
                failedAt = j;
                if (lid == 0) ctx.atomicMin(info, infoOff + e, pivotBase + j);
            }
            if (failedAt < 0 && row > j && row < n) {
                double lrj = l[row + j * n] / d;
                int first = j + 1 + ((phase - j - 1) % phases + phases) % phases;
                for (int c = first; c <= row; c += phases) l[row + c * n] -= lrj * l[c + j * n];
            }
            ctx.localBarrier();
        }
        for (int idx = lid; idx < n * n; idx += THREADS) {
            int r = idx % n, c = idx / n;
            double v = l[idx];
            if (failedAt < 0 || c < failedAt) {
                double s = Math.sqrt(l[c + c * n]);
                v = r < c ? 0 : r == c ? s : v / s;
            }
            a.set(base + r + c * lda, v);
        }
    }

    /**
     * Writes zeros to the entries of the {@code n x n} matrix at {@code off} (leading dimension {@code lda}) that lie
     * above the diagonal by 1 to {@code band} columns: one work-item per entry, {@code n x band} of them (groups of
     * {@link #THREADS}), consecutive work-items on consecutive rows of one column.
     */
    @Kernel
    public static void clearUpperBand(KernelContext ctx, DoubleArray a, int off, int lda, int n, int band) {
        int idx = ctx.globalIdx;
        int c = idx / band;
        int r = c - 1 - (idx - c * band);
        if (c < n && r >= 0) a.set(off + r + c * lda, 0);
    }

    /**
     * Copies the lower triangle of {@code rows x rows} blocks (batched) into {@code dst} and writes
     * zeros above the diagonal; {@code src == dst} with equal layout clears the upper triangle in
     * place. With {@code lowerOnly == 0} the whole {@code rows x cols} rectangle is copied; with 2 the lower
     * triangle only, the entries above it left as they are. Grid: {@code blocks} groups of {@link #THREADS} per matrix.
     */
    @Kernel
    public static void copyBlock(KernelContext ctx, DoubleArray src, int srcOff, int lds, int srcStride,
                                 DoubleArray dst, int dstOff, int ldd, int dstStride, int rows, int cols, int lowerOnly, int blocks) {
        int e = ctx.groupIdx / blocks;
        int idx = (ctx.groupIdx - e * blocks) * THREADS + ctx.localIdx;
        if (idx >= rows * cols) return;
        int r = idx % rows, c = idx / rows;
        if (lowerOnly == 2 && r < c) return;
        double v = lowerOnly != 0 && r < c ? 0 : src.get(srcOff + e * srcStride + r + c * lds);
        dst.set(dstOff + e * dstStride + r + c * ldd, v);
    }

    /**
     * Solves {@code L y = b} for one right-hand side per work-group ({@code nrhs} columns of
     * {@code b}, leading dimension {@code ldb}); {@code b} is overwritten below each solved row and
     * the solution goes to {@code y}. Column-oriented: one barrier per row.
     */
    @Kernel
    public static void forwardSolve(KernelContext ctx, DoubleArray l, int ldl, int n, DoubleArray b, DoubleArray y, int ldb) {
        int col = ctx.groupIdx * ldb;
        int lid = ctx.localIdx;
        for (int j = 0; j < n; j++) {
            double xj = b.get(col + j) / l.get(j + j * ldl);
            if (lid == 0) y.set(col + j, xj);
            for (int i = j + 1 + lid; i < n; i += THREADS) b.set(col + i, b.get(col + i) - l.get(i + j * ldl) * xj);
            ctx.globalBarrier();
        }
    }

    /** Solves {@code L^T x = y} per work-group like {@link #forwardSolve}; {@code y} is overwritten above each solved row. */
    @Kernel
    public static void backSolve(KernelContext ctx, DoubleArray l, int ldl, int n, DoubleArray y, DoubleArray x, int ldb) {
        int col = ctx.groupIdx * ldb;
        int lid = ctx.localIdx;
        for (int j = n - 1; j >= 0; j--) {
            double xj = y.get(col + j) / l.get(j + j * ldl);
            if (lid == 0) x.set(col + j, xj);
            for (int i = lid; i < j; i += THREADS) y.set(col + i, y.get(col + i) - l.get(j + i * ldl) * xj);
            ctx.globalBarrier();
        }
    }
}
