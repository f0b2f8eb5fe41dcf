package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.Profile;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Objects;

/**
 * Block-sparse kernel sums (the KeOps scheme): both clouds are clustered and sorted so every cluster is contiguous,
 * each cluster gets a centroid and radius (on the device), a keep rule decides which (target cluster, source cluster)
 * tiles to compute, the kept source clusters of each target cluster are merged into contiguous source ranges (on the
 * device: one kernel counts, the host adds up the counts, the same kernel writes), and the tiled kernel walks only
 * those ranges. Results come back in the caller's point order.
 *
 * <p>Every result carries, per row, a rigorous bound on what the dropped tiles contribute: for each dropped source
 * cluster, the kernel at the smallest distance the two clusters' balls allow times the cluster's {@code sum |b|}
 * (largest over columns). The kernels decrease with distance, so no dropped pair exceeds it. The bound covers the
 * dropped terms; the rounding of the kept ones is that of the dense sum.
 *
 * <p>With a rule that keeps every tile, the sum of each target visits the same sources in the same order as the dense
 * kernel on the sorted points, so the two agree bit for bit; against the dense sum in the caller's order they agree
 * to rounding, because sorting changes the order in which each target adds its sources.
 *
 * <pre>{@code
 * BlockSparseSum bs = BlockSparseSum.build(engine, x, y, Clustering.grid(x, 0.05, dev), Clustering.grid(y, 0.05, dev));
 * KernelSum.Result r = bs.apply(b, 1, KeepRule.within(0.3));   // r.keptFraction(), r.maxBound()
 * }</pre>
 */
public final class BlockSparseSum {
    /**
     * Decides which tiles to compute: a distance rule or a mask over (target cluster, source cluster) pairs. With
     * {@code tightBounds} every dropped source cluster is bounded on its own (the range search visits all cluster
     * pairs); without, the range search over a grid clustering of the sources visits only the clusters near each target
     * cluster and bounds all the far ones together by a value below {@code 2^-50} times one term at the cutoff.
     */
    public record KeepRule(double cutoff, int[] mask, boolean tightBounds) {
        /**
         * Keeps a tile when its two clusters may hold points closer than {@code cutoff}; far clusters share one bound
         * (fast range search).
         */
        public static KeepRule within(double cutoff) {
            if (!(cutoff >= 0)) throw new IllegalArgumentException("cutoff must be a non-negative distance, got " + cutoff);
            return new KeepRule(cutoff, null, false);
        }

        /**
         * {@link #within} with each dropped cluster bounded on its own: every row's bound stays tight even where the
         * row's value is far below the terms at the cutoff (what a relative tolerance needs), at the cost of a range
         * search over all cluster pairs.
         */
        public static KeepRule withinTightBounds(double cutoff) {
            if (!(cutoff >= 0)) throw new IllegalArgumentException("cutoff must be a non-negative distance, got " + cutoff);
            return new KeepRule(cutoff, null, true);
        }

        /** Keeps every tile. */
        public static KeepRule all() {
            return new KeepRule(Double.POSITIVE_INFINITY, null, true);
        }

        /** Keeps tile {@code (t, s)} when {@code keep[t][s]}, for target cluster {@code t} and source cluster {@code s}. */
        public static KeepRule mask(boolean[][] keep) {
            int rows = keep.length, cols = rows == 0 ? 0 : keep[0].length;
            int[] m = new int[rows * cols];
            for (int t = 0; t < rows; t++) {
                if (keep[t].length != cols) throw new IllegalArgumentException("mask row " + t + " has " + keep[t].length + " entries, row 0 has " + cols);
                for (int s = 0; s < cols; s++) m[t * cols + s] = keep[t][s] ? 1 : 0;
            }
            return new KeepRule(Double.NaN, m, true);
        }

        @Override
        public String toString() {
            return mask != null ? "mask" : Double.isInfinite(cutoff) ? "all" : "within " + cutoff;
        }
    }

