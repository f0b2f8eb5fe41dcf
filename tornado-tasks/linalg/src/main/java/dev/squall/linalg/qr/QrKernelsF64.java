package dev.squall.linalg.qr;

import dev.squall.tasks.api.*;

/**
 * Batched Householder QR kernels in double precision, one work-group of {@link #THREADS} per
 * matrix. The matrix stays in global memory (a 128 x 64 block is 64 KiB, more than CUDA's 48 KiB
 * of static shared memory); local memory holds only the partial sums of each step.
 *
 * <p>Reflectors follow LAPACK's {@code dgeqr2}/{@code dlarfg} convention (Golub and Van Loan,
 * Matrix Computations, 4th ed., section 5.1): {@code H_j = I - tau_j v_j v_j^T} with
 * {@code v_j(j) = 1} implicit and {@code v_j(j+1:m)} stored below the diagonal of column j.
 *
 * <p>The compiler generates the single-precision twin {@code QrKernelsF32} from this class
 * and the typed handles on both, {@code QrKernels} ({@code @Fp32Variant}): {@code QrKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "QrKernelsF32", handles = "QrKernels")
public final class QrKernelsF64 {
    /** Work-items per group. */
    public static final int THREADS = 256;
    /** Lanes that share one column's dot product (a warp on CUDA, so its reads coalesce). */
    public static final int LANES = 32;
    /** Teams of {@link #LANES} work-items. */
    public static final int TEAMS = THREADS / LANES;
    /** Most columns a matrix may have (the per-column partial sums live in local memory). */
    public static final int MAX_N = 64;

    private QrKernelsF64() {
    }

    /**
     * Applies {@code H_j = I - tau_j v_j v_j^T} from the left to {@code cols} columns of {@code t}
     * (column {@code c0 + c} at {@code tOff + (c0 + c) * ldt}), rows j to m - 1, where {@code v_j}
     * is stored below the diagonal of column j at {@code col} in {@code a} ({@code v_j(j) = 1}).
     * Each team of {@link #LANES} work-items forms one column's dot product (coalesced reads),
     * then all update {@code T -= v (tau v^T T)}. Used by {@link #geqrf} on the trailing columns
     * of A and by {@link #orgqr} on Q. Call from code every work-item reaches (it has barriers).
     */
    @DeviceFunction
    static void applyReflector(KernelContext ctx, DoubleArray a, int col, int j, int m, double tj,
                               DoubleArray t, int tOff, int ldt, int c0, int cols, double[] dots, double[] w) {
        int lid = ctx.localIdx;
        int lane = lid % LANES, team = lid / LANES;
        for (int c = team; c < cols; c += TEAMS) {
            int cc = tOff + (c0 + c) * ldt;
            double d = lane == 0 ? t.get(cc + j) : 0;
            for (int i = j + 1 + lane; i < m; i += LANES) d += a.get(col + i) * t.get(cc + i);
            dots[c * LANES + lane] = d;
        }
        ctx.localBarrier();
        if (lid < cols) {
            double d = 0;
            for (int q = 0; q < LANES; q++) d += dots[lid * LANES + q];
            w[lid] = tj * d;
        }
        ctx.localBarrier();
        int rows = m - j;
        for (int idx = lid; idx < rows * cols; idx += THREADS) {
            int r = j + idx % rows, c = idx / rows;
            double v = r == j ? 1 : a.get(col + r);
            int at = tOff + r + (c0 + c) * ldt;
            t.set(at, t.get(at) - v * w[c]);
        }
    }

    /**
     * Factors {@code A_e = Q_e R_e} in place for every matrix {@code e} (at {@code aOff + e * stride},
     * leading dimension {@code lda}, {@code m x n}): {@code R} on and above the diagonal, the
     * reflectors below it, {@code tau_e(j)} at {@code tau[e * min(m, n) + j]}.
     * Grid: one group of {@link #THREADS} per matrix.
     */
    @Kernel
    public static void geqrf(KernelContext ctx, DoubleArray a, int aOff, int lda, int stride, int m, int n, DoubleArray tau) {
        double[] part = ctx.allocateDoubleLocalArray(THREADS);
        double[] dots = ctx.allocateDoubleLocalArray(MAX_N * LANES);
        double[] w = ctx.allocateDoubleLocalArray(MAX_N);
        int e = ctx.groupIdx;
        int lid = ctx.localIdx;
        int base = aOff + e * stride;
        int steps = Math.min(m, n);
        for (int j = 0; j < steps; j++) {
            int col = base + j * lda;
            // every work-item reads the pivot before the barrier after which work-item 0 overwrites it
            double alpha = a.get(col + j);
            double s = 0;
            for (int i = j + 1 + lid; i < m; i += THREADS) {
                double x = a.get(col + i);
                s += x * x;
            }
            part[lid] = s;
            ctx.localBarrier();
            if (lid < LANES) {
                double t = 0;
                for (int q = lid; q < THREADS; q += LANES) t += part[q];
                w[lid] = t;
            }
            ctx.localBarrier();
            double xnorm2 = 0;
            for (int q = 0; q < LANES; q++) xnorm2 += w[q];
            // dlarfg: beta = -sign(alpha) ||x||, tau = (beta - alpha) / beta, v = x / (alpha - beta)
            double beta = alpha, tj = 0, scale = 0;
            if (xnorm2 > 0) {
                beta = -Math.copySign(Math.sqrt(alpha * alpha + xnorm2), alpha);
                tj = (beta - alpha) / beta;
                scale = 1 / (alpha - beta);
            }
            for (int i = j + 1 + lid; i < m; i += THREADS) a.set(col + i, a.get(col + i) * scale);
            ctx.localBarrier();
            applyReflector(ctx, a, col, j, m, tj, a, base, lda, j + 1, n - j - 1, dots, w);
            if (lid == 0) {
                a.set(col + j, beta);
                tau.set(e * steps + j, tj);
            }
            ctx.localBarrier();
        }
    }

    /**
     * Forms the thin {@code Q_e} ({@code m x min(m, n)}, at {@code e * qStride} in {@code q},
     * leading dimension {@code ldq}) from the reflectors {@link #geqrf} left in {@code a} and
     * {@code tau}, by backward accumulation {@code Q = H_0 (H_1 (... (H_{k-1} [I; 0])))}, where
     * step j touches only rows and columns j and beyond. Grid: one group per matrix.
     */
    @Kernel
    public static void orgqr(KernelContext ctx, DoubleArray a, int aOff, int lda, int stride, int m, int n, DoubleArray tau,
                             DoubleArray q, int ldq, int qStride) {
        double[] dots = ctx.allocateDoubleLocalArray(MAX_N * LANES);
        double[] w = ctx.allocateDoubleLocalArray(MAX_N);
        int e = ctx.groupIdx;
        int lid = ctx.localIdx;
        int base = aOff + e * stride;
        int k = Math.min(m, n);
        int qb = e * qStride;
        for (int idx = lid; idx < m * k; idx += THREADS) {
            int r = idx % m, c = idx / m;
            q.set(qb + r + c * ldq, r == c ? 1 : 0);
        }
        ctx.localBarrier();
        for (int j = k - 1; j >= 0; j--) {
            int col = base + j * lda;
            double tj = tau.get(e * k + j);
            applyReflector(ctx, a, col, j, m, tj, q, qb, ldq, j, k - j, dots, w);
            ctx.localBarrier();
        }
    }
}
