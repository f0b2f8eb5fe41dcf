package dev.squall.hmatrix.h2;

import dev.squall.hmatrix.points.PointCloud;
import java.util.stream.IntStream;

/**
 * A KD-tree clustering of a point set into a complete binary tree of depth {@code q}, flattened in BFS order: node
 * {@code t} has children {@code 2t+1} and {@code 2t+2}, level {@code l} holds nodes {@code 2^l - 1 .. 2^(l+1) - 2},
 * and the {@code 2^q} leaves are the last level. Each node is split at the median of its widest coordinate into two
 * halves of equal count (the left gets the smaller half when the count is odd), so leaves hold
 * {@code floor(n / 2^q)} or {@code ceil(n / 2^q) <= leafSize} points; the depth is the least that achieves this.
 * The points are permuted into tree order (each node's points are contiguous) and the permutation is kept.
 *
 * <p>The coordinates move with the permutation while splitting, so boxes and medians are computed over contiguous
 * memory, and the nodes of a level (disjoint ranges of points) are split in parallel on the host's cores.
 */
final class ClusterTree {
    final int dim;
    final int size;
    final int depth;
    final int nodes;
    final int firstLeaf;
    final int leaves;
    /** Tree position to the index of the point in the user's cloud. */
    final int[] perm;
    /** Coordinates in tree order, {@code size x dim}. */
    final double[] points;
    /** Node {@code t} holds tree positions {@code [start[t], end[t])}. */
    final int[] start;
    final int[] end;
    /** Bounding boxes of the points, 6 values a node ({@code lo0 hi0 lo1 hi1 lo2 hi2}; unused dimensions 0). */
    final double[] box;
    /** The boxes used for interpolation: the bounding boxes widened where they are flat, so no side has length 0. */
    final double[] interpolationBox;
    /** Leaf {@code i} holds tree positions {@code [leafStart[i], leafStart[i + 1])}. */
    final int[] leafStart;
    /** Leaf number (0-based) of each tree position. */
    final int[] pointLeaf;

    private ClusterTree(PointCloud cloud, int leafSize) {
        if (leafSize < 2) throw new IllegalArgumentException("leaf size must be at least 2, not " + leafSize);
        dim = cloud.dim();
        size = cloud.size();
        if (size == 0) throw new IllegalArgumentException("no points: an H2 matrix needs at least one point in each set");
        int q = 0;
        while (ceilDiv(size, 1L << q) > leafSize) q++;
        depth = q;
        nodes = (1 << (q + 1)) - 1;
        firstLeaf = (1 << q) - 1;
        leaves = 1 << q;
        double[] c = cloud.coordinates();
        for (int i = 0; i < c.length; i++) {
            if (!Double.isFinite(c[i])) {
                throw new IllegalArgumentException("point " + (i / dim) + " has a non-finite coordinate " + c[i]);
            }
        }
        perm = new int[size];
        for (int i = 0; i < size; i++) perm[i] = i;
        points = c; // a copy of the coordinates, reordered into tree order along with perm
        start = new int[nodes];
        end = new int[nodes];
        box = new double[nodes * 6];
        start[0] = 0;
        end[0] = size;
        for (int l = 0; l <= depth; l++) {
            int t0 = levelStart(l), t1 = levelStart(l + 1);
            if (t1 - t0 > 1 && size >= PARALLEL_POINTS) IntStream.range(t0, t1).parallel().forEach(this::split);
            else for (int t = t0; t < t1; t++) split(t);
        }
        leafStart = new int[leaves + 1];
        pointLeaf = new int[size];
        for (int i = 0; i < leaves; i++) {
            leafStart[i] = start[firstLeaf + i];
            for (int a = start[firstLeaf + i]; a < end[firstLeaf + i]; a++) pointLeaf[a] = i;
        }
        leafStart[leaves] = size;
        double rootExtent = 0;
        for (int d = 0; d < dim; d++) rootExtent = Math.max(rootExtent, extent(0, d));
        double minWidth = rootExtent > 0 ? 1e-8 * rootExtent : 1.0;
        interpolationBox = box.clone();
        for (int t = 0; t < nodes; t++) {
            for (int d = 0; d < dim; d++) {
                if (extent(t, d) < minWidth) {
                    double mid = 0.5 * (box[t * 6 + 2 * d] + box[t * 6 + 2 * d + 1]);
                    interpolationBox[t * 6 + 2 * d] = mid - 0.5 * minWidth;
                    interpolationBox[t * 6 + 2 * d + 1] = mid + 0.5 * minWidth;
                }
            }
        }
    }

