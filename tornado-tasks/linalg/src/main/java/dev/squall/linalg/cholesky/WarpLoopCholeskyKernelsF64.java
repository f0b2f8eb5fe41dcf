package dev.squall.linalg.cholesky;

import dev.squall.tasks.api.*;

/**
 * Batched Cholesky of matrices of order {@code n <= 64}, one work-group of 32 work-items (one warp)
 * per matrix, the matrix in registers and each column broadcast through local memory, the 64 steps
 * as two loops (small code, where unrolling them does not fit the instruction caches), and out of
 * place (reads {@code src}, writes {@code dst}; they may be the same array).
 *
 * <p>Lane {@code l} holds row {@code l} in {@code t} and row {@code l + 32} in {@code b}, with the
 * current column j at index 0: the rank-1 update writes its result one register to the left
 * ({@code t[q - 1] = t[q] - w A(j + q, j)}), so the rows rotate with no extra moves and every
 * register index is a constant. The inner loops always run over 31 (top) and 63 (bottom) registers;
 * the local buffer is padded with zeros past row 63, so no update is predicated.
 *
 * <p>Per step one reciprocal square root: {@code r = rsqrt(d)}, {@code 1/d = r r},
 * {@code L(i, j) = A(i, j) r}. The next pivot {@code A(j+1, j+1) - A(j+1, j)^2 / d} and its
 * {@code rsqrt} are computed one step ahead by every lane (the owner of row j + 2 shares that
 * diagonal entry through the buffer), so a step's critical path is barrier, shared load, FMA, shared
 * store. Rows and columns past {@code n} are padded with the identity.
 *
 * <p>The compiler generates the single-precision twin {@code WarpLoopCholeskyKernelsF32}
 * and the typed handles on both, {@code WarpLoopCholeskyKernels} ({@code @Fp32Variant}): {@code WarpLoopCholeskyKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "WarpLoopCholeskyKernelsF32", handles = "WarpLoopCholeskyKernels")
public final class WarpLoopCholeskyKernelsF64 {
    /** Work-items per matrix and per work-group (one CUDA warp). */
    public static final int LANES = 32;
    /** Largest order factored (two rows per work-item). */
    public static final int MAX_N = 2 * LANES;
    /** Work-items per group. */
    public static final int THREADS = LANES;
    /** Slot of the look-ahead diagonal entry in each half of the buffer (after rows 0..63 and the zero padding up to row 95). */
    static final int DIAG = MAX_N + LANES;
    /** Doubles per half of the local double buffer. */
    static final int HALF = DIAG + 2;

    private WarpLoopCholeskyKernelsF64() {
    }

    /** Element (i, c) of the matrix at {@code base}: the lower triangle, zeros above, the identity past {@code rows}. */
    @DeviceFunction
    static double padded(DoubleArray a, int base, int lda, int rows, int i, int c) {
        if (c > i) return 0;
        if (i < rows) return a.get(base + i + c * lda);
        return c == i ? 1 : 0;
    }

    /**
     * Factors {@code batch} matrices of order {@code n <= 64}: matrix {@code e} is read from
     * {@code src} at {@code srcOff + e * stride} (lower triangle only) and its factor written to
     * {@code dst} at {@code dstOff + e * stride} with zeros above the diagonal (leading dimension
     * {@code lda} for both; {@code src} and {@code dst} may be the same array with the same offset).
     * A pivot that is not positive (or NaN) is reported as
     * {@code atomicMin(info[infoOff + e], pivotBase + j)} for the first such j; the values written
     * for that matrix are then undefined. Grid: {@code batch} groups of {@link #THREADS}.
     */
    @Kernel
    public static void potrfWarpLoop(KernelContext ctx, DoubleArray src, int srcOff, DoubleArray dst, int dstOff, int lda, int stride,
                                     int n, int batch, IntArray info, int infoOff, int pivotBase) {
        // half h (h = j & 1 at step j): column j of the trailing matrix at col[h * HALF + i] (zeros for rows 64..95),
        // and A(j + 1, j + 1) as it is before step j at col[h * HALF + DIAG]
        double[] col = ctx.allocateDoubleLocalArray(2 * HALF);
        int lane = ctx.localIdx;
        int low = lane + LANES;
        int e = ctx.groupIdx;
        boolean valid = e < batch;
        int rows = valid ? n : 0;
        int in = srcOff + (valid ? e : 0) * stride;
        double[] t = new double[LANES];
        double[] b = new double[MAX_N];
        for (@Unroll int c = 0; c < LANES; c++) t[c] = padded(src, in, lda, rows, lane, c);
        for (@Unroll int c = 0; c < MAX_N; c++) b[c] = padded(src, in, lda, rows, low, c);
        col[lane] = t[0];
        col[low] = b[0];
        col[MAX_N + lane] = 0;
        col[HALF + MAX_N + lane] = 0;
        if (lane == 1) col[DIAG] = t[1];
        ctx.localBarrier();
        boolean ok = true;
        // element (lane, j) of the factor, stepped by lda
        long at = (long) dstOff + (long) (valid ? e : 0) * stride + lane;
        double d = col[0];
        double r = KernelMath.rsqrt(d);
        int cur = 0;
        // columns 0..31: column j at t[0] and b[0]
        for (int j = 0; j < LANES; j++) {
            int next = HALF - cur;
            double invD = r * r;
            double v = col[cur + j + 1];
            double dNext = col[cur + DIAG] - v * invD * v;
            double rNext = KernelMath.rsqrt(dNext);
            ok = ok && d > 0;
            double wt = t[0] * invD;
            double wb = b[0] * invD;
            if (valid && j < rows) {
                if (lane < rows) dst.set(at, lane < j ? 0 : t[0] * r);
                if (low < rows) dst.set(at + LANES, b[0] * r);
            }
            for (@Unroll int q = 1; q < LANES; q++) t[q - 1] = t[q] - wt * col[cur + j + q];
            t[LANES - 1] = 0;
            for (@Unroll int q = 1; q < MAX_N; q++) b[q - 1] = b[q] - wb * col[cur + j + q];
            b[MAX_N - 1] = 0;
            col[next + lane] = t[0];
            col[next + low] = b[0];
            if (lane == j + 2) col[next + DIAG] = t[1];
            if (low == j + 2) col[next + DIAG] = b[1];
            at += lda;
            d = dNext;
            r = rNext;
            cur = next;
            ctx.localBarrier();
        }
        // columns 32..63: only the bottom rows remain, column j at b[0]
        for (int j = LANES; j < MAX_N; j++) {
            int next = HALF - cur;
            double invD = r * r;
            double v = col[cur + j + 1];
            double dNext = col[cur + DIAG] - v * invD * v;
            double rNext = KernelMath.rsqrt(dNext);
            ok = ok && d > 0;
            double wb = b[0] * invD;
            if (valid && j < rows) {
                if (lane < rows) dst.set(at, 0);
                if (low < rows) dst.set(at + LANES, low < j ? 0 : b[0] * r);
            }
            for (@Unroll int q = 1; q < LANES; q++) b[q - 1] = b[q] - wb * col[cur + j + q];
            b[LANES - 1] = 0;
            col[next + low] = b[0];
            if (low == j + 2) col[next + DIAG] = b[1];
            at += lda;
            d = dNext;
            r = rNext;
            cur = next;
            ctx.localBarrier();
        }
        if (valid && !ok) {
            // L(j, j) = d rsqrt(d) is positive for every pivot before the first failing one and NaN at it (rsqrt of a
            // negative, zero or NaN pivot), so the smallest j whose stored diagonal is not positive is that pivot
            long out = (long) dstOff + (long) e * stride;
            if (lane < rows && !(dst.get(out + lane + (long) lane * lda) > 0)) ctx.atomicMin(info, infoOff + e, pivotBase + lane);
            if (low < rows && !(dst.get(out + low + (long) low * lda) > 0)) ctx.atomicMin(info, infoOff + e, pivotBase + low);
        }
    }
}
