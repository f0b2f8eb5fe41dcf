package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Arrays;

/**
 * A partition of a point set into clusters that are contiguous once the points are sorted: sorted point {@code k} is
 * original point {@code order[k]}, and cluster {@code q} holds sorted points {@code [start[q], start[q+1])}. Clusters
 * may be empty.
 *
 * <p>{@link #grid} clusters by grid cells: a device kernel computes each point's cell and its Morton (Z-order) key,
 * the host sorts the keys (LSD radix sort, linear in the point count) and cuts the sorted order where the key
 * changes. Z-order keeps nearby cells near each other, so the kept source cells of a target cell merge into few ranges.
 *
 * <pre>{@code
 * Clustering c = Clustering.grid(points, 0.05, device);   // cells of side 0.05
 * Clustering l = Clustering.fromLabels(new int[] {2, 0, 2}, 4);   // clusters 1 and 3 empty
 * }</pre>
 */
public final class Clustering {
    private final int[] order;
    private final int[] start;
    /** For grid clusterings: the Morton key of each cluster (ascending), the grid's lower corner, 1 / cell and bits per coordinate. */
    private final long[] clusterKeys;
    private final double[] lo;
    private final double invCell;
    private final int bits;

    private Clustering(int[] order, int[] start) {
        this(order, start, null, null, 0, 0);
    }

    private Clustering(int[] order, int[] start, long[] clusterKeys, double[] lo, double invCell, int bits) {
        this.order = order;
        this.start = start;
        this.clusterKeys = clusterKeys;
        this.lo = lo;
        this.invCell = invCell;
        this.bits = bits;
    }

    /** One cluster holding every point, in order. */
    public static Clustering single(int n) {
        int[] order = new int[n];
        Arrays.setAll(order, i -> i);
        return new Clustering(order, new int[] {0, n});
    }

