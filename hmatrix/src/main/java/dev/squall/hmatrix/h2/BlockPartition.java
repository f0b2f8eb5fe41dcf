package dev.squall.hmatrix.h2;

import java.util.Arrays;

/**
 * The block structure of an H2 matrix from a dual-tree traversal of a row tree and a column tree: admissible node
 * pairs (boxes that do not touch, and {@code max(diam t, diam s) <= eta dist(t, s)} on bounding boxes, or the
 * box-center condition of {@link H2Options.Admissibility#BOX_CENTER}) become coupling
 * blocks, inadmissible leaf pairs become dense blocks. A pair that is neither is split: both nodes when both have
 * children, else the one that has them.
 *
 * <p>Couplings are stored as one block-sparse row structure over all row-tree nodes ({@code couplingRowPtr} of
 * length {@code rows.nodes + 1}, column node numbers in {@code couplingCol}); since rows are numbered level by level,
 * the blocks of level {@code l} are the contiguous range {@code couplingRowPtr[2^l - 1] .. couplingRowPtr[2^(l+1) - 1]}
 * (BSR per level). Dense blocks likewise over row leaves, with the offset of each block's values.
 */
final class BlockPartition {
    final int[] couplingRowPtr;
    final int[] couplingRow;
    final int[] couplingCol;
    final int[] denseRowPtr;
    final int[] denseRow;
    final int[] denseCol;
    /** Offset of dense block {@code b}'s values; {@code denseOffset[blocks]} is the total. */
    final long[] denseOffset;

    private final ClusterTree rows;
    private final ClusterTree cols;
    private final double eta;
    private final boolean center;

    /** Node pairs met by one traversal: couplings {@code (t << 32) | s}, dense leaf pairs likewise by leaf number. */
    private final class Pairs {
        long[] couplings = new long[64];
        int nc;
        long[] denses = new long[64];
        int nd;

        void coupling(int t, int s) {
            if (nc == couplings.length) couplings = Arrays.copyOf(couplings, nc * 2);
            couplings[nc++] = ((long) t << 32) | s;
        }

        void dense(int t, int s) {
            if (nd == denses.length) denses = Arrays.copyOf(denses, nd * 2);
            denses[nd++] = ((long) (t - rows.firstLeaf) << 32) | (s - cols.firstLeaf);
        }

        /** Traverses the pair {@code (t, s)}: admissible pairs and inadmissible leaf pairs here, others split further. */
        void traverse(int t, int s) {
            if (admissible(t, s)) {
                coupling(t, s);
                return;
            }
            boolean tl = rows.isLeaf(t), sl = cols.isLeaf(s);
            if (tl && sl) {
                dense(t, s);
            } else if (tl) {
                traverse(t, 2 * s + 1);
                traverse(t, 2 * s + 2);
            } else if (sl) {
                traverse(2 * t + 1, s);
                traverse(2 * t + 2, s);
            } else {
                for (int a = 1; a <= 2; a++) {
                    for (int b = 1; b <= 2; b++) traverse(2 * t + a, 2 * s + b);
                }
            }
        }
    }

    /** Pairs from which the traversal goes on in parallel: enough to spread over the host's cores. */
    private static final int PARALLEL_PAIRS = 1024;

