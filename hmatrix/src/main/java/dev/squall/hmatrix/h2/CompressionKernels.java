package dev.squall.hmatrix.h2;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.Parallel;

/**
 * The batched kernels of H2 recompression on the device ({@link DeviceCompression}): packing tree quantities into the
 * column-major batches of linalg's batched QR and SVD, unpacking their results into bases, transfers and per-node
 * factors, and the small per-node products (stacked children, Gram matrices of block rows and columns). Every kernel
 * covers one tree level (or all leaves) in one launch, one work-item per output entry, 64-bit offsets throughout.
 *
 * <p>Layouts: batches are column-major {@code m x n} per matrix, matrix {@code e} at {@code e m n}; per-node factors
 * ({@code R}, {@code T}) and transfers are row-major at node-indexed offsets ({@code fOff[t]}, {@code eOff[c]}); the
 * leaf basis is row-major {@code size x k} in tree order; coupling blocks are column-major {@code k_t x k_s} at
 * {@code sOff[b]}.
 */
public final class CompressionKernels {
    /** Work-items per group of {@link #jacobiSvd}. */
    public static final int JACOBI_THREADS = 256;
    /** Most rows of a matrix {@link #jacobiSvd} decomposes. */
    public static final int JACOBI_MAX_M = 128;
    /** Most columns of a matrix {@link #jacobiSvd} decomposes. */
    public static final int JACOBI_MAX_N = 64;
    /** Pivoted Cholesky of a Gram matrix stops at a pivot below this fraction of its largest diagonal entry (rounding noise). */
    public static final double CHOLESKY_FLOOR = 1e-28;

    private CompressionKernels() {
    }

    /** Work-items per group of {@link #projectCouplings}. */
    public static final int PROJECT_THREADS = 256;
    /** Most rows and columns of a coupling block and of a projection factor in {@link #projectCouplings}. */
    public static final int PROJECT_MAX = 64;

    /**
     * The projection of coupling blocks onto new bases, {@code S'_b = A_t S_b B_s^T} for the blocks
     * {@code b = firstBlock + group} between row node {@code t = row[b]} and column node {@code s = col[b]}, one group
     * of {@link #PROJECT_THREADS} per block: {@code S_b} column-major {@code k_t x k_s} at {@code sOff[b]} ({@code k_t =
     * rowRank[t]}, {@code k_s = colRank[s]}), {@code A_t} row-major {@code a_t x k_t} at {@code leftOff[t]}
     * ({@code a_t = leftRows[t]}), {@code B_s} row-major {@code a_s x k_s} at {@code rightOff[s]}, the result
     * column-major {@code a_t x a_s} at {@code outOff[b]}; every size at most {@link #PROJECT_MAX}, so ranks may differ
     * from node to node. {@code S_b} and {@code A_t} are staged in local memory, {@code W = A_t S_b} is kept there in
     * place of {@code S_b}, {@code B_s} in place of {@code A_t}; each work-item sums a 4 x 4 tile of {@code W}, then
     * of {@code S'} (rows 16 apart, so a sub-group's loads fall in different banks or are one broadcast, and its
     * stores are runs of 16 consecutive rows). 64-bit offsets throughout: no copies into int-indexed chunks.
     */
    @Kernel
    public static void projectCouplings(KernelContext ctx, DoubleArray left, LongArray leftOff, IntArray leftRows, IntArray rowRank,
            DoubleArray right, LongArray rightOff, IntArray rightRows, IntArray colRank, DoubleArray s, LongArray sOff, IntArray row,
            IntArray col, DoubleArray out, LongArray outOff, int firstBlock) {
        double[] x = ctx.allocateDoubleLocalArray(PROJECT_MAX * (PROJECT_MAX + 1));
        double[] y = ctx.allocateDoubleLocalArray(PROJECT_MAX * (PROJECT_MAX + 1));
        double[] acc = new double[16];
        int b = firstBlock + ctx.groupIdx;
        int lid = ctx.localIdx;
        int t = row.get(b);
        int c = col.get(b);
        int at = leftRows.get(t);
        int kt = rowRank.get(t);
        int as = rightRows.get(c);
        int ks = colRank.get(c);
        long so = sOff.get(b);
        long lo = leftOff.get(t);
        long ro = rightOff.get(c);
        long oo = outOff.get(b);
        int ld = PROJECT_MAX + 1;
        // S_b: x[j ld + p] = S[p, j]; A_t: y[i ld + p] = A[i, p]
        for (int idx = lid; idx < kt * ks; idx += PROJECT_THREADS) {
            x[(idx / kt) * ld + idx % kt] = s.get(so + idx);
        }
        for (int idx = lid; idx < at * kt; idx += PROJECT_THREADS) {
            y[(idx / kt) * ld + idx % kt] = left.get(lo + idx);
        }
        ctx.localBarrier();
        int ti = lid & 15;
        int tj = lid >> 4;
        for (int q = 0; q < 16; q++) {
            acc[q] = 0.0;
        }
        for (int p = 0; p < kt; p++) {
            double a0 = y[ti * ld + p];
            double a1 = y[(ti + 16) * ld + p];
            double a2 = y[(ti + 32) * ld + p];
            double a3 = y[(ti + 48) * ld + p];
            double b0 = x[tj * ld + p];
            double b1 = x[(tj + 16) * ld + p];
            double b2 = x[(tj + 32) * ld + p];
            double b3 = x[(tj + 48) * ld + p];
            acc[0] += a0 * b0;
            acc[1] += a0 * b1;
            acc[2] += a0 * b2;
            acc[3] += a0 * b3;
            acc[4] += a1 * b0;
            acc[5] += a1 * b1;
            acc[6] += a1 * b2;
            acc[7] += a1 * b3;
            acc[8] += a2 * b0;
            acc[9] += a2 * b1;
            acc[10] += a2 * b2;
            acc[11] += a2 * b3;
            acc[12] += a3 * b0;
            acc[13] += a3 * b1;
            acc[14] += a3 * b2;
            acc[15] += a3 * b3;
        }
        ctx.localBarrier();
        // W = A_t S_b: x[j ld + i] = W[i, j]; B_s: y[j ld + q] = B[j, q]
        for (int u = 0; u < 4; u++) {
            for (int v = 0; v < 4; v++) {
                int i = ti + 16 * u;
                int j = tj + 16 * v;
                if (i < at && j < ks) {
                    x[j * ld + i] = acc[4 * u + v];
                }
            }
        }
        for (int idx = lid; idx < as * ks; idx += PROJECT_THREADS) {
            y[(idx / ks) * ld + idx % ks] = right.get(ro + idx);
        }
        ctx.localBarrier();
        for (int q = 0; q < 16; q++) {
            acc[q] = 0.0;
        }
        for (int p = 0; p < ks; p++) {
            double w0 = x[p * ld + ti];
            double w1 = x[p * ld + ti + 16];
            double w2 = x[p * ld + ti + 32];
            double w3 = x[p * ld + ti + 48];
            double b0 = y[tj * ld + p];
            double b1 = y[(tj + 16) * ld + p];
            double b2 = y[(tj + 32) * ld + p];
            double b3 = y[(tj + 48) * ld + p];
            acc[0] += w0 * b0;
            acc[1] += w0 * b1;
            acc[2] += w0 * b2;
            acc[3] += w0 * b3;
            acc[4] += w1 * b0;
            acc[5] += w1 * b1;
            acc[6] += w1 * b2;
            acc[7] += w1 * b3;
            acc[8] += w2 * b0;
            acc[9] += w2 * b1;
            acc[10] += w2 * b2;
            acc[11] += w2 * b3;
            acc[12] += w3 * b0;
            acc[13] += w3 * b1;
            acc[14] += w3 * b2;
            acc[15] += w3 * b3;
        }
        for (int u = 0; u < 4; u++) {
            for (int v = 0; v < 4; v++) {
                int i = ti + 16 * u;
                int j = tj + 16 * v;
                if (i < at && j < as) {
                    out.set(oo + (long) j * at + i, acc[4 * u + v]);
                }
            }
        }
    }