    /**
     * Clusters given by a label per point ({@code 0 <= label < clusters}); points keep their relative order within
     * a cluster. Labels no point has give empty clusters.
     *
     * @throws IllegalArgumentException naming a label out of range
     */
    public static Clustering fromLabels(int[] labels, int clusters) {
        if (clusters < 1) throw new IllegalArgumentException("need at least one cluster, got " + clusters);
        int[] start = new int[clusters + 1];
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= clusters) {
                throw new IllegalArgumentException("label " + labels[i] + " of point " + i + " is not in [0, " + clusters + ")");
            }
            start[labels[i] + 1]++;
        }
        for (int q = 0; q < clusters; q++) start[q + 1] += start[q];
        int[] next = Arrays.copyOf(start, clusters);
        int[] order = new int[labels.length];
        for (int i = 0; i < labels.length; i++) order[next[labels[i]]++] = i;
        return new Clustering(order, start);
    }

    /**
     * Grid cells of side {@code cell} from the points' lower corner; cells are numbered along the Z-order curve with
     * at most {@code 62 / dim} bits per coordinate (points beyond the last cell of a coordinate share it). Only
     * non-empty cells become clusters.
     *
     * @throws IllegalArgumentException if {@code cell} is not positive and finite
     */
    public static Clustering grid(PointSet points, double cell, Device device) {
        if (!(cell > 0) || Double.isInfinite(cell)) throw new IllegalArgumentException("cell size must be positive and finite, got " + cell);
        int n = points.size(), dim = points.dim();
        double[] lo = new double[dim], hi = new double[dim];
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < n; i++) {
            for (int d = 0; d < dim; d++) {
                lo[d] = Math.min(lo[d], points.coord(i, d));
                hi[d] = Math.max(hi[d], points.coord(i, d));
            }
        }
        double extent = 0;
        for (int d = 0; d < dim; d++) extent = Math.max(extent, hi[d] - lo[d]);
        long cellsPerSide = (long) Math.min(1e15, Math.floor(extent / cell) + 1);
        int bits = Math.max(1, Math.min(62 / dim, 64 - Long.numberOfLeadingZeros(cellsPerSide - 1)));
        DoubleArray x = new DoubleArray((long) n * dim), loArray = new DoubleArray(dim);
        dev.squall.tasks.runtime.Precision.write(x, points.coordinates());
        dev.squall.tasks.runtime.Precision.write(loArray, lo);
        LongArray keys = new LongArray(n);
        TaskGraph g = new TaskGraph("ksum-cells").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, loArray)
                .task("keys", KernelSumKernelsF64::mortonKeys, x, keys, loArray, n, dim, 1.0 / cell, bits)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, keys);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            plan.execute();
        }
        device.free(x, loArray, keys);
        long[] k = new long[n];
        for (int i = 0; i < n; i++) k[i] = keys.get(i);
        int[] order = sortByKey(k);
        int clusters = 0;
        int[] start = new int[n + 1];
        long[] clusterKeys = new long[n];
        for (int s = 0; s < n; s++) {
            if (s == 0 || k[order[s]] != k[order[s - 1]]) {
                clusterKeys[clusters] = k[order[s]];
                start[clusters++] = s;
            }
        }
        start[clusters] = n;
        return new Clustering(order, Arrays.copyOf(start, clusters + 1), Arrays.copyOf(clusterKeys, clusters), lo, 1.0 / cell, bits);
    }

    /** Whether this is a grid clustering (clusters are grid cells in Morton order, {@link #clusterRange} works). */
    boolean isGrid() {
        return clusterKeys != null;
    }

    /**
     * The clusters {@code [from, to)} whose cells may meet the box {@code [boxLo, boxHi]} (a grid clustering): the
     * Morton key is monotone in each cell coordinate, so every cell meeting the box has a key between those of the
     * box's corners' cells; clusters outside the returned interval hold no point of the box.
     */
    int[] clusterRange(double[] boxLo, double[] boxHi) {
        long kLo = mortonKey(boxLo), kHi = mortonKey(boxHi);
        return new int[] {lowerBound(kLo), lowerBound(kHi + 1)};
    }

    /** The cell key of a point, as {@code KernelSumKernelsF64.mortonKeys} computes it on the device. */
    private long mortonKey(double[] p) {
        long key = 0L, top = (1L << bits) - 1L;
        for (int d = 0; d < p.length; d++) {
            double u = Math.floor((p[d] - lo[d]) * invCell);
            long cell = 0L;
            if (u > 0.0) cell = u >= (double) top ? top : (long) u;
            for (int bit = 0; bit < bits; bit++) key |= ((cell >>> bit) & 1L) << (bit * p.length + d);
        }
        return key;
    }

    /** The first cluster whose key is at least {@code key}. */
    private int lowerBound(long key) {
        int a = 0, b = clusterKeys.length;
        while (a < b) {
            int mid = (a + b) >>> 1;
            if (clusterKeys[mid] < key) a = mid + 1;
            else b = mid;
        }
        return a;
    }

    /** The point indices sorted by key, ties in index order (a stable LSD radix sort, 8 bits a pass). */
    static int[] sortByKey(long[] keys) {
        int n = keys.length;
        int[] order = new int[n], tmp = new int[n];
        Arrays.setAll(order, i -> i);
        long all = 0;
        for (long key : keys) all |= key;
        int[] count = new int[257];
        for (int shift = 0; shift < 64 && (all >>> shift) != 0; shift += 8) {
            Arrays.fill(count, 0);
            for (int i = 0; i < n; i++) count[(int) ((keys[order[i]] >>> shift) & 0xff) + 1]++;
            for (int v = 0; v < 256; v++) count[v + 1] += count[v];
            for (int i = 0; i < n; i++) tmp[count[(int) ((keys[order[i]] >>> shift) & 0xff)]++] = order[i];
            int[] t = order;
            order = tmp;
            tmp = t;
        }
        return order;
    }

    /** Number of clusters. */
    public int clusters() {
        return start.length - 1;
    }

    /** Number of points. */
    public int points() {
        return order.length;
    }

    /** Sorted position to original index (a copy). */
    public int[] order() {
        return order.clone();
    }

    /** Cluster boundaries in the sorted order, {@code clusters() + 1} values (a copy). */
    public int[] start() {
        return start.clone();
    }

    /** Points of the largest cluster. */
    public int largest() {
        int m = 0;
        for (int q = 0; q < clusters(); q++) m = Math.max(m, start[q + 1] - start[q]);
        return m;
    }

    int[] orderView() {
        return order;
    }

    int[] startView() {
        return start;
    }

    @Override
    public String toString() {
        return clusters() + " clusters of " + points() + " points (largest " + largest() + ")";
    }
}
