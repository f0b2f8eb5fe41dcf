package dev.squall.linalg.svd;

import dev.squall.tasks.api.*;

/**
 * Batched one-sided Jacobi SVD in double precision (Hestenes' method; rotation formulas of
 * Demmel and Veselić, "Jacobi's method is more accurate than QR", SIAM J. Matrix Anal. Appl.
 * 13(4), 1992), one work-group of {@link #THREADS} per matrix.
 *
 * <p>Pairs of columns {@code (p, q)} of the working copy {@code W} (initially A) are rotated until
 * every pair is numerically orthogonal; the same rotations applied to {@code V} (initially I)
 * give {@code A = W V^T}, so {@code sigma_j = ||w_j||} and {@code u_j = w_j / sigma_j}. Each round
 * rotates {@code n/2} disjoint pairs at once in the round-robin ("circle") order, so every pair
 * meets once per sweep of {@code n - 1} rounds. {@code W} and {@code V} live in a global
 * workspace (a 128 x 64 block is more than CUDA's 48 KiB of static shared memory).
 *
 * <p>The compiler generates the single-precision twin {@code SvdKernelsF32} from this class
 * and the typed handles on both, {@code SvdKernels} ({@code @Fp32Variant}): {@code SvdKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "SvdKernelsF32", handles = "SvdKernels")
public final class SvdKernelsF64 {
    /** Work-items per group. */
    public static final int THREADS = 256;
    /** Most columns a matrix may have. */
    public static final int MAX_N = 64;

    private SvdKernelsF64() {
    }

    /**
     * SVD of every {@code m x n} matrix {@code A_e} ({@code m >= n}, packed column-major at
     * {@code e * m * n}): {@code u} ({@code m x n} per matrix), {@code s} ({@code n}),
     * {@code v} ({@code n x n}) in descending order of {@code s}, and in {@code rank[e]} the number
     * of singular values above {@code relTol * s_max}. Columns of {@code U} whose singular value is
     * 0 are written as zeros. {@code work} holds {@code m * n + n * n} elements per matrix.
     * A pair is rotated while {@code |w_p . w_q| > tol ||w_p|| ||w_q||}; at most {@code maxSweeps}
     * sweeps run, and {@code sweeps[e]} tells how many did (more than {@code maxSweeps} means
     * no convergence). Grid: one group of {@link #THREADS} per matrix.
     */
    @Kernel
    public static void gesvj(KernelContext ctx, @ReadOnly DoubleArray a, int m, int n, DoubleArray work,
                             DoubleArray u, DoubleArray s, DoubleArray v, IntArray rank, IntArray sweeps,
                             double tol, double relTol, int maxSweeps) {
        double[] pa = ctx.allocateDoubleLocalArray(THREADS);
        double[] pb = ctx.allocateDoubleLocalArray(THREADS);
        double[] pg = ctx.allocateDoubleLocalArray(THREADS);
        double[] cs = ctx.allocateDoubleLocalArray(MAX_N);
        double[] sn = ctx.allocateDoubleLocalArray(MAX_N);
        int[] flag = ctx.allocateIntLocalArray(2);
        int[] perm = ctx.allocateIntLocalArray(MAX_N);
        int e = ctx.groupIdx;
        int lid = ctx.localIdx;
        int mn = m * n;
        int rows = m + n;  // W stacked on V: a rotation updates both alike
        int wb = e * (mn + n * n);
        int ab = e * mn;
        for (int idx = lid; idx < mn; idx += THREADS) work.set(wb + idx, a.get(ab + idx));
        for (int idx = lid; idx < n * n; idx += THREADS) work.set(wb + mn + idx, idx % n == idx / n ? 1 : 0);
        ctx.localBarrier();
        int players = n + (n & 1);  // an odd n gets a dummy column that sits out
        int pairs = players / 2;
        int lanes = THREADS;
        while (lanes * pairs > THREADS) lanes >>= 1;
        int pair = lid / lanes, lane = lid % lanes;
        int sweep = 0;
        int rotated = 1;
        while (rotated != 0 && sweep < maxSweeps) {
            if (lid == 0) flag[0] = 0;
            for (int round = 0; round < players - 1; round++) {
                // circle method: player players-1 stays, the others turn by one place per round
                int p = -1, q = -1;
                if (pair < pairs) {
                    if (pair == 0) {
                        p = round;
                        q = players - 1;
                    } else {
                        p = (round + pair) % (players - 1);
                        q = (round - pair + players - 1) % (players - 1);
                    }
                    if (p > q) {
                        int t = p;
                        p = q;
                        q = t;
                    }
                }
                boolean real = pair < pairs && q < n;
                double al = 0, be = 0, ga = 0;
                if (real) {
                    int cp = wb + p * m, cq = wb + q * m;
                    for (int i = lane; i < m; i += lanes) {
                        double x = work.get(cp + i), y = work.get(cq + i);
                        al += x * x;
                        be += y * y;
                        ga += x * y;
                    }
                }
                pa[lid] = al;
                pb[lid] = be;
                pg[lid] = ga;
                ctx.localBarrier();
                for (int h = lanes / 2; h > 0; h >>= 1) {
                    if (lane < h) {
                        pa[lid] += pa[lid + h];
                        pb[lid] += pb[lid + h];
                        pg[lid] += pg[lid + h];
                    }
                    ctx.localBarrier();
                }
                if (lane == 0 && pair < pairs) {
                    double alpha = pa[lid], beta = pb[lid], gamma = pg[lid];
                    double c = 1, sv = 0;
                    if (real && Math.abs(gamma) > tol * Math.sqrt(alpha) * Math.sqrt(beta)) {
                        double zeta = (beta - alpha) / (2 * gamma);
                        double t = Math.copySign(1, zeta) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
                        c = 1 / Math.sqrt(1 + t * t);
                        sv = c * t;
                        flag[0] = 1;
                    }
                    cs[pair] = c;
                    sn[pair] = sv;
                }
                ctx.localBarrier();
                for (int idx = lid; idx < rows * pairs; idx += THREADS) {
                    int pr = idx / rows, i = idx % rows;
                    double c = cs[pr], sv = sn[pr];
                    if (sv != 0) {
                        int pp = pr == 0 ? round : (round + pr) % (players - 1);
                        int qq = pr == 0 ? players - 1 : (round - pr + players - 1) % (players - 1);
                        int lo = Math.min(pp, qq), hi = Math.max(pp, qq);
                        int ip = i < m ? wb + lo * m + i : wb + mn + lo * n + (i - m);
                        int iq = i < m ? wb + hi * m + i : wb + mn + hi * n + (i - m);
                        double x = work.get(ip), y = work.get(iq);
                        work.set(ip, c * x - sv * y);
                        work.set(iq, sv * x + c * y);
                    }
                }
                ctx.localBarrier();
            }
            sweep++;
            rotated = flag[0];
            ctx.localBarrier();
        }
        // sigma_j = ||w_j||: lanes2 work-items per column
        int lanes2 = THREADS;
        while (lanes2 * n > THREADS) lanes2 >>= 1;
        int colOf = lid / lanes2, lane2 = lid % lanes2;
        double ss = 0;
        if (colOf < n) {
            for (int i = lane2; i < m; i += lanes2) {
                double x = work.get(wb + colOf * m + i);
                ss += x * x;
            }
        }
        pa[lid] = ss;
        ctx.localBarrier();
        for (int h = lanes2 / 2; h > 0; h >>= 1) {
            if (lane2 < h) pa[lid] += pa[lid + h];
            ctx.localBarrier();
        }
        if (lane2 == 0 && colOf < n) cs[colOf] = Math.sqrt(pa[lid]);
        ctx.localBarrier();
        // descending order; ties keep column order
        if (lid < n) {
            double mine = cs[lid];
            int r = 0;
            for (int j = 0; j < n; j++) {
                double o = cs[j];
                if (o > mine || o == mine && j < lid) r++;
            }
            perm[r] = lid;
        }
        ctx.localBarrier();
        double smax = cs[perm[0]];
        if (lid == 0) {
            int kept = 0;
            for (int j = 0; j < n; j++) if (smax > 0 && cs[j] > relTol * smax) kept++;
            rank.set(e, kept);
            sweeps.set(e, rotated != 0 ? sweep + 1 : sweep);
        }
        if (lid < n) s.set(e * n + lid, cs[perm[lid]]);
        for (int idx = lid; idx < mn; idx += THREADS) {
            int i = idx % m, r = idx / m;
            int src = perm[r];
            double sig = cs[src];
            u.set(ab + idx, sig > 0 ? work.get(wb + src * m + i) / sig : 0);
        }
        for (int idx = lid; idx < n * n; idx += THREADS) {
            int i = idx % n, r = idx / n;
            v.set(e * n * n + idx, work.get(wb + mn + perm[r] * n + i));
        }
    }
}
