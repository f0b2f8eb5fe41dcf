package dev.squall.hmatrix.h2;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.qr.BatchedQr;
import dev.squall.linalg.svd.BatchedSvd;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Profile;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;

/**
 * H2 recompression with every per-level batch formed and kept on the device (Börm's recompression as batched by
 * Boukaram, Turkiyyah and Keyes, with the basis weights as Gram matrices): the host holds only per-node offsets and
 * ranks, per-block indices and the singular values of one level at a time.
 * <ol>
 * <li><b>Orthogonalisation</b> ({@link #orthogonalise}): the leaves' bases as one batched QR ({@code U = Q R}), then
 * per level upwards the stacked children {@code [R_c1 E_c1; R_c2 E_c2] = Q R}, the blocks of {@code Q} the new
 * transfers; each node keeps {@code R_t}, through which the couplings are projected, {@code S <- R_t S R_s^T}.</li>
 * <li><b>Basis generation</b> ({@link #gram}): top-down per level the Gram matrix of everything node {@code t}'s
 * orthonormal basis carries, {@code G_t = E_t G_parent E_t^T + sum S S^T} over its block row (and
 * {@code S^T S} over its block column for a basis serving both sides): {@code G_t = W_t^T W_t} for the weight
 * {@code W_t} of the paper, without forming its tall stack.</li>
 * <li><b>Truncation</b> ({@link #truncate}): per level upwards, one batched Jacobi SVD of the Gram matrices
 * ({@code G = V diag(lambda) V^T}); at the leaves {@code V}'s leading columns are the new basis in the orthonormal
 * one ({@code sigma = sqrt(lambda)}); at inner nodes one more batched SVD of {@code Z V diag(sqrt(lambda))} with
 * {@code Z = [T_c1 E_c1; T_c2 E_c2]} gives the new transfers. A node keeps the singular values above {@code eps}
 * times its largest, a level the largest count of its nodes (the product kernels take one rank per level); the
 * couplings are projected with {@code T_t} ({@code T_t = Q^T Z}) as in step 1. The discarded squares sum to the
 * error estimate.</li>
 * </ol>
 * Working through Gram matrices squares the singular values: values below about {@code 1e-8} of a node's largest are
 * not resolved, so tolerances below {@code 1e-7} keep a few more vectors than needed (never fewer).
 */
final class DeviceCompression {
    private DeviceCompression() {
    }

    /** A basis of one tree during compression: the orthonormal basis, each node's factors, Gram matrices per level. */
    static final class Side {
        final ClusterTree tree;
        final BasisTree old;
        /** Ranks of the orthonormal basis per level. */
        final int[] orthRank;
        /** Row-major {@code orthRank x oldRank} factor of each node ({@code old = orth R}) at {@code rOff[t]}. */
        final long[] rOff;
        final DoubleArray r;
        final LongArray rOffArray;
        /** The orthonormal basis: leaf basis, transfers (row-major {@code orthRank_c x orthRank_parent} at {@code eOff[c]}). */
        final DoubleArray leaf;
        final long[] eOff;
        final DoubleArray transfers;
        final LongArray eOffArray;
        /** Gram matrix of each level's nodes, column-major {@code orthRank x orthRank} per node. */
        final DoubleArray[] gram;

        Side(ClusterTree tree, BasisTree old, int[] orthRank) {
            this.tree = tree;
            this.old = old;
            this.orthRank = orthRank;
            rOff = new long[tree.nodes + 1];
            eOff = new long[tree.nodes + 1];
            for (int t = 0; t < tree.nodes; t++) {
                int l = ClusterTree.level(t);
                rOff[t + 1] = rOff[t] + (long) orthRank[l] * old.levelRank[l];
                eOff[t + 1] = eOff[t] + (l == 0 ? 0 : (long) orthRank[l] * orthRank[l - 1]);
            }
            r = DoubleArray.onDevice(Math.max(1, rOff[tree.nodes]));
            rOffArray = H2Matrix.longs(rOff);
            leaf = DoubleArray.onDevice(Math.max(1, (long) tree.size * orthRank[tree.depth]));
            transfers = DoubleArray.onDevice(Math.max(1, eOff[tree.nodes]));
            eOffArray = H2Matrix.longs(eOff);
            gram = new DoubleArray[tree.depth + 1];
        }

