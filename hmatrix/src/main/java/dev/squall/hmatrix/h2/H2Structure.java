package dev.squall.hmatrix.h2;

import dev.squall.hmatrix.points.PointCloud;

/**
 * The block structure of the symmetric {@link H2Matrix} that {@link H2Matrix#build(PointCloud,
 * dev.squall.hmatrix.kernel.CovarianceKernel, H2Options)} makes of the same points and options, computed on the host
 * only (KD-tree and dual-tree traversal, no values): what a caller needs to cut the matrix into subtrees and compute
 * each part's bases, couplings and dense blocks with {@link H2Kernels} elsewhere (a Spark task, say) so that they equal
 * the single-process matrix's.
 *
 * <p>Trees are complete binary trees in BFS order (node {@code t} has children {@code 2t+1, 2t+2}); leaves are the
 * {@code 2^depth} nodes from {@code 2^depth - 1}. Couplings are block-sparse rows over all nodes (both nodes of a block
 * are on the same level), dense blocks block-sparse rows over leaves (leaf numbers from 0). Every accessor returns a
 * copy.
 */
public final class H2Structure {
    private final ClusterTree tree;
    private final BlockPartition partition;
    private final H2Options options;
    private final int rank;

    private H2Structure(PointCloud points, H2Options options) {
        this.options = options;
        double r = Math.pow(options.order(), points.dim());
        if (r > H2Options.MAX_RANK) {
            throw new IllegalArgumentException("order " + options.order() + " in " + points.dim() + " dimensions gives rank " + (long) r
                    + ", more than " + H2Options.MAX_RANK);
        }
        rank = (int) r;
        tree = ClusterTree.build(points, options.leafSize());
        partition = BlockPartition.build(tree, tree, options.eta(), options.admissibility());
    }

    /** The structure of the H2 matrix of {@code points} (one point set) with {@code options} (the device is unused). */
    public static H2Structure of(PointCloud points, H2Options options) {
        return new H2Structure(points, options);
    }

    public H2Options options() {
        return options;
    }

    /** Number of points. */
    public int size() {
        return tree.size;
    }

    public int dim() {
        return tree.dim;
    }

    /** Depth of the tree: leaves are on this level, the root on level 0. */
    public int depth() {
        return tree.depth;
    }

    /** Rank of every basis: {@code order^dim}. */
    public int rank() {
        return rank;
    }

    /** Tree position to the index of the point in the caller's cloud. */
    public int[] permutation() {
        return tree.perm.clone();
    }

    /** Coordinates in tree order, {@code size x dim}. */
    public double[] treePoints() {
        return tree.points.clone();
    }

    /** Interpolation box of every node, 6 values each ({@code lo0 hi0 lo1 hi1 lo2 hi2}), as the kernels read them. */
    public double[] boxes() {
        return tree.interpolationBox.clone();
    }

    /** Leaf {@code i} holds tree positions {@code [leafStart[i], leafStart[i + 1])}. */
    public int[] leafStart() {
        return tree.leafStart.clone();
    }

    /** Coupling blocks of node {@code t}: {@code couplingRowPtr[t] .. couplingRowPtr[t + 1]}, over all nodes. */
    public int[] couplingRowPtr() {
        return partition.couplingRowPtr.clone();
    }

    /** The column node of each coupling block, ascending within a row. */
    public int[] couplingCol() {
        return partition.couplingCol.clone();
    }

    /** Dense blocks of leaf {@code i}: {@code denseRowPtr[i] .. denseRowPtr[i + 1]}, over leaves. */
    public int[] denseRowPtr() {
        return partition.denseRowPtr.clone();
    }

    /** The column leaf of each dense block, ascending within a row. */
    public int[] denseCol() {
        return partition.denseCol.clone();
    }
}
