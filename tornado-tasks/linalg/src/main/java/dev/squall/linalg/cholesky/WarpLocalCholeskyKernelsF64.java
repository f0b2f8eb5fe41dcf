package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * Batched Cholesky of matrices of order {@code n <= 64} with one work-group of 32 work-items (one
 * warp) per matrix, the matrix in registers and each column broadcast through local memory: lane
 * {@code l} holds row {@code l} (columns 0..31, private array {@code t}) and row {@code l + 32}
 * (columns 0..63, {@code b}).
 *
 * <p>Right-looking on the unscaled matrix ({@code A(i, c) -= A(i, j) A(c, j) / A(j, j)}, as
 * {@link CholeskyKernelsF64#potrfSmall}): at step j every lane reads column j from one half of a
 * double-buffered local buffer (the same address for every lane: a broadcast), updates the columns
 * after j of its two rows, and writes its entries of column j + 1 into the other half; one barrier
 * per step. Every lane computes the next pivot {@code A(j+1, j+1) - A(j+1, j)^2 / A(j, j)} and its
 * reciprocal during step j (the owner of row j + 2 also shares that diagonal entry), so the division
 * is off the critical path barrier - load - FMA. Column j of the factor is
 * {@code (A(i, j) / A(j, j)) sqrt(A(j, j))}, stored at step j.
 *
 * <p>The 64 steps are unrolled ({@code @Unroll}), so every register index is a constant and no
 * row moves; the kernel has no sub-group operations, so PoCL builds it with 65 barriers instead of
 * thousands (the shuffle kernel {@link WarpCholeskyKernelsF64#potrfWarp} has to rotate its rows for
 * that). Rows and columns past {@code n} are padded with the identity, whose factor is the identity.
 *
 * <p>The compiler generates the single-precision twin {@code WarpLocalCholeskyKernelsF32}
 * and the typed handles on both, {@code WarpLocalCholeskyKernels} ({@code @Fp32Variant}): {@code WarpLocalCholeskyKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "WarpLocalCholeskyKernelsF32", handles = "WarpLocalCholeskyKernels")
public final class WarpLocalCholeskyKernelsF64 {
    /** Work-items per matrix and per work-group (one CUDA warp). */
    public static final int LANES = 32;
    /** Largest order factored (two rows per work-item). */
    public static final int MAX_N = 2 * LANES;
    /** Work-items per group: one matrix per group, so a barrier waits for one warp only. */
    public static final int THREADS = LANES;
    /** Doubles per half of the local double buffer: a column and the next pivot's entry, rounded up to an even count. */
    static final int HALF = MAX_N + 2;

    private WarpLocalCholeskyKernelsF64() {
    }

    /** Element (i, c) of the matrix at {@code base} as the kernel sees it: the lower triangle, zeros above, the identity past {@code rows}. */
    @DeviceFunction
    static double padded(DoubleArray a, int base, int lda, int rows, int i, int c) {
        if (c > i) return 0;
        if (i < rows) return a.get(base + i + c * lda);
        return c == i ? 1 : 0;
    }

    /**
     * Factors {@code batch} matrices of order {@code n <= 64} in place (matrix {@code e} at
     * {@code aOff + e * stride}, leading dimension {@code lda}; only the lower triangle is read;
     * the factor is written with zeros above the diagonal). A pivot that is not positive (or NaN)
     * is reported as {@code atomicMin(info[infoOff + e], pivotBase + j)} for the first such j; the
     * values written for that matrix are then undefined. Grid: {@code batch} groups of {@link #THREADS}.
     */
    @Kernel
    public static void potrfWarpLocal(KernelContext ctx, DoubleArray a, int aOff, int lda, int stride, int n, int batch,
                                      IntArray info, int infoOff, int pivotBase) {
        // half h of the double buffer (h = j & 1 at step j): column j of the trailing matrix at col[h * HALF + i]
        // (rows i > j), and the next pivot's entry A(j + 1, j + 1), not yet updated by step j, at col[h * HALF + MAX_N]
        double[] col = ctx.allocateDoubleLocalArray(2 * HALF);
        int lane = ctx.localIdx;
        int low = lane + LANES;
        int e = ctx.groupIdx;
        boolean valid = e < batch;
        int rows = valid ? n : 0;
        int base = aOff + (valid ? e : 0) * stride;
        double[] t = new double[LANES];
        double[] b = new double[MAX_N];
        for (@Unroll int c = 0; c < LANES; c++) t[c] = padded(a, base, lda, rows, lane, c);
        for (@Unroll int c = 0; c < MAX_N; c++) b[c] = padded(a, base, lda, rows, low, c);
        col[lane] = t[0];
        col[low] = b[0];
        if (lane == 1) col[MAX_N] = t[1];
        ctx.localBarrier();
        // every pivot so far positive (and not NaN); which one failed is found afterwards from the stored diagonal
        boolean ok = true;
        // element (lane, j) of the matrix; a 64-bit index stepped by lda keeps nvcc from holding an address per column
        long at = (long) base + lane;
        // the pivot of the current step and its reciprocal, computed one step ahead by every lane
        double d = col[0];
        double invD = 1 / d;
        for (@Unroll int j = 0; j < MAX_N; j++) {
            int cur = (j & 1) * HALF;
            int next = HALF - cur;
            ok = ok && d > 0;
            // A(i, j) / A(j, j) for this lane's rows below the pivot (rows at or above it take no part)
            double wt = j < LANES && lane > j ? t[j] * invD : 0;
            double wb = low > j ? b[j] * invD : 0;
            // the next pivot A(j + 1, j + 1) - A(j + 1, j)^2 / A(j, j): its division overlaps this step's updates
            double dNext = 1;
            if (j + 1 < MAX_N) {
                double v = col[cur + j + 1];
                dNext = col[cur + MAX_N] - v * invD * v;
            }
            double invNext = 1 / dNext;
            for (@Unroll int c = 1; c < MAX_N; c++) {
                if (c > j) {
                    double v = col[cur + c];
                    if (c < LANES) t[c] -= wt * v;
                    b[c] -= wb * v;
                }
            }
            // column j + 1 into the other half (rows 0..31 have no columns from 32 on: that part is not read then),
            // and A(j + 2, j + 2) from the lane that holds it
            if (j + 1 < LANES) col[next + lane] = t[j + 1];
            if (j + 1 < MAX_N) col[next + low] = b[j + 1];
            if (j + 2 < LANES) {
                if (lane == j + 2) col[next + MAX_N] = t[j + 2];
            } else if (j + 2 < MAX_N) {
                if (low == j + 2) col[next + MAX_N] = b[j + 2];
            }
            // column j of the factor: L(i, j) = A(i, j) / sqrt(d) = w sqrt(d)
            double s = Math.sqrt(d);
            if (valid && j < rows) {
                if (lane < rows) a.set(at, lane == j ? s : wt * s);
                if (low < rows) a.set(at + LANES, low == j ? s : wb * s);
            }
            at += lda;
            d = dNext;
            invD = invNext;
            ctx.localBarrier();
        }
        if (valid && !ok) {
            // L(j, j) = sqrt(A(j, j)) is positive for every pivot before the first failing one and NaN or zero at it,
            // so the smallest j whose stored diagonal is not positive is that pivot (each lane reads back its own stores)
            if (lane < rows && !(a.get((long) base + lane + (long) lane * lda) > 0)) ctx.atomicMin(info, infoOff + e, pivotBase + lane);
            if (low < rows && !(a.get((long) base + low + (long) low * lda) > 0)) ctx.atomicMin(info, infoOff + e, pivotBase + low);
        }
    }
}