    private BlockPartition(ClusterTree rows, ClusterTree cols, double eta, boolean center) {
        this.rows = rows;
        this.cols = cols;
        this.eta = eta;
        this.center = center;
        // breadth-first from the root pair until there are enough pairs to split among the cores, then each pair's
        // subtree traversed on its own; the sort below makes the result independent of the order
        Pairs top = new Pairs();
        long[] frontier = {0L};
        while (frontier.length > 0 && frontier.length < PARALLEL_PAIRS) {
            long[] next = new long[frontier.length * 4];
            int nn = 0;
            for (long pair : frontier) {
                int t = (int) (pair >>> 32), s = (int) pair;
                if (admissible(t, s)) {
                    top.coupling(t, s);
                    continue;
                }
                boolean tl = rows.isLeaf(t), sl = cols.isLeaf(s);
                if (tl && sl) {
                    top.dense(t, s);
                    continue;
                }
                for (int a = tl ? 0 : 1; a <= (tl ? 0 : 2); a++) {
                    for (int b = sl ? 0 : 1; b <= (sl ? 0 : 2); b++) next[nn++] = ((long) (tl ? t : 2 * t + a) << 32) | (sl ? s : 2 * s + b);
                }
            }
            frontier = Arrays.copyOf(next, nn);
        }
        long[] work = frontier;
        Pairs[] parts = new Pairs[work.length];
        java.util.stream.IntStream.range(0, work.length).parallel().forEach(i -> {
            Pairs p = new Pairs();
            p.traverse((int) (work[i] >>> 32), (int) work[i]);
            parts[i] = p;
        });
        int nc = top.nc, nd = top.nd;
        for (Pairs p : parts) {
            nc += p.nc;
            nd += p.nd;
        }
        long[] cp = Arrays.copyOf(top.couplings, nc);
        long[] dp = Arrays.copyOf(top.denses, nd);
        int ac = top.nc, ad = top.nd;
        for (Pairs p : parts) {
            System.arraycopy(p.couplings, 0, cp, ac, p.nc);
            System.arraycopy(p.denses, 0, dp, ad, p.nd);
            ac += p.nc;
            ad += p.nd;
        }
        // block rows by a counting sort on the row node, then each row's columns sorted: the order of sorting the
        // (row, column) pairs, in a few linear passes (which a cold JVM compiles quickly; a parallel sort of a million
        // pairs took a fifth of the traversal's time in a fresh process)
        couplingRowPtr = new int[rows.nodes + 1];
        couplingRow = new int[nc];
        couplingCol = new int[nc];
        groupByRow(cp, nc, rows.nodes, couplingRowPtr, couplingRow, couplingCol);
        denseRowPtr = new int[rows.leaves + 1];
        denseRow = new int[nd];
        denseCol = new int[nd];
        groupByRow(dp, nd, rows.leaves, denseRowPtr, denseRow, denseCol);
        denseOffset = new long[nd + 1];
        for (int b = 0; b < nd; b++) {
            long mi = rows.leafStart[denseRow[b] + 1] - rows.leafStart[denseRow[b]];
            long mj = cols.leafStart[denseCol[b] + 1] - cols.leafStart[denseCol[b]];
            denseOffset[b + 1] = denseOffset[b] + mi * mj;
        }
    }

    /**
     * The pairs {@code (r << 32) | c} ({@code n} of them, {@code r < rowCount}) as rows: {@code ptr} (length
     * {@code rowCount + 1}) the start of each row, {@code row} and {@code col} the pairs ordered by row, then column.
     */
    private static void groupByRow(long[] pairs, int n, int rowCount, int[] ptr, int[] row, int[] col) {
        for (int b = 0; b < n; b++) ptr[(int) (pairs[b] >>> 32) + 1]++;
        for (int t = 0; t < rowCount; t++) ptr[t + 1] += ptr[t];
        int[] at = Arrays.copyOf(ptr, rowCount);
        for (int b = 0; b < n; b++) col[at[(int) (pairs[b] >>> 32)]++] = (int) pairs[b];
        for (int t = 0; t < rowCount; t++) {
            Arrays.sort(col, ptr[t], ptr[t + 1]);
            Arrays.fill(row, ptr[t], ptr[t + 1], t);
        }
    }

    static BlockPartition build(ClusterTree rows, ClusterTree cols, double eta) {
        return build(rows, cols, eta, H2Options.Admissibility.BOX_DISTANCE);
    }

    static BlockPartition build(ClusterTree rows, ClusterTree cols, double eta, H2Options.Admissibility admissibility) {
        if (rows.dim != cols.dim) {
            throw new IllegalArgumentException("row points are " + rows.dim + "-dimensional, column points " + cols.dim + "-dimensional");
        }
        return new BlockPartition(rows, cols, eta, admissibility == H2Options.Admissibility.BOX_CENTER);
    }

    int couplingBlocks() {
        return couplingCol.length;
    }

    int denseBlocks() {
        return denseCol.length;
    }

    boolean admissible(int t, int s) {
        double dist = ClusterTree.distance(rows, t, cols, s);
        if (!(dist > 0)) return false;
        if (center) return 0.5 * (rows.diameter(t) + cols.diameter(s)) <= eta * ClusterTree.centerDistance(rows, t, cols, s);
        return Math.max(rows.diameter(t), cols.diameter(s)) <= eta * dist;
    }
}