    /**
     * Thin SVD of each column-major {@code m x n} matrix {@code A_e} ({@code m <= 128}, {@code n <= 64}, at
     * {@code e m n}) by one-sided Jacobi in local memory, one group of {@link #JACOBI_THREADS} per matrix: columns
     * {@code (p, q)} of the working copy {@code W} are rotated in the round-robin order until every pair is
     * orthogonal ({@code |w_p . w_q| <= tol ||w_p|| ||w_q||}), then {@code sigma_j = ||w_j||}, {@code u_j = w_j / sigma_j}
     * (zero for {@code sigma_j = 0}), in descending order; {@code V} is not formed. Rotation formulas of Demmel and
     * Veselić ("Jacobi's method is more accurate than QR", SIAM J. Matrix Anal. Appl. 13(4), 1992).
     *
     * <p>With {@code gram = 1}, {@code A} is a symmetric positive semi-definite {@code n x n} matrix ({@code m = n})
     * whose eigen-decomposition is wanted: it is first factored by pivoted Cholesky, {@code P^T A P = L L^T} (stopping
     * at pivots below {@link #CHOLESKY_FLOOR} of the largest diagonal entry), and the Jacobi rotations run on the columns
     * of {@code L}, whose left singular vectors, rows permuted back, are {@code A}'s eigenvectors and whose squared
     * singular values its eigenvalues ({@code s} holds the eigenvalues). The Cholesky factor is the triangular factor
     * of a pivoted QR of {@code A}'s square root, on which Jacobi needs a few sweeps (Drmač and Veselić, "New fast and
     * accurate Jacobi SVD algorithm I", SIAM J. Matrix Anal. Appl. 29(4), 2008), where the Gram matrix itself takes
     * 20 to 30. {@code sweeps[e]} counts the sweeps (more than {@code maxSweeps} means no convergence). {@code a} is
     * not modified.
     */
    @Kernel
    public static void jacobiSvd(KernelContext ctx, DoubleArray a, int m, int n, int gram, DoubleArray u, DoubleArray s, IntArray sweeps,
            double tol, int maxSweeps) {
        double[] w = ctx.allocateDoubleLocalArray(JACOBI_MAX_N * (JACOBI_MAX_M + 1));
        double[] pa = ctx.allocateDoubleLocalArray(JACOBI_THREADS);
        double[] pb = ctx.allocateDoubleLocalArray(JACOBI_THREADS);
        double[] pg = ctx.allocateDoubleLocalArray(JACOBI_THREADS);
        double[] cs = ctx.allocateDoubleLocalArray(JACOBI_MAX_N);
        double[] sn = ctx.allocateDoubleLocalArray(JACOBI_MAX_N);
        int[] rowOf = ctx.allocateIntLocalArray(JACOBI_MAX_N);
        int[] order = ctx.allocateIntLocalArray(JACOBI_MAX_N);
        int[] flag = ctx.allocateIntLocalArray(2);
        int e = ctx.groupIdx;
        int lid = ctx.localIdx;
        int ld = m | 1; // an odd column stride: the columns of a round's pairs fall in different banks
        long ab = (long) e * m * n;
        for (int idx = lid; idx < m * n; idx += JACOBI_THREADS) {
            w[(idx / m) * ld + idx % m] = a.get(ab + idx);
        }
        if (lid < n) {
            rowOf[lid] = lid;
        }
        ctx.localBarrier();
        if (gram == 1) {
            double d0 = 0;
            for (int i = 0; i < n; i++) {
                d0 = Math.max(d0, w[i * ld + i]);
            }
            int k = 0;
            int live = 1;
            while (k < n && live == 1) {
                int piv = k;
                double best = w[k * ld + k];
                for (int i = k + 1; i < n; i++) {
                    double d = w[i * ld + i];
                    if (d > best) {
                        best = d;
                        piv = i;
                    }
                }
                ctx.localBarrier();
                if (best > CHOLESKY_FLOOR * d0) {
                    if (piv != k) {
                        for (int i = lid; i < n; i += JACOBI_THREADS) {
                            double t = w[k * ld + i];
                            w[k * ld + i] = w[piv * ld + i];
                            w[piv * ld + i] = t;
                        }
                        ctx.localBarrier();
                        for (int j = lid; j < n; j += JACOBI_THREADS) {
                            double t = w[j * ld + k];
                            w[j * ld + k] = w[j * ld + piv];
                            w[j * ld + piv] = t;
                        }
                        if (lid == 0) {
                            int t = rowOf[k];
                            rowOf[k] = rowOf[piv];
                            rowOf[piv] = t;
                        }
                        ctx.localBarrier();
                    }
                    double lkk = Math.sqrt(best);
                    for (int i = k + 1 + lid; i < n; i += JACOBI_THREADS) {
                        w[k * ld + i] = w[k * ld + i] / lkk;
                    }
                    ctx.localBarrier();
                    int t = n - k - 1;
                    for (int idx = lid; idx < t * t; idx += JACOBI_THREADS) {
                        int i = k + 1 + idx % t;
                        int j = k + 1 + idx / t;
                        w[j * ld + i] = w[j * ld + i] - w[k * ld + i] * w[k * ld + j];
                    }
                    if (lid == 0) {
                        w[k * ld + k] = lkk;
                    }
                    ctx.localBarrier();
                    k++;
                } else {
                    live = 0;
                }
            }
            // L: the lower triangle of the first k columns; the rest is zero
            for (int idx = lid; idx < n * n; idx += JACOBI_THREADS) {
                int i = idx % n;
                int j = idx / n;
                if (i < j || j >= k) {
                    w[j * ld + i] = 0.0;
                }
            }
            ctx.localBarrier();
        }
        int players = n + (n & 1); // an odd n gets a dummy column that sits out
        int pairs = players / 2;
        int lanes = JACOBI_THREADS;
        while (lanes * pairs > JACOBI_THREADS) {
            lanes >>= 1;
        }
        int pair = lid / lanes;
        int lane = lid % lanes;
        int sweep = 0;
        int rotated = 1;
        while (rotated != 0 && sweep < maxSweeps) {
            if (lid == 0) {
                flag[0] = 0;
            }
            for (int round = 0; round < players - 1; round++) {
                // circle method: player players-1 stays, the others turn by one place per round
                int p = 0;
                int q = 0;
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
                double al = 0;
                double be = 0;
                double ga = 0;
                if (real) {
                    for (int i = lane; i < m; i += lanes) {
                        double x = w[p * ld + i];
                        double y = w[q * ld + i];
                        al += x * x;
                        be += y * y;
                        ga += x * y;
                    }
                }
                pa[lid] = al;
                pb[lid] = be;
                pg[lid] = ga;
                ctx.localBarrier();
                if (lane == 0 && pair < pairs) {
                    double alpha = 0;
                    double beta = 0;
                    double gamma = 0;
                    for (int h = 0; h < lanes; h++) {
                        alpha += pa[lid + h];
                        beta += pb[lid + h];
                        gamma += pg[lid + h];
                    }
                    double c = 1;
                    double sv = 0;
                    if (real && Math.abs(gamma) > tol * Math.sqrt(alpha) * Math.sqrt(beta)) {
                        double zeta = (beta - alpha) / (2 * gamma);
                        double t = Math.copySign(1.0, zeta) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
                        c = 1 / Math.sqrt(1 + t * t);
                        sv = c * t;
                        flag[0] = 1;
                    }
                    cs[pair] = c;
                    sn[pair] = sv;
                }
                ctx.localBarrier();
                if (real) {
                    double c = cs[pair];
                    double sv = sn[pair];
                    if (sv != 0) {
                        for (int i = lane; i < m; i += lanes) {
                            double x = w[p * ld + i];
                            double y = w[q * ld + i];
                            w[p * ld + i] = c * x - sv * y;
                            w[q * ld + i] = sv * x + c * y;
                        }
                    }
                }
                ctx.localBarrier();
            }
            sweep++;
            rotated = flag[0];
            ctx.localBarrier();
        }
        // sigma_j = ||w_j||, lanes2 work-items per column
        int lanes2 = JACOBI_THREADS;
        while (lanes2 * n > JACOBI_THREADS) {
            lanes2 >>= 1;
        }
        int colOf = lid / lanes2;
        int lane2 = lid % lanes2;
        double ss = 0;
        if (colOf < n) {
            for (int i = lane2; i < m; i += lanes2) {
                double x = w[colOf * ld + i];
                ss += x * x;
            }
        }
        pa[lid] = ss;
        ctx.localBarrier();
        if (lane2 == 0 && colOf < n) {
            double t = 0;
            for (int h = 0; h < lanes2; h++) {
                t += pa[lid + h];
            }
            cs[colOf] = Math.sqrt(t);
        }
        ctx.localBarrier();
        // descending order; ties keep column order
        if (lid < n) {
            double mine = cs[lid];
            int r = 0;
            for (int j = 0; j < n; j++) {
                double o = cs[j];
                if (o > mine || o == mine && j < lid) {
                    r++;
                }
            }
            order[r] = lid;
        }
        ctx.localBarrier();
        if (lid == 0) {
            sweeps.set(e, rotated != 0 ? sweep + 1 : sweep);
        }
        if (lid < n) {
            double sig = cs[order[lid]];
            s.set((long) e * n + lid, gram == 1 ? sig * sig : sig);
        }
        for (int idx = lid; idx < m * n; idx += JACOBI_THREADS) {
            int i = idx % m;
            int r = idx / m;
            int src = order[r];
            double sig = cs[src];
            // row i of W is row rowOf[i] of the matrix (the Cholesky pivots)
            int row = gram == 1 ? rowOf[i] : i;
            u.set(ab + (long) r * m + row, sig > 0 ? w[src * ld + i] / sig : 0.0);
        }
    }

