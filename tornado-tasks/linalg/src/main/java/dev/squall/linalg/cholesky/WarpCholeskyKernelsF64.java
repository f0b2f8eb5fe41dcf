package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * Batched Cholesky of matrices of order {@code n <= 64} with one sub-group (a warp) per matrix,
 * the matrix in registers and no barriers: lane {@code l} holds row {@code l} (columns 0..31, the
 * "top" row, private array {@code t}) and row {@code l + 32} (columns 0..63, the "bottom" row,
 * {@code b}). Right-looking: at step j the pivot and each {@code L(c, j)} are broadcast by a
 * shuffle from the lane that owns row c, and every lane updates its own two rows. No local memory,
 * so several matrices share a work-group ({@link #MATRICES_PER_GROUP}) and many groups an SM.
 *
 * <p>Why the rows rotate: register arrays need constant indices, but a fully unrolled 64-step
 * factorisation has 2,000 shuffles, and PoCL (which emulates a shuffle with two barriers) does not
 * finish compiling that. So the steps stay a loop and column j is always at index 0: once step j
 * has written it out, every row shifts left by one. Step j shuffles for all 63 (then 31) columns
 * after it, some of them past the matrix, because a shuffle must be reached by every lane.
 * Rows and columns past {@code n} are padded with the identity, whose factor is the identity.
 *
 * <p>The compiler generates the single-precision twin {@code WarpCholeskyKernelsF32}
 * and the typed handles on both, {@code WarpCholeskyKernels} ({@code @Fp32Variant}): {@code WarpCholeskyKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "WarpCholeskyKernelsF32", handles = "WarpCholeskyKernels")
public final class WarpCholeskyKernelsF64 {
    /** Lanes per matrix (a CUDA warp; Squall's sub-groups are 32 wide on every backend for groups of 32 or more). */
    public static final int LANES = 32;
    /** Largest order factored (two rows per lane). */
    public static final int MAX_N = 2 * LANES;
    /** Matrices (sub-groups) per work-group. */
    public static final int MATRICES_PER_GROUP = 2;
    /** Work-items per group. */
    public static final int THREADS = LANES * MATRICES_PER_GROUP;

    private WarpCholeskyKernelsF64() {
    }

    /** Element (i, c) of the matrix at {@code base} as the kernel sees it: the lower triangle, zeros above, the identity past {@code rows}. */
    @DeviceFunction
    static double padded(DoubleArray a, int base, int lda, int rows, int i, int c) {
        if (c > i) return 0;
        if (i < rows) return a.get(base + i + c * lda);
        return c == i ? 1 : 0;
    }

    /** Loads lane {@code lane}'s top row (columns 0..31) into {@code t} and its bottom row (columns 0..63) into {@code b}. */
    @DeviceFunction
    static void loadRows(DoubleArray a, int base, int lda, int rows, int lane, double[] t, double[] b) {
        for (@Unroll int c = 0; c < LANES; c++) t[c] = padded(a, base, lda, rows, lane, c);
        for (@Unroll int c = 0; c < MAX_N; c++) b[c] = padded(a, base, lda, rows, lane + LANES, c);
    }

    /** Writes column {@code j} of the factor for lane {@code lane}'s top row ({@code top}; columns from 32 on are above its diagonal, so zero) and bottom row ({@code bottom}), within the first {@code rows} rows and columns, zeros above the diagonal. */
    @DeviceFunction
    static void storeColumn(DoubleArray a, int base, int lda, int rows, int lane, int j, double top, double bottom) {
        if (j >= rows) return;
        if (lane < rows) a.set(base + lane + j * lda, j <= lane ? top : 0);
        int low = lane + LANES;
        if (low < rows) a.set(base + low + j * lda, j <= low ? bottom : 0);
    }

    /** Shifts {@code r[0..len-1]} left by one (the finished column leaves index 0). */
    @DeviceFunction
    static void shiftLeft(double[] r, int len) {
        for (@Unroll int q = 0; q < len - 1; q++) r[q] = r[q + 1];
    }

    /**
     * Factors {@code batch} matrices of order {@code n <= 64} in place (matrix {@code e} at
     * {@code aOff + e * stride}, leading dimension {@code lda}; only the lower triangle is read;
     * the factor is written with zeros above the diagonal). A pivot that is not positive (or NaN)
     * is reported as {@code atomicMin(info[infoOff + e], pivotBase + j)} for the first such j; the
     * values written for that matrix are then undefined. Grid: {@code ceil(batch / 2)} groups of
     * {@link #THREADS}.
     */
    @Kernel
    public static void potrfWarp(KernelContext ctx, DoubleArray a, int aOff, int lda, int stride, int n, int batch,
                                 IntArray info, int infoOff, int pivotBase) {
        int lane = ctx.subgroupLocalId();
        int e = ctx.groupIdx * MATRICES_PER_GROUP + ctx.localIdx / LANES;
        boolean valid = e < batch;
        // a warp past the batch factors the identity: it must still take part in every shuffle
        int rows = valid ? n : 0;
        int base = aOff + (valid ? e : 0) * stride;
        double[] t = new double[LANES];
        double[] b = new double[MAX_N];
        loadRows(a, base, lda, rows, lane, t, b);
        int failedAt = -1;
        // columns 0..31: the pivot row is lane j's top row
        for (int j = 0; j < LANES; j++) {
            double d = ctx.shuffleXor(t[0], lane ^ j);
            if (failedAt < 0 && !(d > 0)) failedAt = j;
            double s = Math.sqrt(d);
            double inv = 1 / s;
            t[0] = lane > j ? t[0] * inv : lane == j ? s : 0;
            b[0] = b[0] * inv;
            storeColumn(a, base, lda, rows, lane, j, t[0], b[0]);
            for (@Unroll int q = 1; q < LANES; q++) {
                // L(j + q, j): lane j + q's top row, or (past 31) lane j + q - 32's bottom row
                int c = j + q;
                double m = ctx.shuffleXor(c < LANES ? t[0] : b[0], lane ^ (c & (LANES - 1)));
                if (c < LANES) t[q] -= t[0] * m;
                b[q] -= b[0] * m;
            }
            for (@Unroll int q = LANES; q < MAX_N; q++) {
                int c = j + q;
                double m = ctx.shuffleXor(b[0], lane ^ (c & (LANES - 1)));
                if (c < MAX_N) b[q] -= b[0] * m;
            }
            shiftLeft(t, LANES);
            shiftLeft(b, MAX_N);
        }
        // columns 32..63: only bottom rows remain, column j at b[0]
        for (int j = LANES; j < MAX_N; j++) {
            int owner = j - LANES;
            double d = ctx.shuffleXor(b[0], lane ^ owner);
            if (failedAt < 0 && !(d > 0)) failedAt = j;
            double s = Math.sqrt(d);
            double inv = 1 / s;
            b[0] = lane > owner ? b[0] * inv : lane == owner ? s : 0;
            storeColumn(a, base, lda, rows, lane, j, 0, b[0]);
            for (@Unroll int q = 1; q < LANES; q++) {
                int c = j + q;
                double m = ctx.shuffleXor(b[0], lane ^ (c & (LANES - 1)));
                if (c < MAX_N) b[q] -= b[0] * m;
            }
            shiftLeft(b, LANES);
        }
        if (valid && failedAt >= 0 && lane == 0) ctx.atomicMin(info, infoOff + e, pivotBase + failedAt);
    }
}