        int rank(int node) {
            return orthRank[ClusterTree.level(node)];
        }

        void free(Device device) {
            device.free(r, rOffArray, leaf, transfers, eOffArray);
            for (DoubleArray g : gram) if (g != null) device.free(g);
        }
    }

    /** The truncated basis, the projection factors {@code T_t} (row-major {@code k_t x orthRank_t} at {@code tOff[t]}) and the discarded energy. */
    record Truncated(BasisTree basis, DoubleArray t, long[] tOff, LongArray tOffArray, double discarded, int[] nodeKept) {
    }

    static void run(Device device, TaskGraph g) {
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            timed(g.name(), plan.withDevice(device));
        }
    }

    static void run(Device device, LaunchSequence seq) {
        try (ExecutionPlan plan = seq.plan(device)) {
            timed(seq.graph().name(), plan);
        }
    }

    /** Executes {@code plan} with the profiler, recording its times as a part of the compression; its kernels' device time. */
    static double timed(String name, ExecutionPlan plan) {
        long t0 = System.nanoTime();
        Profile p = plan.withProfiler(true).execute().profile();
        CompressionParts.plan(name, (System.nanoTime() - t0) / 1e6, p.compileMillis(), p.kernelMillis());
        return p.kernelMillis();
    }

    /** Orthogonalises {@code b} on the device: batched QRs of the leaves, then of the stacked children of each level. */
    static Side orthogonalise(Device device, BasisTree b) {
        ClusterTree tr = b.tree;
        int q = tr.depth;
        int k = b.leafRank();
        int maxLeaf = 0;
        for (int i = 0; i < tr.leaves; i++) maxLeaf = Math.max(maxLeaf, tr.leafStart[i + 1] - tr.leafStart[i]);
        int[] ranks = new int[q + 1];
        ranks[q] = Math.min(k, maxLeaf);
        for (int l = q - 1; l >= 0; l--) ranks[l] = Math.min(2 * ranks[l + 1], b.levelRank[l]);
        Side s = new Side(tr, b, ranks);
        IntArray leafStart = H2Matrix.ints(tr.leafStart), pointLeaf = H2Matrix.ints(tr.pointLeaf);
        // leaves
        int m = maxLeaf, rq = ranks[q];
        if (rq == 0) { // a basis truncated to nothing: every level of rank 0
            java.util.Arrays.fill(ranks, 0);
            device.free(leafStart, pointLeaf);
            return new Side(tr, b, ranks);
        }
        DoubleArray a = DoubleArray.onDevice((long) tr.leaves * m * k);
        DoubleArray tau = DoubleArray.onDevice((long) tr.leaves * rq);
        DoubleArray qf = DoubleArray.onDevice((long) tr.leaves * m * rq);
        LaunchSequence seq = new LaunchSequence("orthogonalise-leaves", device);
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, leafStart, pointLeaf, s.rOffArray, s.eOffArray)
                .task("pack-leaves", CompressionKernels::packLeaves, b.leafBasis, leafStart, a, k, m, (long) tr.leaves * m * k);
        BatchedQr.append(seq, a, m, k, tr.leaves, tau, qf);
        seq.graph().task("leaf-q", CompressionKernels::leafBasisFrom, b.leafBasis, qf, pointLeaf, leafStart, s.leaf, k, m, rq, rq, 1,
                        (long) tr.size * rq)
                .task("leaf-r", CompressionKernels::upperFactor, a, s.r, s.rOffArray, tr.firstLeaf, m, k, rq, (long) tr.leaves * rq * k);
        run(device, seq);
        device.free(a, tau, qf, leafStart, pointLeaf);
        // inner levels, upwards
        for (int l = q - 1; l >= 0; l--) {
            int rc = ranks[l + 1], kc = b.levelRank[l + 1], kl = b.levelRank[l], rl = ranks[l];
            int parents = 1 << l, t0 = ClusterTree.levelStart(l), zm = 2 * rc;
            if (rl == 0) continue; // nothing to factor: rank 0 above
            DoubleArray z = DoubleArray.onDevice((long) parents * zm * kl);
            DoubleArray zt = DoubleArray.onDevice((long) parents * rl);
            DoubleArray zq = DoubleArray.onDevice((long) parents * zm * rl);
            LaunchSequence ls = new LaunchSequence("orthogonalise-l" + l, device);
            ls.graph().task("stack", CompressionKernels::stackChildren, s.r, s.rOffArray, b.transfers, b.transferOffsetArray, z, t0, rc, kc,
                    kl, zm, (long) parents * zm * kl);
            BatchedQr.append(ls, z, zm, kl, parents, zt, zq);
            ls.graph().task("transfers", CompressionKernels::transfersFrom, zq, s.transfers, s.eOffArray, t0, rc, zm, rl, rl,
                            (long) parents * 2 * rc * rl)
                    .task("r", CompressionKernels::upperFactor, z, s.r, s.rOffArray, t0, zm, kl, rl, (long) parents * rl * kl);
            run(device, ls);
            device.free(z, zt, zq);
        }
        return s;
    }

    /**
     * The Gram matrices of every level of {@code s}, top-down, from the couplings {@code s1} on the orthonormal bases
     * ({@code orthRank_t x orthRank_s}, column-major at {@code sOff[b]}); a side serving rows sums its block rows, one
     * serving columns its block columns, a shared one both.
     */
    /** Whether block rows' Gram matrices run as batched GEMMs (else the per-entry kernel; tests compare the two). */
    static boolean gramByGemm = true;

    /**
     * Whether the Gram matrices' block parts run as {@link CompressionKernels#gramOfBlocksLocal} (ranks up to
     * {@link CompressionKernels#PROJECT_MAX}), before {@link #gramByGemm} is asked (system property
     * {@code squall.h2.gram=gemm} turns it off; tests compare the three).
     */
    static boolean gramLocal = !"gemm".equals(System.getProperty("squall.h2.gram"));

    /**
     * {@code G_t += alpha M_t M_t^T} for the nodes {@code t0 .. t0 + nodes - 1}, {@code M_t} the {@code r x sum(k_s)}
     * column-major run of node {@code t}'s blocks at {@code off[rowPtr[t]]}, as one batched GEMM (where the couplings
     * pass the GEMM's int offsets, runs of block rows are copied to a chunk-sized scratch array, one GEMM each).
     */
    private static void rowGramGemm(Device device, DoubleArray s1, long[] off, int[] rowPtr, int t0, int nodes, int r, DoubleArray g,
            double alpha) {
        long total = off[rowPtr[t0 + nodes]];
        boolean copy = CouplingProjection.forceCopy || total >= Integer.MAX_VALUE;
        java.util.List<int[]> runs = new java.util.ArrayList<>();
        long most = 1;
        for (int n0 = 0; n0 < nodes; ) { // runs of nodes whose blocks fit a chunk when they must be copied
            int n1 = n0 + 1;
            while (n1 < nodes && (!copy || off[rowPtr[t0 + n1 + 1]] - off[rowPtr[t0 + n0]] <= CouplingProjection.chunkValues)) n1++;
            runs.add(new int[] {n0, n1});
            most = Math.max(most, off[rowPtr[t0 + n1]] - off[rowPtr[t0 + n0]]);
            n0 = n1;
        }
        DoubleArray src = copy ? DoubleArray.onDevice(most) : s1; // one chunk for every run
        for (int[] run : runs) {
            int n0 = run[0], n1 = run[1];
            long base = off[rowPtr[t0 + n0]], end = off[rowPtr[t0 + n1]];
            if (end - base >= Integer.MAX_VALUE) throw new IllegalStateException("block row " + (t0 + n0) + " holds more than " + Integer.MAX_VALUE + " values");
            long shift = copy ? base : 0;
            java.util.List<int[]> e = new java.util.ArrayList<>();
            for (int i = n0; i < n1; i++) {
                int t = t0 + i;
                long k = off[rowPtr[t + 1]] - off[rowPtr[t]];
                if (k == 0) continue;
                int a = (int) (off[rowPtr[t]] - shift);
                e.add(new int[] {r, r, (int) (k / r), a, r, a, r, i * r * r, r});
            }
            if (e.isEmpty()) continue;
            int[][] f = new int[9][e.size()];
            for (int x = 0; x < e.size(); x++) for (int y = 0; y < 9; y++) f[y][x] = e.get(x)[y];
            LaunchSequence seq = new LaunchSequence("gram-gemm", device);
            if (copy) seq.graph().task("level-blocks", CompressionKernels::copyRange, s1, base, src, 0L, end - base);
            dev.squall.linalg.gemm.BatchedGemm.append(seq, dev.squall.linalg.gemm.Transpose.N, dev.squall.linalg.gemm.Transpose.T, alpha, src,
                    src, 1.0, g, dev.squall.linalg.gemm.BatchDescriptor.variable(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]), false);
            run(device, seq);
        }
        if (copy) device.free(src);
    }

    static void gram(Device device, Side s, boolean asRow, boolean asCol, DoubleArray s1, LongArray sOff, long[] offsets, BlockLists lists,
            IntArray rowRanks, IntArray colRanks) {
        ClusterTree tr = s.tree;
        // each node's rank and its parent's, for the parents' part as a projection (E_t G_parent E_t^T)
        int[] rankOf = new int[tr.nodes], parentRankOf = new int[tr.nodes];
        for (int t = 0; t < tr.nodes; t++) {
            int l = ClusterTree.level(t);
            rankOf[t] = s.orthRank[l];
            parentRankOf[t] = l == 0 ? 0 : s.orthRank[l - 1];
        }
        IntArray rankArray = H2Matrix.ints(rankOf), parentRankArray = H2Matrix.ints(parentRankOf);
        for (int l = 0; l <= tr.depth; l++) {
            int r = s.orthRank[l], nodes = 1 << l, t0 = ClusterTree.levelStart(l);
            long total = (long) nodes * r * r;
            DoubleArray g = DoubleArray.onDevice(Math.max(1, total));
            s.gram[l] = g;
            TaskGraph tg = new TaskGraph("gram-l" + l);
            DoubleArray h = null;
            KernelArray[] perLevel = {};
            if (l == 0 || r == 0 || s.orthRank[l - 1] == 0) {
                tg.task("zero", H2Kernels::zero, g, Math.max(1, total));
            } else if (gramLocal && r <= CompressionKernels.PROJECT_MAX && s.orthRank[l - 1] <= CompressionKernels.PROJECT_MAX) {
                // G_t = E_t G_parent E_t^T is the projection of the parent's Gram matrix onto E_t: one group per node
                int rp = s.orthRank[l - 1], firstParent = ClusterTree.levelStart(l - 1);
                int[] nodeOf = new int[nodes];
                long[] parentOff = new long[nodes], gOff = new long[nodes];
                for (int e = 0; e < nodes; e++) {
                    nodeOf[e] = t0 + e;
                    parentOff[e] = (long) ((t0 + e - 1) / 2 - firstParent) * rp * rp;
                    gOff[e] = (long) e * r * r;
                }
                IntArray nodeArray = H2Matrix.ints(nodeOf);
                LongArray parentOffArray = H2Matrix.longs(parentOff), gOffArray = H2Matrix.longs(gOff);
                perLevel = new KernelArray[] {nodeArray, parentOffArray, gOffArray};
                tg.transferToDevice(DataTransferMode.FIRST_EXECUTION, rankArray, parentRankArray, nodeArray, parentOffArray, gOffArray)
                        .task("parent", WorkerGrid.of((long) nodes * CompressionKernels.PROJECT_THREADS).withLocal(CompressionKernels.PROJECT_THREADS),
                                CompressionKernels::projectCouplings, new KernelContext(), s.transfers, s.eOffArray, rankArray, parentRankArray,
                                s.transfers, s.eOffArray, rankArray, parentRankArray, s.gram[l - 1], parentOffArray, nodeArray, nodeArray, g, gOffArray, 0);
            } else {
                int rp = s.orthRank[l - 1];
                h = DoubleArray.onDevice((long) nodes * r * rp);
                tg.task("e-g", CompressionKernels::transferTimesGram, s.transfers, s.eOffArray, s.gram[l - 1], h, t0, r, rp, (long) nodes * r * rp)
                        .task("g-et", CompressionKernels::gramFromParent, h, s.transfers, s.eOffArray, g, t0, r, rp, total);
            }
            run(device, tg);
            if (h != null) device.free(h);
            device.free(perLevel);
            if (r == 0) continue;
            // a block row's blocks lie one after another (column-major r x k_s each): together one r x sum(k_s) matrix
            // M_t, whose M_t M_t^T is the row part, one batched GEMM per level; a shared basis of a symmetric matrix
            // (S_st = S_ts^T) has the same column part, so the row part counts twice
            boolean symmetric = asRow && asCol;
            if (gramLocal && r <= CompressionKernels.PROJECT_MAX && lists.maxRank <= CompressionKernels.PROJECT_MAX) {
                // every block staged in local memory, one group per node: no copies, no chunks
                TaskGraph lg = new TaskGraph("gram-local-l" + l);
                WorkerGrid grid = WorkerGrid.of((long) nodes * CompressionKernels.PROJECT_THREADS).withLocal(CompressionKernels.PROJECT_THREADS);
                if (asRow) {
                    lg.task("rows", grid, CompressionKernels::gramOfBlocksLocal, new KernelContext(), s1, sOff, lists.rowPtr, lists.rowList, lists.col,
                            colRanks, g, t0, r, 1, symmetric ? 2.0 : 1.0);
                }
                if (asCol && !symmetric) {
                    lg.task("cols", grid, CompressionKernels::gramOfBlocksLocal, new KernelContext(), s1, sOff, lists.colPtr, lists.colList, lists.row,
                            rowRanks, g, t0, r, 0, 1.0);
                }
                lg.task("flush", CompressionKernels::flushTiny, g, r, total);
                run(device, lg);
                continue;
            }
            if (asRow && gramByGemm) {
                rowGramGemm(device, s1, offsets, lists.rowPtrHost, t0, nodes, r, g, symmetric ? 2.0 : 1.0);
            }
            TaskGraph bg = new TaskGraph("gram-blocks-l" + l);
            if (asRow && !gramByGemm) {
                bg.task("rows", CompressionKernels::gramOfBlocks, s1, sOff, lists.rowPtr, lists.rowList, lists.col, colRanks, g, t0, r, 1, total);
            }
            if (asCol && !(symmetric && gramByGemm)) {
                bg.task("cols", CompressionKernels::gramOfBlocks, s1, sOff, lists.colPtr, lists.colList, lists.row, rowRanks, g, t0, r, 0, total);
            }
            bg.task("flush", CompressionKernels::flushTiny, g, r, total);
            run(device, bg);
        }
        device.free(rankArray, parentRankArray);
    }

    /** Block indices on the device: block rows (CSR, blocks in order) and block columns (CSC) of the couplings. */
    static final class BlockLists {
        final IntArray rowPtr, rowList, colPtr, colList, row, col;
        final int[] rowPtrHost;
        /** The largest rank of a block's side (set by the caller). */
        int maxRank = Integer.MAX_VALUE;

        BlockLists(BlockPartition p, int colNodes) {
            int nb = p.couplingBlocks();
            int[] ids = new int[nb];
            for (int b = 0; b < nb; b++) ids[b] = b;
            int[] cp = new int[colNodes + 1];
            for (int b = 0; b < nb; b++) cp[p.couplingCol[b] + 1]++;
            for (int c = 0; c < colNodes; c++) cp[c + 1] += cp[c];
            int[] at = cp.clone(), cl = new int[nb];
            for (int b = 0; b < nb; b++) cl[at[p.couplingCol[b]]++] = b;
            rowPtrHost = p.couplingRowPtr;
            rowPtr = H2Matrix.ints(p.couplingRowPtr);
            rowList = H2Matrix.ints(ids);
            colPtr = H2Matrix.ints(cp);
            colList = H2Matrix.ints(cl);
            row = H2Matrix.ints(p.couplingRow);
            col = H2Matrix.ints(p.couplingCol);
        }

        void upload(Device device) {
            run(device, new TaskGraph("block-lists").transferToDevice(DataTransferMode.FIRST_EXECUTION, rowPtr, rowList, colPtr, colList, row, col));
        }

        void free(Device device) {
            device.free(rowPtr, rowList, colPtr, colList, row, col);
        }
    }

    /** How many of the descending {@code sigma[from .. from + n)} exceed {@code eps} times the first. */
    private static int kept(double[] sigma, int from, int n, double eps) {
        if (n == 0 || !(sigma[from] > 0)) return 0;
        int c = 0;
        while (c < n && sigma[from + c] > eps * sigma[from]) c++;
        return c;
    }

    /**
     * Truncates {@code s} to relative tolerance {@code eps} upwards from the leaves (its Gram matrices of the leaves
     * and of each level formed by {@link #gram}, freed here as they are used).
     */
    static Truncated truncate(Device device, Side s, double eps) {
        ClusterTree tr = s.tree;
        int q = tr.depth;
        int[] kNew = new int[q + 1];
        int[] nodeKept = new int[tr.nodes];
        double discarded = 0;
        DoubleArray[] eig = new DoubleArray[q + 1], lam = new DoubleArray[q + 1];
        // eigen-decomposition of every level's Gram matrices: each is PSD, so its SVD is one
        for (int l = q; l >= 0; l--) {
            int r = s.orthRank[l], nodes = 1 << l;
            if (r == 0) continue;
            eig[l] = DoubleArray.onDevice((long) nodes * r * r);
            lam[l] = DoubleArray.onDevice((long) nodes * r);
            svd(device, "svd-gram", s.gram[l], r, r, nodes, eig[l], lam[l], true);
            device.free(s.gram[l]);
            s.gram[l] = null;
        }
        // new ranks and factors, upwards; the new basis's arrays are written level by level once its ranks are known
        double[][] lamHost = new double[q + 1][];
        for (int l = q; l >= 0; l--) {
            if (lam[l] != null) lamHost[l] = download(device, lam[l]);
        }
        // leaves: sigma = sqrt(lambda)
        int rq = s.orthRank[q];
        int leafKeep = 0;
        double[] sq = new double[rq];
        for (int i = 0; i < tr.leaves; i++) {
            for (int j = 0; j < rq; j++) sq[j] = Math.sqrt(Math.max(0, lamHost[q][i * rq + j]));
            int kk = kept(sq, 0, rq, eps);
            nodeKept[tr.firstLeaf + i] = kk;
            leafKeep = Math.max(leafKeep, kk);
        }
        kNew[q] = leafKeep;
        for (int i = 0; i < tr.leaves; i++) for (int j = leafKeep; j < rq; j++) discarded += Math.max(0, lamHost[q][i * rq + j]);
        // the inner levels' ranks depend on the SVDs of the level below's results: go level by level
        long[] tOff = new long[tr.nodes + 1];
        DoubleArray[] zs = new DoubleArray[q + 1], us = new DoubleArray[q + 1];
        int[] yRows = new int[q + 1];
        // T of the leaves first (offsets need every level's new rank: allocate T per level, then copy into one array)
        DoubleArray[] tLevel = new DoubleArray[q + 1];
        long[][] tLevelOff = new long[q + 1][];
        tLevel[q] = DoubleArray.onDevice(Math.max(1, (long) tr.leaves * leafKeep * rq));
        tLevelOff[q] = levelOffsets(q, (long) leafKeep * rq);
        LongArray tqOff = H2Matrix.longs(tLevelOff[q]);
        TaskGraph lt = new TaskGraph("truncate-leaf-t").transferToDevice(DataTransferMode.FIRST_EXECUTION, tqOff)
                .task("drop-null", CompressionKernels::dropNullColumns, eig[q], lam[q], rq, rq, (long) tr.leaves * rq * rq);
        if (leafKeep > 0) {
            lt.task("leaf-t", CompressionKernels::projectionFactor, eig[q], eig[q], tLevel[q], tqOff, 0, rq, rq, rq, rq, leafKeep, 1,
                    (long) tr.leaves * leafKeep * rq);
        }
        run(device, lt);
        device.free(tqOff);
        for (int l = q - 1; l >= 0; l--) {
            int r = s.orthRank[l], kc = kNew[l + 1], rc = s.orthRank[l + 1], nodes = 1 << l, t0 = ClusterTree.levelStart(l);
            if (r == 0) {
                tLevel[l] = DoubleArray.onDevice(1);
                tLevelOff[l] = levelOffsets(l, 0);
                continue;
            }
            int zr = 2 * kc, my = Math.max(zr, r);
            DoubleArray z = DoubleArray.onDevice(Math.max(1, (long) nodes * zr * r));
            DoubleArray y = DoubleArray.onDevice((long) nodes * my * r);
            LongArray tcOff = H2Matrix.longs(absolute(tLevelOff[l + 1], ClusterTree.levelStart(l + 1), tr.nodes));
            TaskGraph g = new TaskGraph("truncate-stack-l" + l).transferToDevice(DataTransferMode.FIRST_EXECUTION, tcOff);
            if (zr > 0) {
                g.task("stack", CompressionKernels::stackChildren, tLevel[l + 1], tcOff, s.transfers, s.eOffArray, z, t0, kc, rc, r, zr,
                        (long) nodes * zr * r);
            }
            g.task("weigh", CompressionKernels::weightedStack, z, eig[l], lam[l], y, zr, r, my, (long) nodes * my * r);
            run(device, g);
            device.free(tcOff, eig[l], lam[l]);
            DoubleArray u = DoubleArray.onDevice((long) nodes * my * r), sig = DoubleArray.onDevice((long) nodes * r);
            svd(device, "svd-stack", y, my, r, nodes, u, sig, false);
            device.free(y);
            double[] sh = download(device, sig);
            int keep = 0;
            for (int e = 0; e < nodes; e++) {
                int kk = kept(sh, e * r, r, eps);
                nodeKept[t0 + e] = kk;
                keep = Math.max(keep, kk);
            }
            kNew[l] = keep;
            for (int e = 0; e < nodes; e++) for (int j = keep; j < r; j++) discarded += sh[e * r + j] * sh[e * r + j];
            tLevel[l] = DoubleArray.onDevice(Math.max(1, (long) nodes * keep * r));
            tLevelOff[l] = levelOffsets(l, (long) keep * r);
            LongArray tlOff = H2Matrix.longs(tLevelOff[l]);
            TaskGraph tg = new TaskGraph("truncate-t-l" + l).transferToDevice(DataTransferMode.FIRST_EXECUTION, tlOff)
                    .task("drop-null", CompressionKernels::dropNullColumns, u, sig, my, r, (long) nodes * my * r);
            if (keep > 0) {
                tg.task("t", CompressionKernels::projectionFactor, u, z, tLevel[l], tlOff, 0, my, r, zr, r, keep, 0, (long) nodes * keep * r);
            }
            run(device, tg);
            device.free(tlOff, sig, z);
            zs[l] = null;
            us[l] = u;
            yRows[l] = my;
        }
        // the new basis: leaves from the eigenvectors, transfers from the left factors of each level
        BasisTree nb = new BasisTree(tr, kNew);
        IntArray leafStart = H2Matrix.ints(tr.leafStart), pointLeaf = H2Matrix.ints(tr.pointLeaf);
        TaskGraph bg = new TaskGraph("truncated-basis")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, leafStart, pointLeaf, nb.transferOffsetArray, nb.rankStartArray);
        if (kNew[q] > 0) {
            bg.task("leaf", CompressionKernels::leafBasisFrom, s.leaf, eig[q], pointLeaf, leafStart, nb.leafBasis, rq, rq, rq, kNew[q], 0,
                    (long) tr.size * kNew[q]);
        }
        for (int l = q - 1; l >= 0; l--) {
            int kc = kNew[l + 1], kl = kNew[l];
            if (us[l] != null && kc > 0 && kl > 0) {
                bg.task("transfers-l" + l, CompressionKernels::transfersFrom, us[l], nb.transfers, nb.transferOffsetArray,
                        ClusterTree.levelStart(l), kc, yRows[l], s.orthRank[l], kl, (long) (1 << l) * 2 * kc * kl);
            }
        }
        run(device, bg);
        device.free(leafStart, pointLeaf, eig[q], lam[q]);
        for (DoubleArray u : us) if (u != null) device.free(u);
        // the projection factors of all levels in one node-indexed array
        for (int t = 0; t < tr.nodes; t++) {
            int l = ClusterTree.level(t);
            tOff[t + 1] = tOff[t] + (long) kNew[l] * s.orthRank[l];
        }
        DoubleArray tAll = DoubleArray.onDevice(Math.max(1, tOff[tr.nodes]));
        TaskGraph cg = new TaskGraph("gather-t");
        for (int l = 0; l <= q; l++) {
            long len = (long) (1 << l) * kNew[l] * s.orthRank[l];
            if (len > 0) cg.task("t-l" + l, CompressionKernels::copyRange, tLevel[l], 0L, tAll, tOff[ClusterTree.levelStart(l)], len);
        }
        run(device, cg);
        for (DoubleArray t : tLevel) if (t != null) device.free(t);
        return new Truncated(nb, tAll, tOff, H2Matrix.longs(tOff), discarded, nodeKept);
    }

    /** Offsets of the nodes of level {@code l} within a per-level array, {@code per} values each. */
    private static long[] levelOffsets(int l, long per) {
        int nodes = 1 << l;
        long[] o = new long[nodes + 1];
        for (int e = 0; e <= nodes; e++) o[e] = e * per;
        return o;
    }

    /** Node-indexed offsets ({@code nodes + 1} of them) for a per-level array whose node {@code first + e} is at {@code off[e]}. */
    private static long[] absolute(long[] off, int first, int nodes) {
        long[] o = new long[nodes + 1];
        for (int e = 0; e + 1 < off.length; e++) o[first + e] = off[e];
        return o;
    }

    /**
     * Whether the SVDs of truncation run in local memory ({@link CompressionKernels#jacobiSvd}, the Gram matrices
     * through pivoted Cholesky); else, and for matrices past its sizes, linalg's {@code BatchedSvd} (system property
     * {@code squall.h2.svd=linalg}; tests compare the two).
     */
    static boolean localJacobi = !"linalg".equals(System.getProperty("squall.h2.svd"));

    /**
     * Batched one-sided Jacobi SVD of {@code batch} column-major {@code m x n} matrices ({@code m >= n}) into
     * {@code u}, {@code s}; with {@code gram} the matrices are Gram matrices ({@code m = n}) and {@code u}, {@code s}
     * their eigenvectors and eigenvalues. {@code a} may be overwritten.
     */
    private static void svd(Device device, String name, DoubleArray a, int m, int n, int batch, DoubleArray u, DoubleArray s, boolean gram) {
        IntArray sweeps = IntArray.onDevice(batch);
        DoubleArray largest = DoubleArray.onDevice(batch);
        boolean local = localJacobi && m <= CompressionKernels.JACOBI_MAX_M && n <= CompressionKernels.JACOBI_MAX_N;
        DoubleArray work = local ? null : DoubleArray.onDevice(BatchedSvd.workLength(m, n, batch));
        DoubleArray v = local ? null : DoubleArray.onDevice((long) n * n * batch);
        IntArray rank = local ? null : IntArray.onDevice(batch);
        LaunchSequence seq = new LaunchSequence(name, device);
        seq.graph().task("largest", CompressionKernels::largestEntries, a, largest, (long) m * n, batch)
                .task("flush", CompressionKernels::flushBelow, a, largest, (long) m * n, (long) batch * m * n);
        if (local) {
            // rotate while the pair's cosine exceeds m eps (LAPACK's dgesvj uses sqrt(m) eps)
            seq.graph().task("jacobi", WorkerGrid.of((long) batch * CompressionKernels.JACOBI_THREADS).withLocal(CompressionKernels.JACOBI_THREADS),
                    CompressionKernels::jacobiSvd, new KernelContext(), a, m, n, gram ? 1 : 0, u, s, sweeps, m * 2 * 0x1p-52,
                    BatchedSvd.MAX_SWEEPS);
        } else {
            BatchedSvd.append(seq, a, m, n, batch, work, u, s, v, rank, sweeps, 0.0);
        }
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, sweeps);
        run(device, seq);
        int[] sw = sweeps.toHeapArray();
        device.free(sweeps, largest);
        if (!local) device.free(work, v, rank);
        long sum = 0;
        int most = 0;
        for (int x : sw) {
            sum += x;
            most = Math.max(most, x);
        }
        CompressionParts.trace("%s: %d matrices %d x %d, sweeps mean %.1f, most %d", name, batch, m, n, (double) sum / Math.max(1, batch), most);
    }

    static double[] download(Device device, DoubleArray a) {
        run(device, new TaskGraph("download").transferToHost(DataTransferMode.EVERY_EXECUTION, a));
        return a.toHeapArray();
    }
}
