package dev.squall.linalg.triangular;

import dev.squall.tasks.api.*;

/**
 * Batched inverse of lower-triangular matrices of order {@code n <= 64} with one work-group of 32
 * work-items (one warp) per matrix and no exchange between work-items: {@code L} is staged once in
 * local memory (the lower triangle, packed by columns, 16.6 KB) and lane {@code l} computes rows
 * {@code l} and {@code l + 32} of {@code X = L^{-1}} on its own, each by back substitution with
 * {@code L^T} ({@code x^T L = e_i^T}): for c = 63 down to 0, {@code x_c /= L(c, c)}, then
 * {@code x_k -= L(c, k) x_c} for k &lt; c. Every lane reads the same {@code L(c, k)} at the same
 * time (a broadcast); the rows stay in registers ({@code t}: columns 0..31 of row l, {@code b}:
 * columns 0..63 of row l + 32) with constant indices (the 64 steps are unrolled), and the stores of a
 * column are coalesced across the lanes. One barrier in all; the reciprocals of the diagonal are
 * taken once, two per lane. Rows and columns past {@code n} are padded with the identity.
 *
 * <p>The compiler generates the single-precision twin {@code WarpLocalTriangularKernelsF32}
 * and the typed handles on both, {@code WarpLocalTriangularKernels} ({@code @Fp32Variant}): {@code WarpLocalTriangularKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "WarpLocalTriangularKernelsF32", handles = "WarpLocalTriangularKernels")
public final class WarpLocalTriangularKernelsF64 {
    /** Work-items per matrix and per work-group (one CUDA warp). */
    public static final int LANES = 32;
    /** Largest order inverted (two rows per work-item). */
    public static final int MAX_N = 2 * LANES;
    /** Work-items per group: one matrix per group. */
    public static final int THREADS = LANES;
    /** Entries of the packed lower triangle of a 64 x 64 matrix. */
    static final int PACKED = MAX_N * (MAX_N + 1) / 2;

    private WarpLocalTriangularKernelsF64() {
    }

    /** Start of column {@code k} in the packed lower triangle (column k holds rows k..63). */
    @DeviceFunction
    static int column(int k) {
        return k * MAX_N - k * (k - 1) / 2;
    }

    /** L(i, c) of the matrix at {@code base} for {@code c <= i}: the identity past {@code rows}. */
    @DeviceFunction
    static double lower(DoubleArray l, int base, int ldl, int rows, int i, int c) {
        if (i < rows) return l.get(base + i + c * ldl);
        return c == i ? 1 : 0;
    }

    /**
     * Writes into {@code w} (packed, {@code n x n} per matrix, zeros above the diagonal) the inverses
     * of the lower triangles of {@code batch} matrices of {@code l} (matrix {@code e} at
     * {@code lOff + e * lStride}, leading dimension {@code ldl}; entries above the diagonal are not
     * read). Diagonals must be non-zero. Grid: {@code batch} groups of {@link #THREADS}.
     */
    @Kernel
    public static void trinvWarpLocal(KernelContext ctx, @ReadOnly DoubleArray l, int lOff, int ldl, int lStride, DoubleArray w, int n, int batch) {
        // L packed by columns, then 1 / L(i, i)
        double[] lp = ctx.allocateDoubleLocalArray(PACKED + MAX_N);
        int lane = ctx.localIdx;
        int low = lane + LANES;
        int e = ctx.groupIdx;
        boolean valid = e < batch;
        int rows = valid ? n : 0;
        int base = lOff + (valid ? e : 0) * lStride;
        for (@Unroll int c = 0; c < MAX_N; c++) {
            if (c < LANES && lane >= c) lp[column(c) + lane - c] = lower(l, base, ldl, rows, lane, c);
            if (low >= c) lp[column(c) + low - c] = lower(l, base, ldl, rows, low, c);
        }
        lp[PACKED + lane] = 1 / lower(l, base, ldl, rows, lane, lane);
        lp[PACKED + low] = 1 / lower(l, base, ldl, rows, low, low);
        ctx.localBarrier();
        // rows lane (columns 0..31: it is zero from column 32 on) and lane + 32 of X, starting as rows of I
        double[] t = new double[LANES];
        double[] b = new double[MAX_N];
        for (@Unroll int c = 0; c < LANES; c++) t[c] = c == lane ? 1 : 0;
        for (@Unroll int c = 0; c < MAX_N; c++) b[c] = c == low ? 1 : 0;
        for (@Unroll int c = MAX_N - 1; c >= 0; c--) {
            double inv = lp[PACKED + c];
            if (c < LANES) t[c] *= inv;
            b[c] *= inv;
            for (@Unroll int k = 0; k < MAX_N - 1; k++) {
                if (k < c) {
                    double lck = lp[column(k) + c - k];
                    if (c < LANES) t[k] -= lck * t[c];
                    b[k] -= lck * b[c];
                }
            }
        }
        if (valid) {
            int wBase = e * n * n;
            long at = (long) wBase + lane;
            // one column of X per store: lanes write consecutive rows; a 64-bit index stepped by n
            for (@Unroll int c = 0; c < MAX_N; c++) {
                if (c < rows) {
                    if (lane < rows) w.set(at, c < LANES && c <= lane ? t[c] : 0);
                    if (low < rows) w.set(at + LANES, c <= low ? b[c] : 0);
                }
                at += n;
            }
        }
    }
}