    /** One clustered, sorted cloud with its cluster geometry. */
    private record Side(PointSet sorted, Clustering clustering, DoubleArray coords, IntArray start, DoubleArray centroids,
            DoubleArray radii, KernelArray values) {
    }

    private final KernelSum engine;
    private final Side targets;
    private final Side sources;
    /** The midpoint of both clouds' bounding box, subtracted before the points are rounded to the precision. */
    private final double[] mid;

    private BlockSparseSum(KernelSum engine, Side targets, Side sources, double[] mid) {
        this.engine = engine;
        this.targets = targets;
        this.sources = sources;
        this.mid = mid;
    }

    /**
     * Sorts both clouds by their clusterings and computes every cluster's centroid and radius on the engine's device.
     *
     * @throws IllegalArgumentException for a user kernel, clouds of different dimensions, or a clustering of another size
     */
    public static BlockSparseSum build(KernelSum engine, PointSet targets, PointSet sources, Clustering targetClusters,
            Clustering sourceClusters) {
        Objects.requireNonNull(engine, "engine");
        if (engine.kernel().isUser()) {
            throw new IllegalArgumentException("block-sparse sums need a built-in kernel (its decay bounds what is dropped); "
                    + engine.kernel() + " is a user kernel");
        }
        if (targets.dim() != sources.dim()) {
            throw new IllegalArgumentException("targets are " + targets.dim() + "-dimensional, sources " + sources.dim() + "-dimensional");
        }
        if (targetClusters.points() != targets.size()) {
            throw new IllegalArgumentException("target clustering covers " + targetClusters.points() + " points, there are " + targets.size());
        }
        if (sourceClusters.points() != sources.size()) {
            throw new IllegalArgumentException("source clustering covers " + sourceClusters.points() + " points, there are " + sources.size());
        }
        double[] mid = targets.midpoint(sources);
        return new BlockSparseSum(engine, side(engine, targets, targetClusters, mid), side(engine, sources, sourceClusters, mid), mid);
    }