    /**
     * Leaf basis rows into the batch of leaves: {@code out[e][r, c] = u[(leafStart[e] + r) k + c]} for the leaf's
     * {@code r < m_e} rows, zero for the padding rows up to {@code mPad}; {@code total = leaves mPad k}.
     */
    @Kernel
    public static void packLeaves(DoubleArray u, IntArray leafStart, DoubleArray out, int k, int mPad, long total) {
        for (@Parallel long i = 0; i < total; i++) {
            long mk = (long) mPad * k;
            int e = (int) (i / mk);
            int rem = (int) (i % mk);
            int c = rem / mPad;
            int r = rem % mPad;
            int a0 = leafStart.get(e);
            int mi = leafStart.get(e + 1) - a0;
            double v = 0.0;
            if (r < mi) {
                v = u.get((long) (a0 + r) * k + c);
            }
            out.set(i, v);
        }
    }

    /**
     * New leaf basis {@code uNew[a kNew + j] = sum_p uOld[a kOld + p] f[leaf(a)][p, j]} for every point {@code a}, with
     * {@code f} the leaf's column-major {@code fRows x fCols} matrix at {@code leaf fRows fCols} of which the first
     * {@code kNew} columns are used; with {@code identityOld = 1} the old basis is skipped and
     * {@code uNew[a kNew + j] = f[leaf][a - leafStart[leaf], j]} (Q of the leaf's QR). {@code total = size kNew}.
     */
    @Kernel
    public static void leafBasisFrom(DoubleArray uOld, DoubleArray f, IntArray pointLeaf, IntArray leafStart, DoubleArray uNew,
            int kOld, int fRows, int fCols, int kNew, int identityOld, long total) {
        for (@Parallel long i = 0; i < total; i++) {
            long a = i / kNew;
            int j = (int) (i % kNew);
            int leaf = pointLeaf.get(a);
            long fb = (long) leaf * fRows * fCols + (long) j * fRows;
            double v = 0.0;
            if (identityOld == 1) {
                v = f.get(fb + (a - leafStart.get(leaf)));
            } else {
                for (int p = 0; p < kOld; p++) {
                    v += uOld.get(a * kOld + p) * f.get(fb + p);
                }
            }
            uNew.set(i, v);
        }
    }

