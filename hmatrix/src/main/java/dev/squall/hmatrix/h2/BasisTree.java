package dev.squall.hmatrix.h2;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.LongArray;

/**
 * The nested basis of one cluster tree, as the device holds it: the leaf basis ({@code size x leafRank}, row-major in
 * tree order) and one transfer matrix per non-root node ({@code k_c x k_parent}, row-major, at
 * {@code transferOffset[c]}), stored at one rank a level ({@code levelRank}; a node's own rank {@code nodeRank} may be
 * smaller, its columns past it zero); node {@code t}'s coefficients start
 * at {@code rankStart[t]} in the per-node vectors. Bases built on the device have no host copy of their values.
 */
final class BasisTree {
    final ClusterTree tree;
    final int[] levelRank;
    final int[] rankStart;
    final long[] transferOffset;
    final DoubleArray leafBasis;
    final DoubleArray transfers;
    final IntArray rankStartArray;
    final LongArray transferOffsetArray;
    /**
     * Each node's rank: the columns of its basis that may be non-zero, and its side of every coupling block (at most
     * its level's rank; the basis's columns past it are zero, so the product's coefficient vectors are zero there).
     */
    final int[] nodeRank;

    /**
     * A basis with the given ranks whose values the device computes: the leaf basis and transfers are device-only
     * arrays (no host memory, zero-filled on the device).
     */
    BasisTree(ClusterTree tree, int[] levelRank) {
        this(tree, levelRank, false);
    }

    /** A basis with the given ranks; with {@code hostValues} its value arrays have host memory (zero) to fill and upload. */
    BasisTree(ClusterTree tree, int[] levelRank, boolean hostValues) {
        this.tree = tree;
        this.levelRank = levelRank.clone();
        nodeRank = new int[tree.nodes];
        for (int t = 0; t < tree.nodes; t++) nodeRank[t] = levelRank[ClusterTree.level(t)];
        rankStart = new int[tree.nodes + 1];
        transferOffset = new long[tree.nodes + 1];
        for (int t = 0; t < tree.nodes; t++) {
            int l = ClusterTree.level(t);
            rankStart[t + 1] = rankStart[t] + levelRank[l];
            long size = l == 0 ? 0 : (long) levelRank[l] * levelRank[l - 1];
            transferOffset[t + 1] = transferOffset[t] + size;
        }
        long leafValues = Math.max(1, (long) tree.size * leafRank()), transferValues = Math.max(1, transferOffset[tree.nodes]);
        leafBasis = hostValues ? new DoubleArray(leafValues) : DoubleArray.onDevice(leafValues);
        transfers = hostValues ? new DoubleArray(transferValues) : DoubleArray.onDevice(transferValues);
        rankStartArray = H2Matrix.ints(rankStart);
        transferOffsetArray = H2Matrix.longs(transferOffset);
    }

    /** Every level of rank {@code k}. */
    static BasisTree uniform(ClusterTree tree, int k) {
        int[] r = new int[tree.depth + 1];
        java.util.Arrays.fill(r, k);
        return new BasisTree(tree, r);
    }

    int leafRank() {
        return levelRank[tree.depth];
    }

    int rank(int node) {
        return levelRank[ClusterTree.level(node)];
    }

    /** Node {@code t}'s rank ({@link #nodeRank}). */
    int nodeRank(int node) {
        return nodeRank[node];
    }

    /** Whether every node's rank is its level's. */
    boolean uniform() {
        for (int t = 0; t < tree.nodes; t++) if (nodeRank[t] != rank(t)) return false;
        return true;
    }

    /** Values of the leaf basis and the transfers. */
    long valueBytes() {
        return 8L * ((long) tree.size * leafRank() + transferOffset[tree.nodes]);
    }

    long basisBytes() {
        return 8L * tree.size * leafRank();
    }

    long transferBytes() {
        return 8L * transferOffset[tree.nodes];
    }

    /** Entries of all node vectors for one vector. */
    int coefficients() {
        return rankStart[tree.nodes];
    }
}
