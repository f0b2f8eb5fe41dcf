package dev.squall.hmatrix.h2;

import dev.squall.linalg.qr.BatchedQr;
import dev.squall.linalg.qr.QrFactors;
import dev.squall.linalg.svd.BatchedSvd;
import dev.squall.linalg.svd.SvdResult;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.Device;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Algebraic recompression of the low-rank part of an H2 matrix to a relative tolerance, on host copies of the bases
 * and couplings, level by level (Börm's recompression as batched by Boukaram, Turkiyyah and Keyes); the small products
 * and the packing run on the host's cores, the factorisations of a level on the host or as batched ones on a device:
 * <ol>
 * <li><b>Orthogonalisation</b> (upsweep of QR): leaves {@code U = Q R}; inner nodes {@code [R_c1 E_c1; R_c2 E_c2] = Q R},
 * the blocks of {@code Q} become the transfers; couplings become {@code R_t S R_s^T}.</li>
 * <li><b>Basis generation</b> (downsweep of R factors): node {@code t}'s weight is the R factor of
 * {@code [W_parent E_t^T; S_ts^T ...]} over its blocks (block columns as well, for a basis serving both sides).</li>
 * <li><b>Truncation</b> (upsweep of SVDs): leaves {@code U W^T}, inner nodes {@code [T_c1 E_c1; T_c2 E_c2] W^T}; singular
 * values above {@code eps} times the node's largest are kept, the rank of a level is the largest kept in it; the
 * projections {@code T} carry the couplings over, {@code S <- T_t S T_s^T}.</li>
 * </ol>
 * Ranks never grow (orthogonalisation keeps at most the old rank, truncation at most that), so memory never increases.
 * The relative Frobenius error is estimated from the discarded singular values over the norm of the matrix (the
 * couplings on orthonormal bases plus the dense blocks), with no extra pass. Given a device, the QRs of each level of
 * the orthogonalisation run there as one batched Householder QR ({@code linalg}'s {@link BatchedQr}) and the SVDs of
 * each level of the truncation as one batched one-sided Jacobi SVD ({@link BatchedSvd}), matrices zero-padded to the
 * level's largest, the basis weights' tall QRs in batches of bounded size; the ranks and the error estimate then come
 * from the device's singular values. {@link H2Matrix#compress} runs {@link DeviceCompression}, every batch on the
 * device; this host path is what the tests compare it with.
 */
final class H2Compression {
    private H2Compression() {
    }

    /** Host copy of a nested basis: leaf basis {@code size x leafRank} (row-major, tree order), one transfer per node. */
    static final class HostBasis {
        final ClusterTree tree;
        final int[] levelRank;
        final double[] leaf;
        /** {@code transfer[c]}: {@code k_c x k_parent}, row-major; null for the root. */
        final double[][] transfer;

        HostBasis(ClusterTree tree, int[] levelRank, double[] leaf, double[][] transfer) {
            this.tree = tree;
            this.levelRank = levelRank;
            this.leaf = leaf;
            this.transfer = transfer;
        }

        int rank(int node) {
            return levelRank[ClusterTree.level(node)];
        }
    }

    /** The compressed bases and couplings (row-major {@code k_t x k_s} blocks) and the discarded energy. */
    record Result(HostBasis rows, HostBasis cols, double[][] couplings, double discardedSquared, double normSquared) {
    }

    /**
     * Compresses the bases {@code rb} and {@code cb} (the same object for a basis serving rows and columns) and the
     * couplings {@code s[b]} ({@code k_t x k_s} row-major) of blocks {@code (row[b], col[b])}.
     *
     * @param denseNormSquared squared Frobenius norm of the dense blocks, for the relative error estimate
     */
    static Result compress(HostBasis rb, HostBasis cb, int[] row, int[] col, double[][] s, double eps, double denseNormSquared) {
        return compress(rb, cb, row, col, s, eps, denseNormSquared, null);
    }

    /** As above, the truncation's SVDs on {@code svdDevice} (null: on the host). */
    static Result compress(HostBasis rb, HostBasis cb, int[] row, int[] col, double[][] s, double eps, double denseNormSquared,
            Device svdDevice) {
        boolean shared = rb == cb;
        Orthogonal ro = orthogonalise(rb);
        Orthogonal co = shared ? ro : orthogonalise(cb);
        int blocks = s.length;
        double[][] s1 = new double[blocks][];
        for (int b = 0; b < blocks; b++) {
            int t = row[b], c = col[b];
            int kt = rb.rank(t), ks = cb.rank(c);
            s1[b] = SmallMatrices.multiplyTransposed(SmallMatrices.multiply(ro.r[t], s[b], ro.basis.rank(t), kt, ks), co.r[c],
                    ro.basis.rank(t), ks, co.basis.rank(c));
        }
        Truncation tr = truncate(ro, co, shared, row, col, s1, eps, denseNormSquared, svdDevice);
        double[][] s2 = new double[blocks][];
        for (int b = 0; b < blocks; b++) {
            int t = row[b], c = col[b];
            int r1 = ro.basis.rank(t), r2 = co.basis.rank(c);
            int k1 = tr.rows.rank(t), k2 = tr.cols.rank(c);
            s2[b] = SmallMatrices.multiplyTransposed(SmallMatrices.multiply(tr.rowT[t], s1[b], k1, r1, r2), tr.colT[c], k1, r2, k2);
        }
        return new Result(tr.rows, tr.cols, s2, tr.discarded, tr.normSquared);
    }

    /**
     * The truncated bases and, per node, the projection {@code T} ({@code k'_t x r_t}, row-major) from the orthonormal
     * basis onto them; the discarded energy and the squared norm of the matrix (couplings on orthonormal bases plus
     * dense blocks); each node's own rank (at most its level's, whose largest it sets), from which the discarded
     * energy is counted.
     */
    record Truncation(HostBasis rows, HostBasis cols, double[][] rowT, double[][] colT, double discarded, double normSquared, int[] rowKept,
            int[] colKept) {
    }

    /**
     * Basis generation and truncation, from the couplings {@code s1} ({@code r_t x r_s} row-major) on the orthonormal
     * bases {@code ro}, {@code co} (the same object when {@code shared}); the SVDs on {@code svdDevice} (null: on the host).
     */
    static Truncation truncate(Orthogonal ro, Orthogonal co, boolean shared, int[] row, int[] col, double[][] s1, double eps,
            double denseNormSquared, Device svdDevice) {
        double norm2 = denseNormSquared + java.util.Arrays.stream(s1).parallel().mapToDouble(blk -> {
            double q = 0;
            for (double v : blk) q += v * v;
            return q;
        }).sum();
        List<List<double[]>> rowParts = contributions(ro.basis, row, col, s1, true, co.basis);
        List<List<double[]>> colParts = shared ? null : contributions(co.basis, row, col, s1, false, ro.basis);
        if (shared) {
            List<List<double[]>> asCol = contributions(co.basis, row, col, s1, false, ro.basis);
            for (int t = 0; t < rowParts.size(); t++) rowParts.get(t).addAll(asCol.get(t));
        }
        double[][] rw = weights(ro.basis, rowParts, svdDevice);
        double[][] cw = shared ? rw : weights(co.basis, colParts, svdDevice);
        Truncated rt = truncate(ro.basis, rw, eps, svdDevice);
        Truncated ct = shared ? rt : truncate(co.basis, cw, eps, svdDevice);
        double discarded = rt.discarded + (shared ? 0 : ct.discarded);
        return new Truncation(rt.basis, ct.basis, rt.t, ct.t, discarded, norm2, rt.nodeKept, ct.nodeKept);
    }

    /** An orthonormal basis and, per node, {@code R} ({@code r_t x k_t}) with old basis = new basis times {@code R}. */
    record Orthogonal(HostBasis basis, double[][] r) {
    }

    static Orthogonal orthogonalise(HostBasis b) {
        return orthogonalise(b, null);
    }

    /** As above, the QRs of each level on {@code device} (null: on the host). */
    static Orthogonal orthogonalise(HostBasis b, Device device) {
        ClusterTree tr = b.tree;
        int q = tr.depth;
        int k = b.levelRank[q];
        int maxLeaf = 0;
        for (int i = 0; i < tr.leaves; i++) maxLeaf = Math.max(maxLeaf, tr.leafStart[i + 1] - tr.leafStart[i]);
        int[] ranks = new int[q + 1];
        ranks[q] = Math.min(k, maxLeaf);
        for (int l = q - 1; l >= 0; l--) ranks[l] = Math.min(2 * ranks[l + 1], b.levelRank[l]);
        double[][] r = new double[tr.nodes][];
        double[] leaf = new double[tr.size * ranks[q]];
        int rq = ranks[q];
        double[][] us = new double[tr.leaves][];
        int[] uRows = new int[tr.leaves];
        IntStream.range(0, tr.leaves).parallel().forEach(i -> {
            int a0 = tr.leafStart[i], mi = tr.leafStart[i + 1] - a0;
            us[i] = new double[mi * k];
            System.arraycopy(b.leaf, a0 * k, us[i], 0, mi * k);
            uRows[i] = mi;
        });
        double[][][] leafQr = qr(us, uRows, k, device, true);
        IntStream.range(0, tr.leaves).parallel().forEach(i -> {
            int a0 = tr.leafStart[i], mi = tr.leafStart[i + 1] - a0;
            double[][] qr = leafQr[i];
            int ri = k == 0 ? 0 : qr[1].length / k; // min(mi, k) on the host, min(largest leaf, k) on a device
            for (int a = 0; a < mi; a++) System.arraycopy(qr[0], a * ri, leaf, (a0 + a) * rq, Math.min(ri, rq));
            double[] rp = new double[rq * k];
            System.arraycopy(qr[1], 0, rp, 0, Math.min(ri, rq) * k);
            r[tr.firstLeaf + i] = rp;
        });
        double[][] transfer = new double[tr.nodes][];
        for (int l = q - 1; l >= 0; l--) {
            int rc = ranks[l + 1], kl = b.levelRank[l], lv = l;
            int t0 = ClusterTree.levelStart(l);
            double[][] zs = new double[t0 + 1][];
            int[] zRows = new int[t0 + 1];
            IntStream.range(t0, ClusterTree.levelStart(l + 1)).parallel().forEach(t -> {
                double[] z = new double[2 * rc * kl];
                for (int h = 0; h < 2; h++) {
                    int c = 2 * t + 1 + h;
                    double[] re = SmallMatrices.multiply(r[c], b.transfer[c], rc, b.levelRank[lv + 1], kl);
                    System.arraycopy(re, 0, z, h * rc * kl, rc * kl);
                }
                zs[t - t0] = z;
                zRows[t - t0] = 2 * rc;
            });
            double[][][] zQr = qr(zs, zRows, kl, device, true);
            IntStream.range(t0, ClusterTree.levelStart(l + 1)).parallel().forEach(t -> {
                double[][] qr = zQr[t - t0];
                int rl = ranks[lv];
                for (int h = 0; h < 2; h++) {
                    double[] e = new double[rc * rl];
                    System.arraycopy(qr[0], h * rc * rl, e, 0, rc * rl);
                    transfer[2 * t + 1 + h] = e;
                }
                r[t] = qr[1];
            });
        }
        return new Orthogonal(new HostBasis(tr, ranks, leaf, transfer), r);
    }

    /**
     * For each node of {@code basis}, the blocks it takes part in, each with the node's rank as its column count:
     * {@code S^T} of the blocks of its block row ({@code asRow}), or {@code S} of its block column.
     */
    private static List<List<double[]>> contributions(HostBasis basis, int[] row, int[] col, double[][] s, boolean asRow,
            HostBasis other) {
        List<List<double[]>> parts = new ArrayList<>();
        for (int t = 0; t < basis.tree.nodes; t++) parts.add(new ArrayList<>());
        double[][] blocks = s;
        if (asRow) {
            blocks = new double[s.length][];
            double[][] tr = blocks;
            IntStream.range(0, s.length).parallel().forEach(b -> tr[b] = SmallMatrices.transpose(s[b], basis.rank(row[b]), other.rank(col[b])));
        }
        for (int b = 0; b < s.length; b++) parts.get(asRow ? row[b] : col[b]).add(blocks[b]);
        return parts;
    }

    /**
     * Weights top-down: {@code W_t = R of [W_parent E_t^T; parts of t]}, {@code w_t x k_t}. With a device, the QRs of
     * a level run there in batches of at most {@link #weightBatchValues} padded values (R then has {@code min(m, k_t)}
     * rows for the batch's tallest stack {@code m}: extra zero rows, which change no product it enters).
     */
    private static double[][] weights(HostBasis b, List<List<double[]>> parts, Device device) {
        ClusterTree tr = b.tree;
        double[][] w = new double[tr.nodes][];
        for (int l = 0; l <= tr.depth; l++) {
            int t0 = ClusterTree.levelStart(l), t1 = ClusterTree.levelStart(l + 1), kt = b.levelRank[l];
            if (device == null || kt == 0 || kt > BATCHED_MAX) {
                IntStream.range(t0, t1).parallel().forEach(t -> {
                    double[] st = stack(b, parts, w, t);
                    w[t] = kt == 0 || st.length == 0 ? new double[0] : SmallMatrices.qr(st, st.length / kt, kt)[1];
                });
                continue;
            }
            int[] height = new int[t1 - t0];
            for (int t = t0; t < t1; t++) height[t - t0] = stackHeight(b, parts, w, t);
            for (int c0 = t0; c0 < t1; ) { // batches of nodes whose padded stacks fit weightBatchValues, built one batch at a time
                int c1 = c0, tallest = 0;
                while (c1 < t1) {
                    int h = height[c1 - t0];
                    if (c1 > c0 && (long) (c1 - c0 + 1) * Math.max(tallest, h) * kt > weightBatchValues) break;
                    tallest = Math.max(tallest, h);
                    c1++;
                }
                int first = c0;
                double[][] batch = new double[c1 - c0][];
                int[] heights = java.util.Arrays.copyOfRange(height, c0 - t0, c1 - t0);
                IntStream.range(c0, c1).parallel().forEach(t -> batch[t - first] = stack(b, parts, w, t));
                double[][][] f = qr(batch, heights, kt, device, false);
                for (int t = c0; t < c1; t++) w[t] = heights[t - c0] == 0 ? new double[0] : f[t - c0][1];
                c0 = c1;
            }
        }
        return w;
    }

    /** Most values (matrices times padded size) of one batched device QR of the weights (1 GB); tests lower it. */
    static long weightBatchValues = 1L << 27;

    /** Rows of node {@code t}'s {@link #stack}. */
    private static int stackHeight(HostBasis b, List<List<double[]>> parts, double[][] w, int t) {
        int kt = b.rank(t);
        if (kt == 0) return 0;
        int m = 0;
        if (t > 0) {
            int par = (t - 1) / 2;
            int kp = b.rank(par);
            int wp = w[par].length / Math.max(1, kp);
            if (kp > 0 && wp > 0) m += wp;
        }
        for (double[] x : parts.get(t)) m += x.length / kt;
        return m;
    }

    /** Node {@code t}'s stack {@code [W_parent E_t^T; parts of t]} ({@code m x k_t}, row-major), its parent's weight known. */
    private static double[] stack(HostBasis b, List<List<double[]>> parts, double[][] w, int t) {
        int kt = b.rank(t);
        List<double[]> rows = new ArrayList<>();
        if (t > 0) {
            int par = (t - 1) / 2;
            int kp = b.rank(par);
            int wp = w[par].length / Math.max(1, kp);
            if (kp > 0 && wp > 0) rows.add(SmallMatrices.multiplyTransposed(w[par], b.transfer[t], wp, kp, kt));
        }
        rows.addAll(parts.get(t));
        int m = 0;
        for (double[] x : rows) m += kt == 0 ? 0 : x.length / kt;
        double[] stack = new double[m * kt];
        int at = 0;
        for (double[] x : rows) {
            if (kt == 0) break;
            System.arraycopy(x, 0, stack, at, x.length);
            at += x.length;
        }
        return stack;
    }

    /** A truncated basis and, per node, {@code T} ({@code k'_t x r_t}) projecting old coefficients onto the new basis. */
    private record Truncated(HostBasis basis, double[][] t, double discarded, int[] nodeKept) {
    }

    private static Truncated truncate(HostBasis b, double[][] w, double eps, Device svdDevice) {
        ClusterTree tr = b.tree;
        int q = tr.depth;
        int[] ranks = new int[q + 1];
        double[][] t = new double[tr.nodes][];
        double[][] transfer = new double[tr.nodes][];
        double discarded = 0;
        // leaves
        int r = b.levelRank[q];
        double[][] left = new double[tr.leaves][];
        double[][] sig = new double[tr.leaves][];
        double[][] uw = new double[tr.leaves][];
        int[] uwRows = new int[tr.leaves], uwCols = new int[tr.leaves];
        IntStream.range(0, tr.leaves).parallel().forEach(i -> {
            int a0 = tr.leafStart[i], mi = tr.leafStart[i + 1] - a0;
            double[] u = new double[mi * r];
            System.arraycopy(b.leaf, a0 * r, u, 0, mi * r);
            double[] wi = w[tr.firstLeaf + i];
            int wr = r == 0 ? 0 : wi.length / r;
            uw[i] = SmallMatrices.multiplyTransposed(u, wi, mi, r, wr);
            uwRows[i] = mi;
            uwCols[i] = wr;
        });
        svdLeft(uw, uwRows, uwCols, sig, left, svdDevice);
        int keep = 0;
        for (double[] sg : sig) keep = Math.max(keep, kept(sg, eps));
        ranks[q] = keep;
        double[] leaf = new double[tr.size * keep];
        int kq = keep;
        IntStream.range(0, tr.leaves).parallel().forEach(i -> {
            int keep1 = kq;
            int a0 = tr.leafStart[i], mi = tr.leafStart[i + 1] - a0;
            int wr = sig[i].length;
            double[] qn = new double[mi * keep1];
            for (int a = 0; a < mi; a++) for (int j = 0; j < Math.min(keep1, wr); j++) qn[a * keep1 + j] = left[i][a * wr + j];
            System.arraycopy(qn, 0, leaf, a0 * keep1, mi * keep1);
            double[] u = new double[mi * r];
            System.arraycopy(b.leaf, a0 * r, u, 0, mi * r);
            t[tr.firstLeaf + i] = SmallMatrices.transposedMultiply(qn, u, mi, keep1, r);
        });
        int[] nodeKept = new int[tr.nodes];
        for (int i = 0; i < tr.leaves; i++) {
            nodeKept[tr.firstLeaf + i] = Math.min(kq, kept(sig[i], eps));
            discarded += tail(sig[i], nodeKept[tr.firstLeaf + i]);
        }
        // inner levels
        for (int l = q - 1; l >= 0; l--) {
            int kc = ranks[l + 1], rl = b.levelRank[l], rc = b.levelRank[l + 1];
            int s0 = ClusterTree.levelStart(l), s1 = ClusterTree.levelStart(l + 1);
            double[][] zs = new double[s1 - s0][];
            double[][] lefts = new double[s1 - s0][];
            double[][] sigs = new double[s1 - s0][];
            double[][] zw = new double[s1 - s0][];
            int[] zwRows = new int[s1 - s0], zwCols = new int[s1 - s0];
            IntStream.range(s0, s1).parallel().forEach(n -> {
                double[] z = new double[2 * kc * rl];
                for (int h = 0; h < 2; h++) {
                    int c = 2 * n + 1 + h;
                    double[] te = SmallMatrices.multiply(t[c], b.transfer[c], kc, rc, rl);
                    System.arraycopy(te, 0, z, h * kc * rl, kc * rl);
                }
                zs[n - s0] = z;
                int wr = rl == 0 ? 0 : w[n].length / rl;
                zw[n - s0] = SmallMatrices.multiplyTransposed(z, w[n], 2 * kc, rl, wr);
                zwRows[n - s0] = 2 * kc;
                zwCols[n - s0] = wr;
            });
            svdLeft(zw, zwRows, zwCols, sigs, lefts, svdDevice);
            keep = 0;
            for (double[] sg : sigs) keep = Math.max(keep, kept(sg, eps));
            ranks[l] = keep;
            int kl = keep;
            for (int n = s0; n < s1; n++) {
                nodeKept[n] = Math.min(kl, kept(sigs[n - s0], eps));
                discarded += tail(sigs[n - s0], nodeKept[n]);
            }
            IntStream.range(s0, s1).parallel().forEach(n -> {
                int kn = kl;
                int wr = sigs[n - s0].length;
                double[] qn = new double[2 * kc * kn];
                for (int a = 0; a < 2 * kc; a++) {
                    for (int j = 0; j < Math.min(kn, wr); j++) qn[a * kn + j] = lefts[n - s0][a * wr + j];
                }
                for (int h = 0; h < 2; h++) {
                    double[] e = new double[kc * kn];
                    System.arraycopy(qn, h * kc * kn, e, 0, kc * kn);
                    transfer[2 * n + 1 + h] = e;
                }
                t[n] = SmallMatrices.transposedMultiply(qn, zs[n - s0], 2 * kc, kn, rl);
            });
        }
        return new Truncated(new HostBasis(tr, ranks, leaf, transfer), t, discarded, nodeKept);
    }

    /**
     * Householder QR of each {@code a[e]} ({@code rows[e] x n}, row-major), as {@link SmallMatrices#qr}: {@code {Q, R}}
     * row-major, {@code Q} of {@code rows[e] x r}, {@code R} of {@code r x n}. On the host {@code r = min(rows[e], n)};
     * on a device all are zero-padded to the largest row count {@code m} and factored in one batched QR, so
     * {@code r = min(m, n)} (R keeps its zero rows past a short matrix's rank; the padding rows of Q are dropped).
     * Without {@code wantQ} the device forms no Q and {@code Q} is null.
     */
    static double[][][] qr(double[][] a, int[] rows, int n, Device device, boolean wantQ) {
        int batch = a.length;
        double[][][] out = new double[batch][][];
        int m = 0;
        for (int e = 0; e < batch; e++) m = Math.max(m, rows[e]);
        if (device == null || m == 0 || n == 0 || n > BATCHED_MAX) {
            IntStream.range(0, batch).parallel().forEach(e -> out[e] = rows[e] == 0 || n == 0 ? new double[][] {new double[0], new double[0]}
                    : SmallMatrices.qr(a[e], rows[e], n));
            return out;
        }
        int mm = m;
        DoubleArray packed = new DoubleArray((long) batch * m * n); // column-major m x n per matrix
        pack(a, rows, n, m, n, packed);
        QrFactors f = BatchedQr.factor(device, packed, m, n, batch, wantQ);
        int k = Math.min(m, n);
        IntStream.range(0, batch).parallel().forEach(e -> {
            double[] rc = f.r(e), re = new double[k * n], qe = null;
            if (wantQ) {
                double[] qc = f.q(e);
                qe = new double[rows[e] * k];
                for (int r = 0; r < rows[e]; r++) for (int j = 0; j < k; j++) qe[r * k + j] = qc[j * mm + r];
            }
            for (int i = 0; i < k; i++) for (int j = i; j < n; j++) re[i * n + j] = rc[j * k + i];
            out[e] = new double[][] {qe, re};
        });
        return out;
    }

    /**
     * Singular values (descending) and left singular vectors of each {@code a[e]} ({@code rows[e] x cols[e]},
     * row-major), as {@link SmallMatrices#svdLeft}: into {@code sigma[e]} and {@code u[e]} ({@code rows[e] x n},
     * row-major). On the host {@code n = cols[e]}; on a device all matrices are zero-padded to the largest rows and
     * columns and decomposed in one batched SVD, so {@code n} is the largest column count (the padding adds zero
     * singular values, never kept) and columns of zero singular values are zero.
     */
    static void svdLeft(double[][] a, int[] rows, int[] cols, double[][] sigma, double[][] u, Device device) {
        int batch = a.length;
        int m = 0, n = 0;
        for (int e = 0; e < batch; e++) {
            m = Math.max(m, rows[e]);
            n = Math.max(n, cols[e]);
        }
        if (device == null || m == 0 || n == 0 || Math.min(m, n) > BATCHED_MAX) {
            IntStream.range(0, batch).parallel().forEach(e -> {
                double[][] svd = SmallMatrices.svdLeft(a[e], rows[e], cols[e]);
                sigma[e] = svd[0];
                u[e] = svd[1];
            });
            return;
        }
        int mm = m, nn = n;
        DoubleArray packed = new DoubleArray((long) batch * m * n); // column-major m x n per matrix
        int[] cs = cols;
        pack(a, rows, cs, m, n, packed);
        SvdResult res = BatchedSvd.decompose(device, packed, m, n, batch, 0.0);
        if (!res.converged()) throw new IllegalStateException("batched SVD of " + batch + " matrices " + m + " x " + n + " did not converge on " + device.id());
        int k = Math.min(m, n);
        IntStream.range(0, batch).parallel().forEach(e -> {
            double[] sv = res.singularValues(e), uc = res.u(e, k);
            double[] sg = new double[nn], ue = new double[rows[e] * nn];
            for (int j = 0; j < k; j++) {
                sg[j] = sv[j];
                if (sv[j] > 0) for (int r = 0; r < rows[e]; r++) ue[r * nn + j] = uc[j * mm + r];
            }
            sigma[e] = sg;
            u[e] = ue;
        });
    }

    /** Writes each row-major {@code a[e]} ({@code rows[e] x cols}) zero-padded into {@code packed} as column-major {@code m x n}. */
    private static void pack(double[][] a, int[] rows, int cols, int m, int n, DoubleArray packed) {
        int[] cs = new int[a.length];
        java.util.Arrays.fill(cs, cols);
        pack(a, rows, cs, m, n, packed);
    }

    private static void pack(double[][] a, int[] rows, int[] cols, int m, int n, DoubleArray packed) {
        java.lang.foreign.MemorySegment seg = packed.segment();
        IntStream.range(0, a.length).parallel().forEach(e -> {
            double[] cm = new double[m * n];
            for (int r = 0; r < rows[e]; r++) for (int c = 0; c < cols[e]; c++) cm[c * m + r] = a[e][r * cols[e] + c];
            java.lang.foreign.MemorySegment.copy(cm, 0, seg, java.lang.foreign.ValueLayout.JAVA_DOUBLE, 8L * e * m * n, cm.length);
        });
    }

    /** Largest column count (for the SVD, {@code min(rows, cols)}) the batched device QR and SVD take; larger levels run on the host. */
    private static final int BATCHED_MAX = 64;

    /** How many singular values (descending) exceed {@code eps} times the largest. */
    private static int kept(double[] sigma, double eps) {
        if (sigma.length == 0 || sigma[0] == 0) return 0;
        int c = 0;
        while (c < sigma.length && sigma[c] > eps * sigma[0]) c++;
        return c;
    }

    private static double tail(double[] sigma, int from) {
        double s = 0;
        for (int j = from; j < sigma.length; j++) s += sigma[j] * sigma[j];
        return s;
    }
}
