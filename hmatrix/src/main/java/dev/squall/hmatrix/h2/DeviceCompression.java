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
 * times its largest (its own rank), a level's arrays the largest count of its nodes; the couplings are projected with
 * the leading rows of {@code T_t} ({@code T_t = Q^T Z}) as in step 1, each block at its two nodes' ranks. The squares
 * each node discards sum to the error estimate.</li>
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
            DeviceCompression.free(device, r, rOffArray, leaf, transfers, eOffArray);
            for (DoubleArray g : gram) if (g != null) DeviceCompression.free(device, g);
        }
    }

    /** The truncated basis, the projection factors {@code T_t} (row-major {@code k_t x orthRank_t} at {@code tOff[t]}) and the discarded energy. */
    record Truncated(BasisTree basis, DoubleArray t, long[] tOff, LongArray tOffArray, double discarded, int[] nodeKept) {
    }

    /** Frees the arrays' device copies, the time recorded as the current step's part {@code free}. */
    static void free(Device device, KernelArray... arrays) {
        CompressionParts.host("free", () -> device.free(arrays));
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
            free(device, leafStart, pointLeaf);
            return new Side(tr, b, ranks);
        }
        DoubleArray a = DoubleArray.onDevice((long) tr.leaves * m * k);
        DoubleArray tau = DoubleArray.onDevice((long) tr.leaves * rq);
        DoubleArray qf = DoubleArray.onDevice((long) tr.leaves * m * rq);
        LaunchSequence seq = new LaunchSequence("orthogonalise", device);
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, leafStart, pointLeaf, s.rOffArray, s.eOffArray)
                .task("pack-leaves", CompressionKernels::packLeaves, b.leafBasis, leafStart, a, k, m, (long) tr.leaves * m * k);
        BatchedQr.append(seq, a, m, k, tr.leaves, tau, qf);
        seq.graph().task("leaf-q", CompressionKernels::leafBasisFrom, b.leafBasis, qf, pointLeaf, leafStart, s.leaf, k, m, rq, rq, 1,
                        (long) tr.size * rq)
                .task("leaf-r", CompressionKernels::upperFactor, a, s.r, s.rOffArray, tr.firstLeaf, m, k, rq, (long) tr.leaves * rq * k);
        // inner levels, upwards, in the same plan (no level's sizes depend on a result): one stack, tau and Q array of
        // the largest level's size serves every level, the queue running the levels one after the other
        long zMost = 1, tauMost = 1, qMost = 1;
        for (int l = q - 1; l >= 0; l--) {
            int zm = 2 * ranks[l + 1], kl = b.levelRank[l], rl = ranks[l];
            zMost = Math.max(zMost, (long) (1 << l) * zm * kl);
            tauMost = Math.max(tauMost, (long) (1 << l) * rl);
            qMost = Math.max(qMost, (long) (1 << l) * zm * rl);
        }
        DoubleArray z = q > 0 ? DoubleArray.onDevice(zMost) : null;
        DoubleArray zt = q > 0 ? DoubleArray.onDevice(tauMost) : null;
        DoubleArray zq = q > 0 ? DoubleArray.onDevice(qMost) : null;
        for (int l = q - 1; l >= 0; l--) {
            int rc = ranks[l + 1], kc = b.levelRank[l + 1], kl = b.levelRank[l], rl = ranks[l];
            int parents = 1 << l, t0 = ClusterTree.levelStart(l), zm = 2 * rc;
            if (rl == 0) continue; // nothing to factor: rank 0 above
            seq.graph().task("stack-l" + l, CompressionKernels::stackChildren, s.r, s.rOffArray, b.transfers, b.transferOffsetArray, z, t0, rc,
                    kc, kl, zm, (long) parents * zm * kl);
            BatchedQr.append(seq, z, zm, kl, parents, zt, zq);
            seq.graph().task("transfers-l" + l, CompressionKernels::transfersFrom, zq, s.transfers, s.eOffArray, t0, rc, zm, rl, rl,
                            (long) parents * 2 * rc * rl)
                    .task("r-l" + l, CompressionKernels::upperFactor, z, s.r, s.rOffArray, t0, zm, kl, rl, (long) parents * rl * kl);
        }
        run(device, seq);
        free(device, a, tau, qf, leafStart, pointLeaf);
        if (z != null) free(device, z, zt, zq);
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
        if (copy) free(device, src);
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
        // the parents' part of node t reads its parent's Gram matrix at parentOff[t] of the level above and writes
        // its own at gOff[t] of its level (projectCouplings with block t the node t itself)
        int[] nodeOf = new int[tr.nodes];
        long[] parentOff = new long[tr.nodes], gOff = new long[tr.nodes];
        for (int t = 0; t < tr.nodes; t++) {
            int l = ClusterTree.level(t);
            nodeOf[t] = t;
            gOff[t] = (long) (t - ClusterTree.levelStart(l)) * rankOf[t] * rankOf[t];
            if (l > 0) parentOff[t] = (long) ((t - 1) / 2 - ClusterTree.levelStart(l - 1)) * parentRankOf[t] * parentRankOf[t];
        }
        IntArray rankArray = H2Matrix.ints(rankOf), parentRankArray = H2Matrix.ints(parentRankOf), nodeArray = H2Matrix.ints(nodeOf);
        LongArray parentOffArray = H2Matrix.longs(parentOff), gOffArray = H2Matrix.longs(gOff);
        // the levels' kernels go to one plan, top-down (each level reads the one above on the device); a level that
        // needs the GEMM or per-entry paths runs what is queued first
        GramPlan plan = new GramPlan(device, rankArray, parentRankArray, nodeArray, parentOffArray, gOffArray);
        for (int l = 0; l <= tr.depth; l++) {
            int r = s.orthRank[l], nodes = 1 << l, t0 = ClusterTree.levelStart(l);
            long total = (long) nodes * r * r;
            DoubleArray g = DoubleArray.onDevice(Math.max(1, total));
            s.gram[l] = g;
            if (l == 0 || r == 0 || s.orthRank[l - 1] == 0) {
                plan.graph().task("zero-l" + l, H2Kernels::zero, g, Math.max(1, total));
            } else if (gramLocal && r <= CompressionKernels.PROJECT_MAX && s.orthRank[l - 1] <= CompressionKernels.PROJECT_MAX) {
                // G_t = E_t G_parent E_t^T is the projection of the parent's Gram matrix onto E_t: one group per node
                plan.graph().task("parent-l" + l, WorkerGrid.of((long) nodes * CompressionKernels.PROJECT_THREADS).withLocal(CompressionKernels.PROJECT_THREADS),
                        CompressionKernels::projectCouplings, new KernelContext(), s.transfers, s.eOffArray, rankArray, parentRankArray,
                        s.transfers, s.eOffArray, rankArray, parentRankArray, s.gram[l - 1], parentOffArray, nodeArray, nodeArray, g, gOffArray, t0);
            } else {
                plan.flush();
                int rp = s.orthRank[l - 1];
                DoubleArray h = DoubleArray.onDevice((long) nodes * r * rp);
                run(device, new TaskGraph("gram-l" + l)
                        .task("e-g", CompressionKernels::transferTimesGram, s.transfers, s.eOffArray, s.gram[l - 1], h, t0, r, rp, (long) nodes * r * rp)
                        .task("g-et", CompressionKernels::gramFromParent, h, s.transfers, s.eOffArray, g, t0, r, rp, total));
                free(device, h);
            }
            if (r == 0) continue;
            // a block row's blocks lie one after another (column-major r x k_s each): together one r x sum(k_s) matrix
            // M_t, whose M_t M_t^T is the row part, one batched GEMM per level; a shared basis of a symmetric matrix
            // (S_st = S_ts^T) has the same column part, so the row part counts twice
            boolean symmetric = asRow && asCol;
            if (gramLocal && r <= CompressionKernels.PROJECT_MAX && lists.maxRank <= CompressionKernels.PROJECT_MAX) {
                // every block staged in local memory, one group per node: no copies, no chunks
                WorkerGrid grid = WorkerGrid.of((long) nodes * CompressionKernels.PROJECT_THREADS).withLocal(CompressionKernels.PROJECT_THREADS);
                if (asRow) {
                    plan.graph().task("rows-l" + l, grid, CompressionKernels::gramOfBlocksLocal, new KernelContext(), s1, sOff, lists.rowPtr,
                            lists.rowList, lists.col, colRanks, g, t0, r, 1, symmetric ? 2.0 : 1.0);
                }
                if (asCol && !symmetric) {
                    plan.graph().task("cols-l" + l, grid, CompressionKernels::gramOfBlocksLocal, new KernelContext(), s1, sOff, lists.colPtr,
                            lists.colList, lists.row, rowRanks, g, t0, r, 0, 1.0);
                }
                plan.graph().task("flush-l" + l, CompressionKernels::flushTiny, g, r, total);
                continue;
            }
            plan.flush();
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
        plan.flush();
        free(device, rankArray, parentRankArray, nodeArray, parentOffArray, gOffArray);
    }

    /** Kernels of {@link #gram} queued for one plan, its index arrays uploaded with the first plan that runs. */
    private static final class GramPlan {
        private final Device device;
        private final KernelArray[] upload;
        private TaskGraph graph;
        private int tasks;
        private boolean uploaded;

        GramPlan(Device device, KernelArray... upload) {
            this.device = device;
            this.upload = upload;
        }

        TaskGraph graph() {
            if (graph == null) {
                graph = new TaskGraph("gram");
                if (!uploaded) graph.transferToDevice(DataTransferMode.FIRST_EXECUTION, upload);
                uploaded = true;
            }
            tasks++;
            return graph;
        }

        /** Runs what is queued. */
        void flush() {
            if (graph != null && tasks > 0) run(device, graph);
            graph = null;
            tasks = 0;
        }
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

        /** {@code g} with the lists' uploads added. */
        TaskGraph uploadTo(TaskGraph g) {
            return g.transferToDevice(DataTransferMode.FIRST_EXECUTION, rowPtr, rowList, colPtr, colList, row, col);
        }

        void free(Device device) {
            DeviceCompression.free(device, rowPtr, rowList, colPtr, colList, row, col);
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
     * and of each level formed by {@link #gram}, freed here as they are used). One plan decomposes every level's Gram
     * matrix and brings the eigenvalues to the host; then one plan per inner level (the ranks kept below decide its
     * sizes) forms the level below's projection factors, the level's weighted stacks and their SVDs, and brings the
     * singular values back; a last plan forms the root's factors and the new basis. The projection factors of all
     * levels go to one array, leaves first, each level at an offset known once the ranks below it are.
     */
    static Truncated truncate(Device device, Side s, double eps) {
        ClusterTree tr = s.tree;
        int q = tr.depth;
        int[] kNew = new int[q + 1];
        int[] nodeKept = new int[tr.nodes];
        double discarded = 0;
        DoubleArray[] eig = new DoubleArray[q + 1], lam = new DoubleArray[q + 1];
        // room for the factors at the orthonormal ranks, the most a level keeps
        long room = 0;
        for (int l = 0; l <= q; l++) room += (long) (1 << l) * s.orthRank[l] * s.orthRank[l];
        DoubleArray tAll = DoubleArray.onDevice(Math.max(1, room));
        long[] tOff = new long[tr.nodes + 1];
        // eigen-decomposition of every level's Gram matrices (each is PSD, so its SVD is one), eigenvalues to the host
        LaunchSequence gs = new LaunchSequence("svd-gram", device);
        java.util.List<SvdRun> runs = new java.util.ArrayList<>();
        for (int l = q; l >= 0; l--) {
            int r = s.orthRank[l], nodes = 1 << l;
            if (r == 0) continue;
            eig[l] = DoubleArray.onDevice((long) nodes * r * r);
            lam[l] = DoubleArray.onDevice((long) nodes * r);
            runs.add(appendSvd(gs, "svd-gram", "-l" + l, s.gram[l], r, r, nodes, eig[l], lam[l], true));
        }
        // the downloads after every kernel: none waits for the kernels queued before it while later ones wait to be queued
        for (int l = q; l >= 0; l--) if (lam[l] != null) gs.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, lam[l]);
        for (SvdRun x : runs) gs.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, x.sweeps());
        if (!runs.isEmpty()) run(device, gs);
        for (SvdRun x : runs) x.finish(device);
        for (int l = 0; l <= q; l++) {
            if (s.gram[l] != null) free(device, s.gram[l]);
            s.gram[l] = null;
        }
        double[][] lamHost = new double[q + 1][];
        for (int l = q; l >= 0; l--) {
            if (lam[l] != null) lamHost[l] = lam[l].toHeapArray();
        }
        // leaves: sigma = sqrt(lambda)
        int rq = s.orthRank[q];
        int leafKeep = 0;
        if (rq > 0) {
            double[] sq = new double[rq];
            for (int i = 0; i < tr.leaves; i++) {
                for (int j = 0; j < rq; j++) sq[j] = Math.sqrt(Math.max(0, lamHost[q][i * rq + j]));
                int kk = kept(sq, 0, rq, eps);
                nodeKept[tr.firstLeaf + i] = kk;
                leafKeep = Math.max(leafKeep, kk);
            }
            for (int i = 0; i < tr.leaves; i++) {
                for (int j = nodeKept[tr.firstLeaf + i]; j < rq; j++) discarded += Math.max(0, lamHost[q][i * rq + j]);
            }
        }
        kNew[q] = leafKeep;
        long at = levelFactorOffsets(tOff, q, leafKeep, rq, 0);
        // the level below's factors T (pending until its rank is known), then this level's stacks and SVDs
        Pending below = rq > 0 ? new Pending(eig[q], null, lam[q], rq, rq, rq, 1) : null;
        DoubleArray[] us = new DoubleArray[q + 1];
        int[] yRows = new int[q + 1];
        for (int l = q - 1; l >= 0; l--) {
            int r = s.orthRank[l], kc = kNew[l + 1], rc = s.orthRank[l + 1], nodes = 1 << l, t0 = ClusterTree.levelStart(l);
            LongArray tOffArray = H2Matrix.longs(tOff);
            LaunchSequence seq = new LaunchSequence("truncate-l" + l, device);
            seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, tOffArray);
            if (below != null) below.appendFactor(seq, "-l" + (l + 1), tAll, tOffArray, ClusterTree.levelStart(l + 1), 1 << (l + 1), kc);
            if (r == 0) {
                if (below != null) {
                    run(device, seq);
                    below.free(device);
                }
                free(device, tOffArray);
                below = null;
                at = levelFactorOffsets(tOff, l, 0, 0, at);
                continue;
            }
            int zr = 2 * kc, my = Math.max(zr, r);
            DoubleArray z = DoubleArray.onDevice(Math.max(1, (long) nodes * zr * r));
            DoubleArray y = DoubleArray.onDevice((long) nodes * my * r);
            if (zr > 0) {
                seq.graph().task("stack-l" + l, CompressionKernels::stackChildren, tAll, tOffArray, s.transfers, s.eOffArray, z, t0, kc, rc, r,
                        zr, (long) nodes * zr * r);
            }
            seq.graph().task("weigh-l" + l, CompressionKernels::weightedStack, z, eig[l], lam[l], y, zr, r, my,
                    (long) nodes * my * ((r + 3) / 4));
            DoubleArray u = DoubleArray.onDevice((long) nodes * my * r), sig = DoubleArray.onDevice((long) nodes * r);
            SvdRun sv = appendSvd(seq, "svd-stack", "-l" + l, y, my, r, nodes, u, sig, false);
            seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, sig, sv.sweeps());
            run(device, seq);
            sv.finish(device);
            if (below != null) below.free(device);
            free(device, tOffArray, eig[l], lam[l], y);
            double[] sh = sig.toHeapArray();
            int keep = 0;
            for (int e = 0; e < nodes; e++) {
                int kk = kept(sh, e * r, r, eps);
                nodeKept[t0 + e] = kk;
                keep = Math.max(keep, kk);
            }
            kNew[l] = keep;
            for (int e = 0; e < nodes; e++) for (int j = nodeKept[t0 + e]; j < r; j++) discarded += sh[e * r + j] * sh[e * r + j];
            at = levelFactorOffsets(tOff, l, keep, r, at);
            below = new Pending(u, z, sig, my, r, zr, 0);
            us[l] = u;
            yRows[l] = my;
        }
        tOff[tr.nodes] = at;
        // the root's factors and the new basis: leaves from the eigenvectors, transfers from the left factors of each level
        BasisTree nb = new BasisTree(tr, kNew);
        IntArray leafStart = H2Matrix.ints(tr.leafStart), pointLeaf = H2Matrix.ints(tr.pointLeaf);
        LongArray tOffArray = H2Matrix.longs(tOff);
        LaunchSequence bs = new LaunchSequence("truncated-basis", device);
        bs.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, leafStart, pointLeaf, nb.transferOffsetArray, nb.rankStartArray, tOffArray);
        if (below != null) below.appendFactor(bs, "-l0", tAll, tOffArray, 0, 1, kNew[0]);
        if (kNew[q] > 0) {
            bs.graph().task("leaf", CompressionKernels::leafBasisFrom, s.leaf, eig[q], pointLeaf, leafStart, nb.leafBasis, rq, rq, rq, kNew[q], 0,
                    (long) tr.size * kNew[q]);
        }
        for (int l = q - 1; l >= 0; l--) {
            int kc = kNew[l + 1], kl = kNew[l];
            if (us[l] != null && kc > 0 && kl > 0) {
                bs.graph().task("transfers-l" + l, CompressionKernels::transfersFrom, us[l], nb.transfers, nb.transferOffsetArray,
                        ClusterTree.levelStart(l), kc, yRows[l], s.orthRank[l], kl, (long) (1 << l) * 2 * kc * kl);
            }
        }
        run(device, bs);
        if (below != null) below.free(device);
        free(device, leafStart, pointLeaf);
        if (eig[q] != null) free(device, eig[q], lam[q]);
        for (DoubleArray u : us) if (u != null) free(device, u);
        return new Truncated(nb, tAll, tOff, tOffArray, discarded, nodeKept);
    }

    /**
     * Sets the factor offsets of level {@code l}'s nodes ({@code keep x r} each) from {@code at} in {@code tOff};
     * returns the end of the level.
     */
    private static long levelFactorOffsets(long[] tOff, int l, int keep, int r, long at) {
        int t0 = ClusterTree.levelStart(l);
        for (int e = 0; e < 1 << l; e++) {
            tOff[t0 + e] = at;
            at += (long) keep * r;
        }
        return at;
    }

    /**
     * A level whose SVDs are done and whose projection factors {@code T = Q^T Z} wait for its rank: the left factors
     * {@code q} (column-major {@code m x n} per node, the leaves' eigenvectors with {@code identityZ = 1}), their
     * singular values {@code sig}, the stacks {@code z} ({@code zRows x n}).
     */
    private record Pending(DoubleArray q, DoubleArray z, DoubleArray sig, int m, int n, int zRows, int identityZ) {
        void appendFactor(LaunchSequence seq, String tag, DoubleArray tAll, LongArray tOffArray, int first, int nodes, int keep) {
            seq.graph().task("drop-null" + tag, CompressionKernels::dropNullColumns, q, sig, m, n, (long) nodes * m * n);
            if (keep > 0) {
                seq.graph().task("t" + tag, CompressionKernels::projectionFactor, q, identityZ == 1 ? q : z, tAll, tOffArray, first, m, n, zRows, n,
                        keep, identityZ, (long) nodes * ((keep + 3) / 4) * n);
            }
        }

        /** Frees the stacks and singular values (the left factors stay: the new basis is made from them). */
        void free(Device device) {
            if (z != null) DeviceCompression.free(device, z, sig);
        }
    }

    /**
     * Whether the SVDs of truncation run in local memory ({@link CompressionKernels#jacobiSvd}, the Gram matrices
     * through pivoted Cholesky); else, and for matrices past its sizes, linalg's {@code BatchedSvd} (system property
     * {@code squall.h2.svd=linalg}; tests compare the two).
     */
    static boolean localJacobi = !"linalg".equals(System.getProperty("squall.h2.svd"));

    /**
     * Appends a batched one-sided Jacobi SVD of {@code batch} column-major {@code m x n} matrices ({@code m >= n}) into
     * {@code u}, {@code s} to {@code seq} (task names end in {@code tag}); with {@code gram} the matrices are Gram
     * matrices ({@code m = n}) and {@code u}, {@code s} their eigenvectors and eigenvalues. {@code a} may be
     * overwritten. The caller downloads {@link SvdRun#sweeps} in the plan (after its last kernel); {@link SvdRun#finish}
     * after the plan has run frees the scratch and traces the sweeps.
     */
    private static SvdRun appendSvd(LaunchSequence seq, String name, String tag, DoubleArray a, int m, int n, int batch, DoubleArray u,
            DoubleArray s, boolean gram) {
        IntArray sweeps = IntArray.onDevice(batch);
        DoubleArray largest = DoubleArray.onDevice(batch);
        boolean local = localJacobi && m <= CompressionKernels.JACOBI_MAX_M && n <= CompressionKernels.JACOBI_MAX_N;
        seq.graph().task("largest" + tag, CompressionKernels::largestEntries, a, largest, (long) m * n, batch)
                .task("flush" + tag, CompressionKernels::flushBelow, a, largest, (long) m * n, (long) batch * m * n);
        KernelArray[] scratch;
        if (local) {
            // rotate while the pair's cosine exceeds m eps (LAPACK's dgesvj uses sqrt(m) eps)
            seq.graph().task("jacobi" + tag, WorkerGrid.of((long) batch * CompressionKernels.JACOBI_THREADS).withLocal(CompressionKernels.JACOBI_THREADS),
                    CompressionKernels::jacobiSvd, new KernelContext(), a, m, n, gram ? 1 : 0, u, s, sweeps, m * 2 * 0x1p-52,
                    BatchedSvd.MAX_SWEEPS);
            scratch = new KernelArray[] {sweeps, largest};
        } else {
            DoubleArray work = DoubleArray.onDevice(BatchedSvd.workLength(m, n, batch));
            DoubleArray v = DoubleArray.onDevice((long) n * n * batch);
            IntArray rank = IntArray.onDevice(batch);
            BatchedSvd.append(seq, a, m, n, batch, work, u, s, v, rank, sweeps, 0.0);
            scratch = new KernelArray[] {sweeps, largest, work, v, rank};
        }
        return new SvdRun(name, sweeps, scratch, batch, m, n);
    }

    /** A batched SVD appended to a plan: its sweep counts (brought to the host by the plan) and scratch arrays. */
    private record SvdRun(String name, IntArray sweeps, KernelArray[] scratch, int batch, int m, int n) {
        void finish(Device device) {
            int[] sw = sweeps.toHeapArray();
            free(device, scratch);
            long sum = 0;
            int most = 0;
            for (int x : sw) {
                sum += x;
                most = Math.max(most, x);
            }
            CompressionParts.trace("%s: %d matrices %d x %d, sweeps mean %.1f, most %d", name, batch, m, n, (double) sum / Math.max(1, batch),
                    most);
        }
    }

    static double[] download(Device device, DoubleArray a) {
        run(device, new TaskGraph("download").transferToHost(DataTransferMode.EVERY_EXECUTION, a));
        return a.toHeapArray();
    }
}