    /**
     * The upper triangle of each factored matrix of a QR batch ({@code m x n} column-major at {@code e m n}) as the
     * row-major {@code rRows x n} factor of node {@code first + e} at {@code fOff[first + e]}, zero below the
     * diagonal; {@code total = batch rRows n}.
     */
    @Kernel
    public static void upperFactor(DoubleArray a, DoubleArray f, LongArray fOff, int first, int m, int n, int rRows, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long rn = (long) rRows * n;
            int e = (int) (q / rn);
            int rem = (int) (q % rn);
            int i = rem / n;
            int j = rem % n;
            double v = 0.0;
            if (i <= j) {
                v = a.get((long) e * m * n + (long) j * m + i);
            }
            f.set(fOff.get(first + e) + rem, v);
        }
    }

    /**
     * Stacked children of the parents {@code firstParent ..}: batch entry {@code e} is the column-major
     * {@code mPad x n} matrix {@code [F_c1 E_c1; F_c2 E_c2]} (zero rows past {@code 2 a}) of parent
     * {@code t = firstParent + e}, children {@code c = 2t + 1 + h}, {@code F_c} row-major {@code a x kc} at
     * {@code fOff[c]}, {@code E_c} row-major {@code kc x n} at {@code eOff[c]}; {@code total = parents mPad n}. Work-items
     * run along a row of the result (columns fastest), so a warp reads a row of {@code E_c} in one coalesced load and
     * one entry of {@code F_c} for all its lanes, and writes its 32 results {@code mPad} apart once.
     */
    @Kernel
    public static void stackChildren(DoubleArray f, LongArray fOff, DoubleArray e, LongArray eOff, DoubleArray z, int firstParent,
            int a, int kc, int n, int mPad, long total) {
        for (@Parallel long x = 0; x < total; x++) {
            long mn = (long) mPad * n;
            int ent = (int) (x / mn);
            int rem = (int) (x % mn);
            int row = rem / n;
            int j = rem % n;
            long q = (long) ent * mn + (long) j * mPad + row;
            double v = 0.0;
            if (row < 2 * a) {
                int h = row / a;
                int ii = row % a;
                int c = 2 * (firstParent + ent) + 1 + h;
                long fo = fOff.get(c) + (long) ii * kc;
                long eo = eOff.get(c) + j;
                for (int p = 0; p < kc; p++) {
                    v += f.get(fo + p) * e.get(eo + (long) p * n);
                }
            }
            z.set(q, v);
        }
    }

    /**
     * Transfers from the rows of each batch entry's left factor ({@code q}, column-major {@code m x qCols} at
     * {@code e m qCols}): child {@code c = 2(firstParent + e) + 1 + h} gets rows {@code h a .. h a + a - 1}, first
     * {@code kNew} columns, row-major {@code a x kNew} at {@code eOff[c]}; {@code total = parents 2 a kNew}.
     */
    @Kernel
    public static void transfersFrom(DoubleArray q, DoubleArray e, LongArray eOff, int firstParent, int a, int m, int qCols, int kNew,
            long total) {
        for (@Parallel long i = 0; i < total; i++) {
            long per = 2L * a * kNew;
            int ent = (int) (i / per);
            int rem = (int) (i % per);
            int h = rem / (a * kNew);
            int r2 = rem % (a * kNew);
            int ii = r2 / kNew;
            int jj = r2 % kNew;
            int c = 2 * (firstParent + ent) + 1 + h;
            e.set(eOff.get(c) + r2, q.get((long) ent * m * qCols + (long) jj * m + h * a + ii));
        }
    }

    /**
     * Gram matrices of the coupling blocks of the nodes {@code first ..} of one level ({@code r x r} each, column-major
     * at {@code (t - first) r r} in {@code g}), added to {@code g}: as a row node ({@code asRow = 1}),
     * {@code sum over blocks b of t's block row of S_b S_b^T} ({@code S_b} is {@code r x k_s}); as a column node,
     * {@code sum over blocks b of t's block column of S_b^T S_b} ({@code S_b} is {@code k_t x r}). The blocks of node
     * {@code t} are {@code list[ptr[t]] .. list[ptr[t + 1] - 1]}; {@code otherRank[node]} is the rank of the block's
     * other side. {@code total = nodes r r}.
     */
    @Kernel
    public static void gramOfBlocks(DoubleArray s, LongArray sOff, IntArray ptr, IntArray list, IntArray other, IntArray otherRank,
            DoubleArray g, int first, int r, int asRow, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long rr = (long) r * r;
            int t = first + (int) (q / rr);
            int rem = (int) (q % rr);
            int i = rem % r;
            int j = rem / r;
            double acc = 0.0;
            int b1 = ptr.get(t + 1);
            for (int x = ptr.get(t); x < b1; x++) {
                int b = list.get(x);
                long o = sOff.get(b);
                int ko = otherRank.get(other.get(b));
                if (asRow == 1) {
                    for (int mu = 0; mu < ko; mu++) {
                        acc += s.get(o + (long) mu * r + i) * s.get(o + (long) mu * r + j);
                    }
                } else {
                    for (int nu = 0; nu < ko; nu++) {
                        acc += s.get(o + (long) i * ko + nu) * s.get(o + (long) j * ko + nu);
                    }
                }
            }
            g.set(q, g.get(q) + acc);
        }
    }

    /**
     * As {@link #gramOfBlocks}, one group of {@link #PROJECT_THREADS} per node {@code t = first + group}, with every
     * block staged in local memory: {@code g[t] += alpha sum S_b S_b^T} over the node's block row ({@code asRow = 1},
     * {@code S_b} column-major {@code r x k_s}) or {@code alpha sum S_b^T S_b} over its block column ({@code S_b}
     * column-major {@code k_t x r}); {@code r} and the other sides' ranks at most {@link #PROJECT_MAX}. Each work-item
     * sums a 4 x 4 tile of the node's {@code r x r} Gram matrix (rows 16 apart) over all its blocks.
     */
    @Kernel
    public static void gramOfBlocksLocal(KernelContext ctx, DoubleArray s, LongArray sOff, IntArray ptr, IntArray list, IntArray other,
            IntArray otherRank, DoubleArray g, int first, int r, int asRow, double alpha) {
        double[] x = ctx.allocateDoubleLocalArray(PROJECT_MAX * (PROJECT_MAX + 1));
        double[] acc = new double[16];
        int t = first + ctx.groupIdx;
        int lid = ctx.localIdx;
        int ld = PROJECT_MAX + 1;
        int ti = lid & 15;
        int tj = lid >> 4;
        for (int q = 0; q < 16; q++) {
            acc[q] = 0.0;
        }
        int x1 = ptr.get(t + 1);
        for (int xb = ptr.get(t); xb < x1; xb++) {
            int b = list.get(xb);
            long o = sOff.get(b);
            int ko = otherRank.get(other.get(b));
            // x[k ld + i]: entry i of the block's k-th column (a block row's block) or row (a block column's block)
            for (int idx = lid; idx < r * ko; idx += PROJECT_THREADS) {
                if (asRow == 1) {
                    x[(idx / r) * ld + idx % r] = s.get(o + idx);
                } else {
                    x[(idx % ko) * ld + idx / ko] = s.get(o + idx);
                }
            }
            ctx.localBarrier();
            for (int k = 0; k < ko; k++) {
                double a0 = x[k * ld + ti];
                double a1 = x[k * ld + ti + 16];
                double a2 = x[k * ld + ti + 32];
                double a3 = x[k * ld + ti + 48];
                double b0 = x[k * ld + tj];
                double b1 = x[k * ld + tj + 16];
                double b2 = x[k * ld + tj + 32];
                double b3 = x[k * ld + tj + 48];
                acc[0] += a0 * b0;
                acc[1] += a0 * b1;
                acc[2] += a0 * b2;
                acc[3] += a0 * b3;
                acc[4] += a1 * b0;
                acc[5] += a1 * b1;
                acc[6] += a1 * b2;
                acc[7] += a1 * b3;
                acc[8] += a2 * b0;
                acc[9] += a2 * b1;
                acc[10] += a2 * b2;
                acc[11] += a2 * b3;
                acc[12] += a3 * b0;
                acc[13] += a3 * b1;
                acc[14] += a3 * b2;
                acc[15] += a3 * b3;
            }
            ctx.localBarrier();
        }
        long base = (long) (t - first) * r * r;
        for (int u = 0; u < 4; u++) {
            for (int v = 0; v < 4; v++) {
                int i = ti + 16 * u;
                int j = tj + 16 * v;
                if (i < r && j < r) {
                    long q = base + (long) j * r + i;
                    g.set(q, g.get(q) + alpha * acc[4 * u + v]);
                }
            }
        }
    }

    /**
     * First half of the parent's share of a Gram matrix, {@code h = E_t G_parent} ({@code r x rp}, column-major at
     * {@code (t - first) r rp}) for the nodes {@code t = first ..} of one level; {@code E_t} row-major
     * {@code r x rp} at {@code eOff[t]}, {@code G_parent} column-major at {@code (parent - firstParent) rp rp} of
     * {@code gp}; {@code total = nodes r rp}.
     */
    @Kernel
    public static void transferTimesGram(DoubleArray e, LongArray eOff, DoubleArray gp, DoubleArray h, int first, int r, int rp,
            long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long per = (long) r * rp;
            int t = first + (int) (q / per);
            int rem = (int) (q % per);
            int i = rem % r;
            int j = rem / r;
            int par = (t - 1) / 2;
            int firstParent = (first - 1) / 2;
            long eo = eOff.get(t) + (long) i * rp;
            long go = (long) (par - firstParent) * rp * rp + (long) j * rp;
            double acc = 0.0;
            for (int p = 0; p < rp; p++) {
                acc += e.get(eo + p) * gp.get(go + p);
            }
            h.set(q, acc);
        }
    }

    /**
     * Second half: {@code g = h E_t^T} ({@code r x r}, column-major at {@code (t - first) r r}), overwriting
     * {@code g}; {@code total = nodes r r}.
     */
    @Kernel
    public static void gramFromParent(DoubleArray h, DoubleArray e, LongArray eOff, DoubleArray g, int first, int r, int rp,
            long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long rr = (long) r * r;
            int t = first + (int) (q / rr);
            int rem = (int) (q % rr);
            int i = rem % r;
            int j = rem / r;
            long ho = (long) (t - first) * r * rp + i;
            long eo = eOff.get(t) + (long) j * rp;
            double acc = 0.0;
            for (int p = 0; p < rp; p++) {
                acc += h.get(ho + (long) p * r) * e.get(eo + p);
            }
            g.set(q, acc);
        }
    }

    /**
     * The weighted stack {@code y = Z V diag(sqrt(lambda))} per node of one level: {@code Z} column-major
     * {@code zRows x n} at {@code e zRows n} (rows past {@code zRows} up to {@code mPad} are zero), {@code V} and
     * {@code lambda} the eigenvectors (column-major {@code n x n} at {@code e n n}) and eigenvalues ({@code n} at
     * {@code e n}, descending) of the node's Gram matrix; {@code y} column-major {@code mPad x n}. Eigenvalues below
     * {@code 1e-18} of the largest are rounding noise of the Gram matrix and weigh 0 (their square roots' squares
     * would underflow in the SVD's rotations and stall it); {@code total = nodes mPad ceil(n / 4)}.
     */
    @Kernel
    public static void weightedStack(DoubleArray z, DoubleArray v, DoubleArray lambda, DoubleArray y, int zRows, int n, int mPad,
            long total) {
        // each work-item four columns of one row: every entry of Z read once for the four (a quarter of the L2 traffic)
        for (@Parallel long q = 0; q < total; q++) {
            int quads = (n + 3) / 4;
            long per = (long) mPad * quads;
            int ent = (int) (q / per);
            int rem = (int) (q % per);
            int j0 = 4 * (rem / mPad);
            int i = rem % mPad;
            double a0 = 0.0;
            double a1 = 0.0;
            double a2 = 0.0;
            double a3 = 0.0;
            long vo = (long) ent * n * n;
            int j1 = Math.min(j0 + 1, n - 1);
            int j2 = Math.min(j0 + 2, n - 1);
            int j3 = Math.min(j0 + 3, n - 1);
            if (i < zRows) {
                long zo = (long) ent * zRows * n + i;
                for (int p = 0; p < n; p++) {
                    double zp = z.get(zo + (long) p * zRows);
                    a0 += zp * v.get(vo + (long) j0 * n + p);
                    a1 += zp * v.get(vo + (long) j1 * n + p);
                    a2 += zp * v.get(vo + (long) j2 * n + p);
                    a3 += zp * v.get(vo + (long) j3 * n + p);
                }
            }
            double l0 = lambda.get((long) ent * n);
            long yo = (long) ent * mPad * n + i;
            for (int c = 0; c < 4; c++) {
                int j = j0 + c;
                if (j < n) {
                    double acc = c == 0 ? a0 : (c == 1 ? a1 : (c == 2 ? a2 : a3));
                    double l = lambda.get((long) ent * n + j);
                    y.set(yo + (long) j * mPad, i < zRows && l > 1e-18 * l0 ? acc * Math.sqrt(l) : 0.0);
                }
            }
        }
    }

    /**
     * The projection onto the truncated basis, {@code T_t = Q^T Z} ({@code kNew x n}, row-major at {@code fOff[t]}) for
     * the nodes {@code t = first + e} of one level: {@code Q} the first {@code kNew} columns of the left factor
     * (column-major {@code m x qCols} at {@code e m qCols}), {@code Z} column-major {@code zRows x n} at
     * {@code e zRows n} ({@code zRows <= m}); with {@code identityZ = 1}, {@code Z} is the identity
     * ({@code T = Q^T}, {@code zRows = n}). {@code total = nodes ceil(kNew / 4) n}.
     */
    @Kernel
    public static void projectionFactor(DoubleArray q, DoubleArray z, DoubleArray f, LongArray fOff, int first, int m, int qCols,
            int zRows, int n, int kNew, int identityZ, long total) {
        // each work-item four rows of one column: every entry of Z read once for the four
        for (@Parallel long x = 0; x < total; x++) {
            int quads = (kNew + 3) / 4;
            long per = (long) quads * n;
            int ent = (int) (x / per);
            int rem = (int) (x % per);
            int i0 = 4 * (rem / n);
            int j = rem % n;
            long qb = (long) ent * m * qCols;
            int i1 = Math.min(i0 + 1, kNew - 1);
            int i2 = Math.min(i0 + 2, kNew - 1);
            int i3 = Math.min(i0 + 3, kNew - 1);
            double a0 = 0.0;
            double a1 = 0.0;
            double a2 = 0.0;
            double a3 = 0.0;
            if (identityZ == 1) {
                a0 = q.get(qb + (long) i0 * m + j);
                a1 = q.get(qb + (long) i1 * m + j);
                a2 = q.get(qb + (long) i2 * m + j);
                a3 = q.get(qb + (long) i3 * m + j);
            } else {
                long zo = (long) ent * zRows * n + (long) j * zRows;
                for (int p = 0; p < zRows; p++) {
                    double zp = z.get(zo + p);
                    a0 += q.get(qb + (long) i0 * m + p) * zp;
                    a1 += q.get(qb + (long) i1 * m + p) * zp;
                    a2 += q.get(qb + (long) i2 * m + p) * zp;
                    a3 += q.get(qb + (long) i3 * m + p) * zp;
                }
            }
            long fo = fOff.get(first + ent);
            for (int c = 0; c < 4; c++) {
                int i = i0 + c;
                if (i < kNew) {
                    f.set(fo + (long) i * n + j, c == 0 ? a0 : (c == 1 ? a1 : (c == 2 ? a2 : a3)));
                }
            }
        }
    }

    /**
     * Zeroes the left singular vectors of zero singular values ({@code u} column-major {@code m x n} at {@code e m n},
     * {@code s} at {@code e n}), whose content a Jacobi SVD leaves undefined; {@code total = batch m n}.
     */
    @Kernel
    public static void dropNullColumns(DoubleArray u, DoubleArray s, int m, int n, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long mn = (long) m * n;
            long e = q / mn;
            int j = (int) ((q % mn) / m);
            if (!(s.get(e * n + j) > 0.0)) {
                u.set(q, 0.0);
            }
        }
    }

    /**
     * Flushes to zero the entries of each node's Gram matrix ({@code r x r} at {@code e r r}) below {@code 1e-20} of
     * its trace: they are far under its rounding noise, and their squares would underflow in the Jacobi rotations of
     * the eigen-decomposition and stall it; {@code total = nodes r r}.
     */
    @Kernel
    public static void flushTiny(DoubleArray g, int r, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long rr = (long) r * r;
            long base = (q / rr) * rr;
            double tr = 0.0;
            for (int i = 0; i < r; i++) {
                tr += g.get(base + (long) i * r + i);
            }
            double v = g.get(q);
            if (Math.abs(v) < 1e-20 * tr) {
                g.set(q, 0.0);
            }
        }
    }

    /** {@code out[e] = max |a[e per + i]|} over the {@code per} entries of each of {@code batch} matrices. */
    @Kernel
    public static void largestEntries(DoubleArray a, DoubleArray out, long per, int batch) {
        for (@Parallel int e = 0; e < batch; e++) {
            double mx = 0.0;
            for (long i = 0; i < per; i++) {
                mx = Math.max(mx, Math.abs(a.get(e * per + i)));
            }
            out.set(e, mx);
        }
    }

    /**
     * Flushes to zero the entries below {@code 1e-30} of their matrix's largest ({@code largest[e]}, {@code per}
     * entries a matrix): far under rounding, and their squares would underflow in the Jacobi rotations of an SVD
     * and stall it; {@code total = batch per}.
     */
    @Kernel
    public static void flushBelow(DoubleArray a, DoubleArray largest, long per, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            if (Math.abs(a.get(q)) < 1e-30 * largest.get(q / per)) {
                a.set(q, 0.0);
            }
        }
    }

    /**
     * Zeroes the leaf basis's columns past each leaf's rank: entry {@code (a, j)} of the row-major {@code size x k}
     * basis (tree order) when {@code j >= rank[firstLeaf + pointLeaf[a]]}; {@code total = size k}.
     */
    @Kernel
    public static void zeroLeafColumnsPast(DoubleArray u, IntArray pointLeaf, IntArray rank, int firstLeaf, int k, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long a = q / k;
            int j = (int) (q % k);
            if (j >= rank.get(firstLeaf + pointLeaf.get(a))) {
                u.set(q, 0.0);
            }
        }
    }

    /**
     * Zeroes the transfers of the nodes {@code first ..} of one level (row-major {@code kc x kp} at {@code eOff[c]}) in
     * rows past the node's rank {@code rank[c]} and columns past its parent's; {@code total = nodes kc kp}.
     */
    @Kernel
    public static void zeroTransfersPast(DoubleArray e, LongArray eOff, IntArray rank, int first, int kc, int kp, long total) {
        for (@Parallel long q = 0; q < total; q++) {
            long per = (long) kc * kp;
            int c = first + (int) (q / per);
            int rem = (int) (q % per);
            int i = rem / kp;
            int j = rem % kp;
            if (i >= rank.get(c) || j >= rank.get((c - 1) / 2)) {
                e.set(eOff.get(c) + rem, 0.0);
            }
        }
    }

    /** Work-items per group of {@link #resizeBlocks}. */
    public static final int RESIZE_THREADS = 128;

    /**
     * Copies each coupling block {@code b = firstBlock + group} (column-major {@code srcRank[row[b]] x srcColRank[col[b]]}
     * at {@code srcOff[b]}) into {@code dst} as a column-major {@code dstRank[row[b]] x dstColRank[col[b]]} block at
     * {@code dstOff[b]}: its leading part where both have entries, zero elsewhere (so a block can be cut to smaller
     * ranks or padded to larger ones), one group of {@link #RESIZE_THREADS} per block.
     */
    @Kernel
    public static void resizeBlocks(KernelContext ctx, DoubleArray src, LongArray srcOff, IntArray srcRank, IntArray srcColRank, DoubleArray dst,
            LongArray dstOff, IntArray dstRank, IntArray dstColRank, IntArray row, IntArray col, int firstBlock) {
        int b = firstBlock + ctx.groupIdx;
        int t = row.get(b);
        int c = col.get(b);
        int sr = srcRank.get(t);
        int sc = srcColRank.get(c);
        int dr = dstRank.get(t);
        int dc = dstColRank.get(c);
        long so = srcOff.get(b);
        long dOff = dstOff.get(b);
        for (int idx = ctx.localIdx; idx < dr * dc; idx += RESIZE_THREADS) {
            int i = idx % dr;
            int j = idx / dr;
            double v = 0.0;
            if (i < sr && j < sc) {
                v = src.get(so + (long) j * sr + i);
            }
            dst.set(dOff + idx, v);
        }
    }

    /** {@code dst[dstStart + i] = src[srcStart + i]} for {@code i < n}: moves a run of coupling blocks between arrays. */
    @Kernel
    public static void copyRange(DoubleArray src, long srcStart, DoubleArray dst, long dstStart, long n) {
        for (@Parallel long i = 0; i < n; i++) {
            dst.set(dstStart + i, src.get(srcStart + i));
        }
    }
}
