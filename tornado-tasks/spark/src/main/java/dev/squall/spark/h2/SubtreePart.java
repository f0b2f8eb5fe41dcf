package dev.squall.spark.h2;

import java.io.Serializable;

/**
 * What one Spark task holds of an H2 matrix cut at tree level {@code level}: the subtree under node {@code root} (its
 * points, the structure of its bases, its coupling rows below the root and its dense leaf rows) and the lists of what it
 * reads from other subtrees (halo nodes' {@code xhat}, halo leaves' {@code x}). Node numbers are the whole tree's (BFS);
 * the node vectors of this part are stored in its own compact slots ({@code rankStart} has width {@code k} for its nodes
 * and 0 elsewhere), so the product kernels of {@code hmatrix} run on it unchanged. Built on the driver by
 * {@link SubtreeCut}; the device values are computed in the task ({@link SubtreeSlice}).
 *
 * @param part           the part number ({@code root - (2^level - 1)}), also its Spark partition
 * @param level          the level of the cut
 * @param depth          depth of the whole tree
 * @param root           the subtree's root node
 * @param dim            dimension of the points
 * @param order          Chebyshev order {@code p}
 * @param rank           {@code k = p^dim}
 * @param leafSize       the leaf size {@code m}
 * @param kernel         the covariance kernel, as {@code CovarianceKernel.parse} reads it
 * @param firstPoint     tree position of the subtree's first point
 * @param points         its points in tree order, {@code n_a x dim}
 * @param firstLeafNode  node number of its first leaf
 * @param leafStart      its leaves' point ranges (local positions), {@code 2^(depth - level) + 1} values
 * @param pointLeaf      local leaf of each of its points
 * @param boxes          interpolation boxes of the whole tree (6 per node)
 * @param localBoxes     the boxes of the subtree's nodes in its own BFS order (the transfer kernel's numbering)
 * @param rankStart      node-vector offsets over all nodes (width k on its nodes), {@code nodes + 1} values
 * @param transferOffset offset of each of its nodes' transfer (below the root), over all nodes
 * @param couplingRowPtr its coupling rows (below the root) over all nodes
 * @param couplingColumn column of each coupling block: a slot of its own nodes, or {@code ownNodes + h} for halo node h
 * @param couplingRow    row node of each block (whole-tree number), for the construction kernel
 * @param couplingCol    column node of each block (whole-tree number), for the construction kernel
 * @param haloNodes      the other parts' nodes its couplings read, ascending
 * @param denseRowPtr    dense blocks of its leaves (local leaf numbers)
 * @param denseColumn    column leaf of each dense block: a local leaf, or {@code ownLeaves + h} for halo leaf h
 * @param denseRow       local row leaf of each dense block
 * @param denseOffset    offset of each dense block's values
 * @param haloLeaves     the other parts' leaves its dense blocks read (leaf numbers), ascending
 * @param columnLeafStart point ranges of its leaves and then its halo leaves, in the extended vector
 * @param columnPoints   its points and then its halo leaves' points, {@code (n_a + halo points) x dim}
 * @param haloLeafFirstPoint tree position of each halo leaf's first point (where its x is)
 * @param sendNodes      its nodes that other parts' couplings read, ascending (the task returns their xhat after its root's)
 */
record SubtreePart(int part, int level, int depth, int root, int dim, int order, int rank, int leafSize, String kernel,
                   int firstPoint, double[] points, int firstLeafNode, int[] leafStart, int[] pointLeaf, double[] boxes,
                   double[] localBoxes, int[] rankStart, long[] transferOffset, int[] couplingRowPtr, int[] couplingColumn,
                   int[] couplingRow, int[] couplingCol, int[] haloNodes, int[] denseRowPtr, int[] denseColumn, int[] denseRow,
                   long[] denseOffset, int[] haloLeaves, int[] columnLeafStart, double[] columnPoints, int[] haloLeafFirstPoint, int[] sendNodes)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Points of the subtree. */
    int size() {
        return pointLeaf.length;
    }

    /** Nodes of the subtree. */
    int ownNodes() {
        return (2 << (depth - level)) - 1;
    }

    /** Leaves of the subtree. */
    int ownLeaves() {
        return 1 << (depth - level);
    }

    /** First node of the subtree on tree level {@code l >= level}. */
    int firstNode(int l) {
        return ((root + 1) << (l - level)) - 1;
    }
}