    private static Side side(KernelSum engine, PointSet points, Clustering c, double[] mid) {
        PointSet sorted = points.permuted(c.orderView());
        int dim = points.dim(), q = c.clusters();
        DoubleArray coords = new DoubleArray((long) points.size() * dim);
        Precision.write(coords, sorted.coordinates());
        IntArray start = IntArray.fromArray(c.startView());
        DoubleArray centroids = new DoubleArray((long) q * dim), radii = new DoubleArray(q);
        TaskGraph g = new TaskGraph("ksum-geometry").transferToDevice(DataTransferMode.FIRST_EXECUTION, coords, start)
                .task("geometry", KernelSumKernelsF64::clusterGeometry, coords, start, centroids, radii, q, dim)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, centroids, radii);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(engine.device())) {
            plan.execute();
        }
        KernelArray values = engine.precision().fromDoubles(sorted.shiftedCoordinates(mid));
        return new Side(sorted, c, coords, start, centroids, radii, values);
    }

    /** The target clustering. */
    public Clustering targetClusters() {
        return targets.clustering;
    }

    /** The source clustering. */
    public Clustering sourceClusters() {
        return sources.clustering;
    }

    /** {@code a = K b} over the kept tiles ({@code b}: {@code N x cols}, in the caller's order; so is the result). */
    public KernelSum.Result apply(double[] b, int cols, KeepRule rule) {
        return apply(b, cols, rule, 0);
    }

    /**
     * {@code a = K b} over the kept tiles, the tiled kernel executed once and then {@code repeat} more times on the
     * resident data (the ranges are found once); the profile is that of the median repeat.
     */
    public KernelSum.Result apply(double[] b, int cols, KeepRule rule, int repeat) {
        KernelSum.check(targets.sorted, sources.sorted, b, cols, sources.sorted.size(), "b");
        if (repeat < 0) throw new IllegalArgumentException("repeat count must not be negative, got " + repeat);
        return reduce(targets, sources, b, cols, rule, false, repeat);
    }

    /**
     * {@code b' = K^T a} over the transposed tiles: for each source cluster the kept target clusters, merged into
     * ranges ({@code a}: {@code M x cols}; the result {@code N x cols}).
     */
    public KernelSum.Result applyTransposed(double[] a, int cols, KeepRule rule) {
        KernelSum.check(targets.sorted, sources.sorted, a, cols, targets.sorted.size(), "a");
        return reduce(sources, targets, a, cols, rule, true, 0);
    }

    /** Kept ranges and the reduction, with {@code out} the side reduced onto and {@code in} the side summed over. */
    private KernelSum.Result reduce(Side out, Side in, double[] v, int cols, KeepRule rule, boolean transposed, int repeat) {
        Objects.requireNonNull(rule, "rule");
        int tq = out.clustering.clusters(), sq = in.clustering.clusters(), dim = out.sorted.dim();
        if (rule.mask() != null && rule.mask().length != (long) targets.clustering.clusters() * sources.clustering.clusters()) {
            throw new IllegalArgumentException("the cluster mask has " + rule.mask().length + " entries; "
                    + targets.clustering.clusters() + " target clusters x " + sources.clustering.clusters() + " source clusters need "
                    + (long) targets.clustering.clusters() * sources.clustering.clusters());
        }
        Device dev = engine.device();
        Precision p = engine.precision();
        PairKernel k = engine.kernel();
        int[] inOrder = in.clustering.orderView();
        double[] sortedV = new double[v.length];
        for (int s = 0; s < inOrder.length; s++) System.arraycopy(v, inOrder[s] * cols, sortedV, s * cols, cols);

        long r0 = System.nanoTime();
        DoubleArray vd = new DoubleArray(sortedV.length), absSums = new DoubleArray(sq);
        Precision.write(vd, sortedV);
        IntArray mask = rule.mask() == null ? new IntArray(1) : IntArray.fromArray(rule.mask());
        double cutoff = rule.mask() == null ? Math.min(rule.cutoff(), Double.MAX_VALUE) : 0;
        IntArray counts = new IntArray(tq), offsets = new IntArray(tq + 1L), none = new IntArray(2);
        LongArray kept = new LongArray(tq);
        DoubleArray bounds = new DoubleArray(tq);
        int maskMode = rule.mask() == null ? 0 : transposed ? 2 : 1;
        IntArray scan = new IntArray(Math.max(2L, 2L * tq));
        double[] far = scanLimits(out, in, rule, sortedV, cols, scan);
        TaskGraph count = new TaskGraph("ksum-count")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, vd, in.start, out.centroids, out.radii, in.centroids, in.radii, mask, offsets,
                        scan)
                .task("abs", KernelSumKernelsF64::clusterAbsSums, vd, in.start, absSums, sq, cols)
                .task("count", KernelSumKernelsF64::clusterRanges, out.centroids, out.radii, in.centroids, in.radii, in.start, absSums,
                        mask, maskMode, far[1], tq, sq, dim, cutoff, k.code(), k.inverseSquaredLength(), 0, offsets, none, counts, kept, bounds,
                        scan)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, counts, kept, bounds);
        try (ExecutionPlan plan = new ExecutionPlan(count.snapshot()).withDevice(dev)) {
            plan.execute();
        }
        int total = 0;
        for (int t = 0; t < tq; t++) {
            bounds.set(t, bounds.get(t) + far[0]);
            offsets.set(t, total);
            total = Math.addExact(total, counts.get(t));
        }
        offsets.set(tq, total);
        IntArray ranges = new IntArray(Math.max(2L, 2L * total));
        TaskGraph write = new TaskGraph("ksum-ranges")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, offsets)
                .task("write", KernelSumKernelsF64::clusterRanges, out.centroids, out.radii, in.centroids, in.radii, in.start, absSums,
                        mask, maskMode, far[1], tq, sq, dim, cutoff, k.code(), k.inverseSquaredLength(), 1, offsets, ranges, counts, kept, bounds,
                        scan)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, ranges);
        try (ExecutionPlan plan = new ExecutionPlan(write.snapshot()).withDevice(dev)) {
            plan.execute();
        }
        double rangesMs = (System.nanoTime() - r0) / 1e6;

        int[] outStart = out.clustering.startView();
        int m = out.sorted.size(), n = in.sorted.size();
        // every non-empty target cluster keeps the one range of all sources: this is the dense product, run as such
        // (same tiles, same kernel)
        boolean whole = m > 0;
        for (int t = 0; t < tq && whole; t++) {
            if (outStart[t + 1] == outStart[t]) continue;
            int r = offsets.get(t);
            whole = offsets.get(t + 1) - r == 1 && ranges.get(2 * r) == 0 && ranges.get(2 * r + 1) == n;
        }
        int width = whole ? KernelSum.DENSE_WIDTH : tileWidth(outStart);
        IntArray tiles = whole ? TiledReduction.denseTiles(m, width) : TiledReduction.clusterTiles(outStart, width);
        IntArray tileOffsets = whole ? IntArray.fromArray(0, 1) : offsets, tileRanges = whole ? IntArray.fromArray(0, n) : ranges;
        KernelArray in32 = p.fromDoubles(sortedV);
        KernelArray result = p.allocate((long) m * cols);
        double[] sortedResult;
        Profile profile, first;
        try (TiledReduction r = TiledReduction.sums(dev, p, k, out.values, in.values, in32, result, dim, cols, tiles, tileOffsets,
                tileRanges, width, expansion(out, in, whole, sortedV))) {
            first = r.run();
            profile = r.median(first, repeat);
            sortedResult = r.result(m * cols);
        }
        dev.free(vd, absSums, mask, counts, offsets, none, kept, bounds, ranges, tiles, tileOffsets, tileRanges, scan);

        int[] outOrder = out.clustering.orderView();
        double[] values = new double[m * cols], rowBounds = new double[m];
        long pairs = 0;
        for (int t = 0; t < tq; t++) {
            pairs += (long) (outStart[t + 1] - outStart[t]) * kept.get(t);
            for (int s = outStart[t]; s < outStart[t + 1]; s++) {
                System.arraycopy(sortedResult, s * cols, values, outOrder[s] * cols, cols);
                rowBounds[outOrder[s]] = bounds.get(t);
            }
        }
        double fraction = (double) pairs / ((double) m * in.sorted.size());
        return new KernelSum.Result(values, profile, pairs, fraction, rowBounds, rangesMs, first.hostMicros() / 1e3);
    }

    /**
     * The source clusters each target cluster's range search visits ({@code scan}: {@code [from, to)} per target
     * cluster) and the bound on all the others. For a distance rule over a grid clustering of
     * the sources: a distance {@code R >= cutoff} where {@code k(R) sum_j max_c |b_jc|} is below {@code 2^-50} times
     * one term at the cutoff, {@code k(cutoff) max_j max_c |b_jc|}; the clusters outside the Morton interval of the box
     * {@code c_t +- (r_t + R)} hold no point of that box, so none within {@code R} of any target of {@code t}, and
     * together add at most {@code k(R) sum_j max_c |b_jc|}, as do the clusters inside it whose balls keep farther than
     * {@code R} (the kernel skips their bound). Returns that bound and {@code R}; without pruning, 0 and
     * {@code Double.MAX_VALUE}, every source cluster visited.
     */
    private double[] scanLimits(Side out, Side in, KeepRule rule, double[] v, int cols, IntArray scan) {
        int tq = out.clustering.clusters(), sq = in.clustering.clusters(), dim = out.sorted.dim();
        double[] far = rule.mask() == null && in.clustering.isGrid() ? farLimits(engine.kernel(), rule, v, cols) : new double[] {0, Double.MAX_VALUE};
        double r = far[1];
        if (!(r < Double.MAX_VALUE)) {
            for (int t = 0; t < tq; t++) {
                scan.set(2 * t, 0);
                scan.set(2 * t + 1, sq);
            }
            return far;
        }
        double[] lo = new double[dim], hi = new double[dim];
        for (int t = 0; t < tq; t++) {
            double w = out.radii.get(t) + r;
            for (int d = 0; d < dim; d++) {
                lo[d] = out.centroids.get(t * dim + d) - w;
                hi[d] = out.centroids.get(t * dim + d) + w;
            }
            int[] range = in.clustering.clusterRange(lo, hi);
            scan.set(2 * t, range[0]);
            scan.set(2 * t + 1, range[1]);
        }
        return far;
    }

    /**
     * For a distance rule whose far clusters are bounded together: {@code {k(R) sum_j max_c |b_jc|, R}} with
     * {@code R >= cutoff} where that value is below {@code 2^-50} of one term at the cutoff,
     * {@code k(cutoff) max_j max_c |b_jc|}; else (tight bounds, no finite cutoff, b = 0, or no such R)
     * {@code {0, Double.MAX_VALUE}}: every cluster visited, every dropped one bounded on its own.
     */
    static double[] farLimits(PairKernel k, KeepRule rule, double[] v, int cols) {
        double sum = 0, largest = 0;
        for (int j = 0; j < v.length / cols; j++) {
            double m = 0;
            for (int c = 0; c < cols; c++) m = Math.max(m, Math.abs(v[j * cols + c]));
            sum += m;
            largest = Math.max(largest, m);
        }
        return farLimits(k, rule, sum, largest);
    }

    /** {@link #farLimits(PairKernel, KeepRule, double[], int)} from {@code sum = sum_j max_c |b_jc|} and {@code largest = max_jc |b_jc|}. */
    static double[] farLimits(PairKernel k, KeepRule rule, double sum, double largest) {
        double cutoff = rule.cutoff();
        if (!rule.tightBounds() && Double.isFinite(cutoff) && sum > 0) {
            double threshold = k.evaluate(cutoff) * 0x1p-50 * (largest / sum);
            if (threshold > 0) {
                double r = Math.max(cutoff, k.radiusBelow(threshold));
                if (r < Double.MAX_VALUE) return new double[] {k.evaluate(r) * sum, r};
            }
        }
        return new double[] {0, Double.MAX_VALUE};
    }

    /**
     * Centres for the expanded Gaussian: each target cluster's centroid, with the largest radius as the reach; for the
     * dense product ({@code whole}) the midpoint, as {@link KernelSum} takes it, so all-keep equals dense exactly. Null
     * when the engine does not expand.
     */
    private TiledReduction.Expansion expansion(Side out, Side in, boolean whole, double[] v) {
        if (!engine.expands()) return null;
        int dim = out.sorted.dim(), tq = out.clustering.clusters();
        double weight = in.sorted.size() * KernelSum.maxAbs(v);
        if (whole) return new TiledReduction.Expansion(new double[dim], out.sorted.reach(mid), weight, true);
        double[] centres = new double[tq * dim];
        double reach = 0;
        for (int t = 0; t < tq; t++) {
            for (int d = 0; d < dim; d++) centres[t * dim + d] = out.centroids.get(t * dim + d) - mid[d];
            reach = Math.max(reach, out.radii.get(t));
        }
        return new TiledReduction.Expansion(centres, reach, weight, false);
    }

    /** A work-group width near the mean non-empty cluster size: a power of two from 32 to 256. */
    static int tileWidth(int[] start) {
        int nonEmpty = 0;
        for (int q = 0; q + 1 < start.length; q++) if (start[q + 1] > start[q]) nonEmpty++;
        double mean = (double) start[start.length - 1] / Math.max(1, nonEmpty);
        int w = 32;
        while (w < mean && w < KernelSumKernelsF64.MAX_TILE) w *= 2;
        return w;
    }
}