    /** Point count from which the nodes of a level are split in parallel. */
    private static final int PARALLEL_POINTS = 1 << 15;

    /** Computes node {@code t}'s box and, for an inner node, splits its points at the median of its widest coordinate. */
    private void split(int t) {
        computeBox(t);
        if (t >= firstLeaf) return;
        int axis = 0;
        for (int d = 1; d < dim; d++) {
            if (extent(t, d) > extent(t, axis)) axis = d;
        }
        int mid = start[t] + (end[t] - start[t]) / 2;
        select(axis, start[t], end[t] - 1, mid);
        start[2 * t + 1] = start[t];
        end[2 * t + 1] = mid;
        start[2 * t + 2] = mid;
        end[2 * t + 2] = end[t];
    }

    /** The tree of {@code cloud} with leaves of at most {@code leafSize} points. */
    static ClusterTree build(PointCloud cloud, int leafSize) {
        return new ClusterTree(cloud, leafSize);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    static int level(int node) {
        return 31 - Integer.numberOfLeadingZeros(node + 1);
    }

    static int levelStart(int level) {
        return (1 << level) - 1;
    }

    boolean isLeaf(int node) {
        return node >= firstLeaf;
    }

    double extent(int t, int d) {
        return box[t * 6 + 2 * d + 1] - box[t * 6 + 2 * d];
    }

    /** Diameter of node {@code t}'s bounding box. */
    double diameter(int t) {
        double s = 0;
        for (int d = 0; d < dim; d++) s += extent(t, d) * extent(t, d);
        return Math.sqrt(s);
    }

    /** Euclidean distance between the bounding boxes of node {@code t} of {@code a} and node {@code s} of {@code b}. */
    static double distance(ClusterTree a, int t, ClusterTree b, int s) {
        double sum = 0;
        for (int d = 0; d < a.dim; d++) {
            double gap = Math.max(0, Math.max(a.box[t * 6 + 2 * d] - b.box[s * 6 + 2 * d + 1],
                    b.box[s * 6 + 2 * d] - a.box[t * 6 + 2 * d + 1]));
            sum += gap * gap;
        }
        return Math.sqrt(sum);
    }

    /** Euclidean distance between the centers of the bounding boxes of node {@code t} of {@code a} and node {@code s} of {@code b}. */
    static double centerDistance(ClusterTree a, int t, ClusterTree b, int s) {
        double sum = 0;
        for (int d = 0; d < a.dim; d++) {
            double g = 0.5 * (a.box[t * 6 + 2 * d] + a.box[t * 6 + 2 * d + 1] - b.box[s * 6 + 2 * d] - b.box[s * 6 + 2 * d + 1]);
            sum += g * g;
        }
        return Math.sqrt(sum);
    }

    private void computeBox(int t) {
        for (int d = 0; d < dim; d++) {
            double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
            for (int a = start[t] * dim + d, e = end[t] * dim; a < e; a += dim) {
                double x = points[a];
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
            box[t * 6 + 2 * d] = lo;
            box[t * 6 + 2 * d + 1] = hi;
        }
    }

    /**
     * Reorders {@code perm[lo..hi]} so that position {@code kth} holds the point whose {@code axis} coordinate would
     * be there in sorted order, smaller-or-equal ones before it and greater-or-equal ones after (quickselect with a
     * three-way partition, so many equal coordinates cost no more than distinct ones).
     */
    private void select(int axis, int lo, int hi, int kth) {
        while (lo < hi) {
            double pivot = points[(lo + (hi - lo) / 2) * dim + axis];
            int lt = lo, i = lo, gt = hi;
            while (i <= gt) {
                double v = points[i * dim + axis];
                if (v < pivot) swap(lt++, i++);
                else if (v > pivot) swap(i, gt--);
                else i++;
            }
            if (kth < lt) hi = lt - 1;
            else if (kth > gt) lo = gt + 1;
            else return;
        }
    }

    /** Swaps tree positions {@code i} and {@code j}: their permutation entries and coordinates. */
    private void swap(int i, int j) {
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        for (int d = 0, a = i * dim, b = j * dim; d < dim; d++) {
            double x = points[a + d];
            points[a + d] = points[b + d];
            points[b + d] = x;
        }
    }
}
