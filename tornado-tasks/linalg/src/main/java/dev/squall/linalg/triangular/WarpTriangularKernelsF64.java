package dev.squall.linalg.triangular;

import dev.squall.tasks.api.*;

/**
 * Batched inverse of lower-triangular matrices of order {@code n <= 64} with one sub-group (a
 * warp) per matrix and no barriers or local memory: lane {@code l} holds rows {@code l} and
 * {@code l + 32} of {@code X = L^{-1}} in registers ({@code t}: columns 0..31, {@code b}: 0..63)
 * and reads its own entries of {@code L} from global memory (L1-cached, one column per step).
 * Forward substitution, right-looking: at step k, row k of {@code X} is {@code B(k, :) / L(k, k)}
 * (broadcast column by column with shuffles from the lane that owns row k), and every lane subtracts
 * {@code L(i, k) X(k, :)} from its rows i &gt; k; each row is divided by its diagonal at the end.
 * Rows 0..31 of X are zero from column 32 on, so the first 32 steps move only 32 columns.
 * Rows and columns past {@code n} are padded with the identity.
 *
 * <p>The compiler generates the single-precision twin {@code WarpTriangularKernelsF32}
 * and the typed handles on both, {@code WarpTriangularKernels} ({@code @Fp32Variant}): {@code WarpTriangularKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "WarpTriangularKernelsF32", handles = "WarpTriangularKernels")
public final class WarpTriangularKernelsF64 {
    /** Lanes per matrix (a CUDA warp). */
    public static final int LANES = 32;
    /** Largest order inverted (two rows per lane). */
    public static final int MAX_N = 2 * LANES;
    /** Matrices (sub-groups) per work-group. */
    public static final int MATRICES_PER_GROUP = 2;
    /** Work-items per group. */
    public static final int THREADS = LANES * MATRICES_PER_GROUP;

    private WarpTriangularKernelsF64() {
    }

    /** L(i, c) of the matrix at {@code base}: zero above the diagonal, the identity past {@code rows}. */
    @DeviceFunction
    static double lower(DoubleArray l, int base, int ldl, int rows, int i, int c) {
        if (c > i) return 0;
        if (i < rows) return l.get(base + i + c * ldl);
        return c == i ? 1 : 0;
    }

    /** Writes row {@code i} of X ({@code x[0..len-1]} times {@code scale}, zeros above the diagonal) into the packed matrix at {@code wBase}. */
    @DeviceFunction
    static void storeRow(DoubleArray w, int wBase, int n, int rows, int i, double[] x, int len, double scale) {
        if (i >= rows) return;
        for (@Unroll int c = 0; c < len; c++) {
            if (c < rows) w.set(wBase + i + c * n, c <= i ? x[c] * scale : 0);
        }
    }

    /**
     * Writes into {@code w} (packed, {@code n x n} per matrix, zeros above the diagonal) the inverses
     * of the lower triangles of {@code batch} matrices of {@code l} (matrix {@code e} at
     * {@code lOff + e * lStride}, leading dimension {@code ldl}; entries above the diagonal are not
     * read). Diagonals must be non-zero. Grid: {@code ceil(batch / 2)} groups of {@link #THREADS}.
     */
    @Kernel
    public static void trinvWarp(KernelContext ctx, @ReadOnly DoubleArray l, int lOff, int ldl, int lStride, DoubleArray w, int n, int batch) {
        int lane = ctx.subgroupLocalId();
        int e = ctx.groupIdx * MATRICES_PER_GROUP + ctx.localIdx / LANES;
        boolean valid = e < batch;
        // a warp past the batch inverts the identity: it must still take part in every shuffle
        int rows = valid ? n : 0;
        int base = lOff + (valid ? e : 0) * lStride;
        double[] t = new double[LANES];
        double[] b = new double[MAX_N];
        for (@Unroll int c = 0; c < LANES; c++) t[c] = c == lane ? 1 : 0;
        for (@Unroll int c = 0; c < MAX_N; c++) b[c] = c == lane + LANES ? 1 : 0;
        for (int k = 0; k < LANES; k++) {
            double inv = 1 / lower(l, base, ldl, rows, k, k);
            double lt = lane > k ? lower(l, base, ldl, rows, lane, k) : 0;
            double lb = lower(l, base, ldl, rows, lane + LANES, k);
            for (@Unroll int c = 0; c < LANES; c++) {
                double x = ctx.shuffleXor(t[c], lane ^ k) * inv;
                t[c] -= lt * x;
                b[c] -= lb * x;
            }
        }
        for (int k = LANES; k < MAX_N; k++) {
            int owner = k - LANES;
            double inv = 1 / lower(l, base, ldl, rows, k, k);
            double lb = lane > owner ? lower(l, base, ldl, rows, lane + LANES, k) : 0;
            for (@Unroll int c = 0; c < MAX_N; c++) {
                double x = ctx.shuffleXor(b[c], lane ^ owner) * inv;
                b[c] -= lb * x;
            }
        }
        if (valid) {
            int wBase = e * n * n;
            storeRow(w, wBase, n, rows, lane, t, LANES, 1 / lower(l, base, ldl, rows, lane, lane));
            // row lane (< 32) is zero from column 32 on
            if (lane < rows) {
                for (@Unroll int c = LANES; c < MAX_N; c++) {
                    if (c < rows) w.set(wBase + lane + c * n, 0);
                }
            }
            storeRow(w, wBase, n, rows, lane + LANES, b, MAX_N, 1 / lower(l, base, ldl, rows, lane + LANES, lane + LANES));
        }
    }
}
