package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.Profile;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Block-sparse kernel sums over a grid clustering, every step on the device with the data resident
 * ({@link GridClusterKernels}): cell keys and a counting sort of both clouds (histogram, scan, scatter), cluster
 * boundaries, centroids, radii and per-cluster {@code sum |b|}, the range search over the cells near each target
 * cluster with its per-row bound on the dropped terms, a scan of the range counts, the tiles, the tiled sum
 * ({@link TiledReduction}, the kernels of {@link BlockSparseSum}) and the un-permutation. Only the points, {@code b},
 * the results and a few scalars (cluster, range and tile counts, pairs kept) cross the bus.
 *
 * <p>Cells are numbered row-major over one grid covering both clouds (cells of side {@code cell} from their common
 * lower corner), so the non-empty cells of a box's row along the first coordinate are consecutive clusters and the
 * range search visits only the cells of each target cluster's box, in increasing cluster order (consecutive kept
 * clusters merge into one range). The bound is that of {@link BlockSparseSum}: for {@link BlockSparseSum.KeepRule#within}
 * the box reaches {@code R >= cutoff} beyond the target cluster's radius, where {@code k(R) sum_j max_c |b_jc|} falls
 * below {@code 2^-50} of one term at the cutoff, and that value bounds every cluster outside the box together; for
 * {@link BlockSparseSum.KeepRule#withinTightBounds} and {@link BlockSparseSum.KeepRule#all} the box is the whole grid.
 * Within a cell, points keep their original order (a per-cluster sort after the scatter, for clusters of at most
 * {@link #SORTED_CLUSTER_LIMIT} points), so results do not depend on the order of the atomics. Keeping every tile runs
 * the dense product on the sorted clouds, as {@link BlockSparseSum} does: equal bit for bit to {@link KernelSum} on
 * the clouds in {@link Outcome#targetOrder()} and {@link Outcome#sourceOrder()} order.
 *
 * <p>An instance keeps its device arrays and launch plans from one product to the next (repeated products of the same
 * sizes only upload, launch and download); {@link #close()} frees them.
 *
 * <pre>{@code
 * try (GridBlockSparseSum bs = new GridBlockSparseSum(engine, 0.04)) {
 *     GridBlockSparseSum.Outcome o = bs.apply(x, y, b, 1, KeepRule.within(0.06), 0);
 *     o.result().keptFraction(); o.phases().totalMs();
 * }
 * }</pre>
 */
public final class GridBlockSparseSum implements AutoCloseable {
    /** Most grid cells over the clouds' common bounding box (three int tables of this length per cloud). */
    public static final long MAX_CELLS = 1L << 24;
    /** Clusters of more points keep the scatter's order (the per-cluster insertion sort would be quadratic). */
    static final int SORTED_CLUSTER_LIMIT = 4096;
    private static final int W = GridClusterKernels.WIDTH;
    /**
     * Whether the fp32 Gaussian in 3 dimensions runs {@link GridGaussKernelsF32#gaussTiles3} (one warp a tile of up to
     * 256 targets, idle target lanes adding a share of the sources) rather than {@link TiledReduction}'s tile kernels;
     * the system property {@code squall.ksum.sparse=tiled} picks the latter (for measurements).
     */
    static final boolean WARP_TILES = !"tiled".equals(System.getProperty("squall.ksum.sparse"));

    /**
     * Wall times (ms): staging (shape and finiteness checks, bounding boxes, page-locked copies of the points and
     * {@code b}), clustering (uploads, keys, sort, boundaries, geometry, sorted arrays: one launch set), ranges (count,
     * scans, write), sum (kernel, un-permutation, results to the heap), total.
     */
    public record Phases(double stagingMs, double clusteringMs, double rangesMs, double sumMs, double totalMs) {
    }

    /**
     * The product with its clusterings' sizes, the phase times and, when asked for ({@code withOrders}), the sorted
     * order of each cloud (sorted position to original index), else null; {@code sumKernel} names what ran the sum:
     * {@code gaussTiles3} ({@link GridGaussKernelsF32}), {@code tiles} (the tile kernels of {@code TiledReduction}) or
     * {@code dense} (every tile kept).
     */
    public record Outcome(KernelSum.Result result, int targetClusters, int sourceClusters, Phases phases, int[] targetOrder,
            int[] sourceOrder, List<Step> steps, String sumKernel) {
    }

    /**
     * Wall time of one step of a product (host work, or a launch set with its transfers), in the order they ran; for a
     * launch set also the device's own times from its queue's events (copies to the device, kernels, copies back),
     * null for host work.
     */
    public record Step(String name, double ms, Double toDeviceMs, Double kernelMs, Double toHostMs) {
        @Override
        public String toString() {
            return kernelMs == null ? String.format(java.util.Locale.ROOT, "%s %.2f", name, ms)
                    : String.format(java.util.Locale.ROOT, "%s %.2f [up %.2f, kernels %.2f, down %.2f]", name, ms, toDeviceMs, kernelMs, toHostMs);
        }
    }

    /** Laps of the wall clock, one per step. */
    private static final class Laps {
        final List<Step> steps = new ArrayList<>();
        long last = System.nanoTime();

        long lap(String name) {
            return lap(name, null);
        }

        /** A step that ran launch sets: their device times added up ({@code profiles} may be null: host work). */
        long lap(String name, Profile[] profiles) {
            long now = System.nanoTime();
            Double up = null, kernels = null, down = null;
            if (profiles != null) {
                double u = 0, k = 0, d = 0;
                for (Profile p : profiles) {
                    u += nanToZero(p.toDeviceMillis());
                    k += nanToZero(p.kernelMillis());
                    d += nanToZero(p.toHostMillis());
                }
                up = u;
                kernels = k;
                down = d;
            }
            steps.add(new Step(name, (now - last) / 1e6, up, kernels, down));
            last = now;
            return now;
        }

        private static double nanToZero(double v) {
            return Double.isNaN(v) ? 0 : v;
        }
    }

    private final KernelSum engine;
    private final double cell;
    private boolean withOrders;
    private int targetSpan = 1;
    private final java.util.Map<String, KernelArray> workspace = new java.util.HashMap<>();
    private final java.util.Map<String, ExecutionPlan> plans = new java.util.HashMap<>();
    private Device device;

    /** @throws IllegalArgumentException for a user kernel or a cell that is not positive and finite */
    public GridBlockSparseSum(KernelSum engine, double cell) {
        this.engine = Objects.requireNonNull(engine, "engine");
        if (engine.kernel().isUser()) {
            throw new IllegalArgumentException("block-sparse sums need a built-in kernel (its decay bounds what is dropped); "
                    + engine.kernel() + " is a user kernel");
        }
        if (!(cell > 0) || Double.isInfinite(cell)) throw new IllegalArgumentException("cell size must be positive and finite, got " + cell);
        this.cell = cell;
    }

    /** Also return each cloud's sorted order (downloaded from the device; for tests and callers that keep the clusters). */
    public GridBlockSparseSum withOrders(boolean on) {
        this.withOrders = on;
        return this;
    }

    /** Cells per dimension of sides {@code side[d]} over {@code box}, at most {@link #MAX_CELLS} in all. */
    private static int[] cells(double[][] box, double[] side) {
        int[] c = new int[side.length];
        double total = 1;
        for (int d = 0; d < side.length; d++) {
            double k = Math.floor((box[1][d] - box[0][d]) / side[d]) + 1;
            total *= k;
            if (total > MAX_CELLS) {
                throw new IllegalArgumentException("cells of side " + side[d] + " over the clouds' bounding box make more than " + MAX_CELLS
                        + " grid cells; take a larger cell");
            }
            c[d] = (int) k;
        }
        return c;
    }

    private static int product(int[] v) {
        int p = 1;
        for (int x : v) p *= x;
        return p;
    }

    private static double[] inverse(double[] v) {
        double[] r = new double[v.length];
        for (int d = 0; d < v.length; d++) r[d] = 1.0 / v[d];
        return r;
    }

    /**
     * Target clusters span {@code span} source cells along the first coordinate (default 1): larger target tiles (whole
     * warps for clusters of a few dozen points) at the cost of more kept pairs; the bound stays rigorous.
     */
    public GridBlockSparseSum withTargetSpan(int span) {
        if (span < 1) throw new IllegalArgumentException("target span must be at least 1 cell, got " + span);
        this.targetSpan = span;
        return this;
    }

    /** Number of grid cells of side {@code cell} over the common bounding box of both clouds. */
    public static double cellCount(PointSet x, PointSet y, double cell) {
        double[][] box = box(x, y);
        double count = 1;
        for (int d = 0; d < x.dim(); d++) count *= Math.floor((box[1][d] - box[0][d]) / cell) + 1;
        return count;
    }

    /** Whether the grid of side {@code cell} over both clouds has at most {@link #MAX_CELLS} cells. */
    public static boolean fits(PointSet x, PointSet y, double cell) {
        return cellCount(x, y, cell) <= MAX_CELLS;
    }

    /** The common bounding box {@code {lo, hi}} of both clouds ({@link PointSet#bounds}, kept by each point set). */
    private static double[][] box(PointSet x, PointSet y) {
        double[][] bx = x.bounds(), by = y.bounds();
        for (int d = 0; d < x.dim(); d++) {
            bx[0][d] = Math.min(bx[0][d], by[0][d]);
            bx[1][d] = Math.max(bx[1][d], by[1][d]);
        }
        return bx;
    }

    /**
     * {@code a = K b} over the tiles {@code rule} keeps ({@code b}: {@code N x cols} in the caller's order; so is the
     * result), the tiled kernel run once and then {@code repeat} more times on the resident data (the profile is that
     * of the median run).
     *
     * @throws IllegalArgumentException for a mask rule (use {@link #applyMasked}), clouds of different dimensions,
     *     a {@code b} of the wrong size or with non-finite values, or a grid of more than {@link #MAX_CELLS} cells
     */
    public Outcome apply(PointSet x, PointSet y, double[] b, int cols, BlockSparseSum.KeepRule rule, int repeat) {
        Objects.requireNonNull(rule, "rule");
        if (rule.mask() != null) throw new IllegalArgumentException("a cluster mask needs clusters given by the caller (applyMasked)");
        return product(x, y, b, cols, rule, repeat, null, null, 0, 0);
    }

    /**
     * {@code a = K b} over the tiles of a user's clusters that {@code keep} marks: target point {@code i} is in cluster
     * {@code xLabels[i]}, source point {@code j} in {@code yLabels[j]}, and {@code keep[t][s]} keeps the tile of target
     * cluster {@code t} and source cluster {@code s} ({@code keep} is target clusters x source clusters; labels no
     * point has give empty clusters). The clustering (a counting sort by label), the conversion of the mask to
     * contiguous source ranges, the bound on the dropped tiles and the sum run on the device as for {@link #apply}; the
     * cell size is not used. Keeping every tile runs the dense product on the sorted clouds.
     *
     * @throws IllegalArgumentException for labels of the wrong length or out of range (naming the point), a ragged or
     *     empty mask, or the errors of {@link #apply}
     */
    public Outcome applyMasked(PointSet x, int[] xLabels, PointSet y, int[] yLabels, double[] b, int cols, boolean[][] keep, int repeat) {
        Objects.requireNonNull(xLabels, "xLabels");
        Objects.requireNonNull(yLabels, "yLabels");
        BlockSparseSum.KeepRule rule = BlockSparseSum.KeepRule.mask(keep);
        int tLabels = keep.length, sLabels = keep[0].length;
        checkLabels("target", xLabels, x.size(), tLabels);
        checkLabels("source", yLabels, y.size(), sLabels);
        return product(x, y, b, cols, rule, repeat, xLabels, yLabels, tLabels, sLabels);
    }

    private static void checkLabels(String side, int[] labels, int points, int clusters) {
        if (labels.length != points) throw new IllegalArgumentException(labels.length + " " + side + " labels for " + points + " points");
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= clusters) {
                throw new IllegalArgumentException(side + " label " + labels[i] + " of point " + i + " is not in [0, " + clusters
                        + "): the mask has " + clusters + " " + side + " clusters");
            }
        }
    }

    /** The product; with labels ({@code xLabels != null}) over the user's clusters and {@code rule}'s mask, else over the grid. */
    private Outcome product(PointSet x, PointSet y, double[] b, int cols, BlockSparseSum.KeepRule rule, int repeat, int[] xLabels,
            int[] yLabels, int tLabels, int sLabels) {
        boolean labelled = xLabels != null;
        Laps laps = new Laps();
        long t0 = laps.last;
        checkShapes(x, y, b, cols);
        if (repeat < 0) throw new IllegalArgumentException("repeat count must not be negative, got " + repeat);
        int m = x.size(), n = y.size(), dim = x.dim();
        if (m == 0 || n == 0) {
            KernelSum.check(x, y, b, cols, n, "b");
            KernelSum.Result r = new KernelSum.Result(new double[m * cols], new Profile(0, 0, 0, 0, 0), 0, m == 0 ? 0 : 1.0, new double[m], 0, 0);
            return new Outcome(r, 0, 0, new Phases(0, 0, 0, 0, 0), new int[m], new int[n], List.of(), "none");
        }
        Device dev = engine.device();
        Precision p = engine.precision();
        PairKernel k = engine.kernel();
        if (device != null && device != dev) close();
        device = dev;
        // the result arrays are allocated (their pages touched by the zeroing) on another thread while the product runs
        int resultLength = Math.toIntExact((long) m * cols);
        CompletableFuture<double[][]> heap = CompletableFuture.supplyAsync(() -> new double[][] {new double[resultLength], new double[m]});
        // one parallel pass over each input: the page-locked copy, with the bounding box of each cloud and the
        // finiteness check and far-bound sums of b on the way
        double[][] tBox = new double[2][], sBox = new double[2][];
        DoubleArray tCoords = stageCloud("tcoords", x, tBox), sCoords = stageCloud("scoords", y, sBox);
        double[] bStats = new double[2];
        DoubleArray bArr = stageWeights(b, cols, bStats);
        double[][] box = {new double[dim], new double[dim]};
        for (int d = 0; d < dim; d++) {
            box[0][d] = Math.min(tBox[0][d], sBox[0][d]);
            box[1][d] = Math.max(tBox[1][d], sBox[1][d]);
        }
        long t1s = laps.lap("stage");
        double[] lo = box[0], mid = new double[dim];
        for (int d = 0; d < dim; d++) mid[d] = 0.5 * (box[0][d] + box[1][d]);
        // sources: cells of side cell; targets: the same grid with targetSpan cells merged along the first coordinate
        double[] sSide = new double[dim], tSide = new double[dim];
        Arrays.fill(sSide, cell);
        Arrays.fill(tSide, cell);
        tSide[0] = cell * targetSpan;
        int[] sCells = labelled ? new int[] {sLabels} : cells(box, sSide), tCells = labelled ? new int[] {tLabels} : cells(box, tSide);
        int sCellsTotal = product(sCells), tCellsTotal = product(tCells);
        List<KernelArray> owned = new ArrayList<>();
        try {
            // clustering: keys, histogram, scans, boundaries, scatter, each cluster in original order, geometry; then the
            // per-cluster sum |b| and the sorted clouds and b in the precision; the cluster counts come back
            DoubleArray loArr = values("lo", lo), shift = values("shift", mid);
            IntArray sCellsArr = values("sCells", sCells), tCellsArr = values("tCells", tCells);
            DoubleArray sInv = values("sInv", inverse(sSide)), tInv = values("tInv", inverse(tSide));
            IntArray scalars = ws("scalars", 4, IntArray::onDevice);
            TaskGraph cg = new TaskGraph("ksum-grid-clusters")
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, loArr, sCellsArr, tCellsArr, sInv, tInv)
                    .task("zero", grid(4), GridClusterKernels::zero, new KernelContext(), scalars, 4);
            IntArray tLabelArr = labelled ? values("tlabels", xLabels) : null, sLabelArr = labelled ? values("slabels", yLabels) : null;
            if (labelled) cg.transferToDevice(DataTransferMode.EVERY_EXECUTION, tLabelArr, sLabelArr);
            Side tx = side(cg, "t", tCoords, m, dim, loArr, tCellsArr, tInv, tCellsTotal, scalars, 0, 2, tLabelArr);
            Side sy = side(cg, "s", sCoords, n, dim, loArr, sCellsArr, sInv, sCellsTotal, scalars, 1, 3, sLabelArr);
            DoubleArray labelRadii = null;
            if (labelled) {
                // clusters numbered by label, empty ones included (the mask's numbering): starts are the scanned counts
                tx = byLabel(cg, "t", tx, dim, tLabels);
                sy = byLabel(cg, "s", sy, dim, sLabels);
                labelRadii = tx.radii;
            }
            int cellsTotal = sCellsTotal;
            int[] cells = sCells;
            long sCap = labelled ? sLabels : Math.min(n, cellsTotal);
            DoubleArray absSums = ws("absSums", sCap, DoubleArray::onDevice);
            KernelArray xv = ws("xv", (long) m * dim, len -> onDevice(p, len)), yv = ws("yv", (long) n * dim, len -> onDevice(p, len));
            KernelArray bv = ws("bv", (long) n * cols, len -> onDevice(p, len));
            DoubleArray noShift = values("noShift", new double[cols]);
            cg.transferToDevice(DataTransferMode.EVERY_EXECUTION, bArr, noShift, shift)
                    .task("abs", grid(sCap), GridClusterKernels::absSums, new KernelContext(), bArr, sy.order, sy.start, sy.clusterOfCell,
                            absSums, cellsTotal, cols);
            gather(cg, "gx", p, tx.coords, tx.order, xv, shift, m, dim);
            gather(cg, "gy", p, sy.coords, sy.order, yv, shift, n, dim);
            gather(cg, "gb", p, bArr, sy.order, bv, noShift, n, cols);
            cg.transferToHost(DataTransferMode.EVERY_EXECUTION, scalars);
            if (labelled) cg.transferToHost(DataTransferMode.EVERY_EXECUTION, labelRadii);
            Profile clustered = run("clusters " + labelled + " " + m + " " + n + " " + dim + " " + cols + " " + tCellsTotal + " " + sCellsTotal, cg);
            long t1c = laps.lap("clusters", new Profile[] {clustered});
            int tq = labelled ? tLabels : scalars.get(0), sq = labelled ? sLabels : scalars.get(1);
            int tNonEmpty = scalars.get(0);

            // ranges: count, scan, tile counts; totals back; then the ranges and tiles written
            double[] far = labelled ? new double[] {0, Double.MAX_VALUE} : BlockSparseSum.farLimits(engine.kernel(), rule, bStats[0], bStats[1]);
            double cutoff = Math.min(rule.cutoff(), Double.MAX_VALUE);
            double[] real = new double[6 + dim];
            real[0] = 1.0 / cell;
            real[1] = cutoff;
            real[2] = far[1];
            real[3] = far[1];
            real[4] = k.inverseSquaredLength();
            real[5] = far[0];
            System.arraycopy(lo, 0, real, 6, dim);
            int[] ints = new int[3 + dim];
            ints[0] = dim;
            ints[1] = k.code();
            ints[2] = tCellsTotal;
            System.arraycopy(cells, 0, ints, 3, cells.length); // one entry (the label count) for labelled clouds, unused there
            // the expanded Gaussian about each target cluster's centroid: clusters lie within their cell, so no target is
            // farther than the cell's diagonal from its centroid
            double diagonal = cell * Math.sqrt((double) targetSpan * targetSpan + dim - 1);
            double targetReach = diagonal * (1 + 1e-9);
            if (labelled) {
                targetReach = 0; // the user's clusters: their largest radius
                for (int t = 0; t < tq; t++) targetReach = Math.max(targetReach, labelRadii.get(t));
            }
            TiledReduction.Expansion sparseExpansion = engine.expands() ? new TiledReduction.Expansion(null, targetReach, n * bStats[1], false) : null;
            boolean warpTiles = WARP_TILES && p == Precision.FP32 && dim == 3 && cols == 1 && k.code() == KernelSumKernelsF64.GAUSS
                    && sparseExpansion != null && sparseExpansion.fits(k, p);
            int width = warpTiles ? GridGaussKernelsF32.TILE : tileWidthFor(m, tq);
            DoubleArray realArr = values("real", real);
            IntArray intsArr = values("ints", ints);
            IntArray rangeOffsets = ws("rangeOffsets", tq + 1L, IntArray::onDevice), tileOffsets = ws("tileOffsets", tq + 1L, IntArray::onDevice);
            LongArray kept = ws("kept", tq, LongArray::onDevice), pairsArr = ws("pairs", 1, LongArray::onDevice);
            DoubleArray bounds = ws("bounds", tq, DoubleArray::onDevice);
            IntArray totals = ws("totals", 2, IntArray::onDevice), noRanges = ws("noRanges", 2, IntArray::onDevice);
            TaskGraph rg = new TaskGraph("ksum-grid-count").transferToDevice(DataTransferMode.EVERY_EXECUTION, realArr, intsArr)
                    .task("zeroRanges", grid(tq + 1L), GridClusterKernels::zero, new KernelContext(), rangeOffsets, tq + 1)
                    .task("zeroTiles", grid(tq + 1L), GridClusterKernels::zero, new KernelContext(), tileOffsets, tq + 1)
                    .task("zeroPairs", grid(1), GridClusterKernels::zeroLong, new KernelContext(), pairsArr);
            IntArray maskArr = null, visit = null;
            if (labelled) {
                // the mask over every (target, source) cluster pair, converted to ranges; the kept pairs added up after
                maskArr = values("mask", rule.mask());
                int[] all = new int[2 * tq];
                for (int t = 0; t < tq; t++) all[2 * t + 1] = sq;
                visit = values("visit", all);
                rg.transferToDevice(DataTransferMode.EVERY_EXECUTION, maskArr, visit)
                        .task("count", KernelSumKernelsF64::clusterRanges, tx.centroids, tx.radii, sy.centroids, sy.radii, sy.start, absSums,
                                maskArr, 1, far[1], tq, sq, dim, 0.0, k.code(), k.inverseSquaredLength(), 0, noRanges, noRanges, rangeOffsets,
                                kept, bounds, visit)
                        .task("pairs", grid(tq), GridClusterKernels::keptPairs, new KernelContext(), tx.start, kept, pairsArr, tq);
            } else {
                rg.task("count", grid(tq), KernelSumKernelsF64::gridRanges, new KernelContext(), tx.centroids, tx.radii, tx.start,
                        tx.clusterOfCell, sy.centroids, sy.radii, sy.start, absSums, sy.clusterOfCell, realArr, intsArr, 0, noRanges,
                        noRanges, rangeOffsets, kept, bounds, pairsArr);
            }
            scan(rg, "ranges", rangeOffsets, tq + 1);
            rg.task("tileCounts", grid(tq), GridClusterKernels::tileCounts, new KernelContext(), tx.start, tx.clusterOfCell, tileOffsets,
                    tCellsTotal, width);
            scan(rg, "tiles", tileOffsets, tq + 1);
            rg.task("rangeTotal", grid(1), GridClusterKernels::pick, new KernelContext(), rangeOffsets, tq, totals, 0)
                    .task("tileTotal", grid(1), GridClusterKernels::pick, new KernelContext(), tileOffsets, tq, totals, 1)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, totals, pairsArr);
            Profile counted = run("count " + labelled + " " + tq + " " + sq + " " + width + " " + tCellsTotal, rg);
            laps.lap("count", new Profile[] {counted});
            int totalRanges = totals.get(0), totalTiles = totals.get(1);
            long pairs = pairsArr.get(0);
            boolean whole = pairs == (long) m * n;
            IntArray tiles, tileRangeOffsets, tileRanges;
            Profile written = null;
            KernelArray centres = null;
            TiledReduction.Expansion expansion = null;
            if (whole) {
                // every target keeps every source: the dense product on the sorted clouds (same tiles, kernel and centre)
                width = KernelSum.DENSE_WIDTH;
                tiles = add(owned, TiledReduction.denseTiles(m, width));
                tileRangeOffsets = add(owned, IntArray.fromArray(0, 1));
                tileRanges = add(owned, IntArray.fromArray(0, n));
                if (engine.expands()) expansion = new TiledReduction.Expansion(new double[dim], x.reach(mid), n * bStats[1], true);
            } else {
                tiles = ws("tiles", 3L * totalTiles, IntArray::onDevice);
                tileRangeOffsets = rangeOffsets;
                tileRanges = ws("ranges", 2L * totalRanges, IntArray::onDevice);
                TaskGraph wg = new TaskGraph("ksum-grid-ranges").transferToDevice(DataTransferMode.EVERY_EXECUTION, realArr, intsArr);
                if (labelled) {
                    wg.transferToDevice(DataTransferMode.EVERY_EXECUTION, maskArr, visit)
                            .task("write", KernelSumKernelsF64::clusterRanges, tx.centroids, tx.radii, sy.centroids, sy.radii, sy.start, absSums,
                                    maskArr, 1, far[1], tq, sq, dim, 0.0, k.code(), k.inverseSquaredLength(), 1, rangeOffsets, tileRanges, noRanges,
                                    kept, bounds, visit);
                } else {
                    wg.task("write", grid(tq), KernelSumKernelsF64::gridRanges, new KernelContext(), tx.centroids, tx.radii, tx.start,
                            tx.clusterOfCell, sy.centroids, sy.radii, sy.start, absSums, sy.clusterOfCell, realArr, intsArr, 1, rangeOffsets,
                            tileRanges, noRanges, kept, bounds, pairsArr);
                }
                wg.task("tiles", grid(tq), GridClusterKernels::writeTiles, new KernelContext(), tx.start, tx.clusterOfCell, tileOffsets,
                                tiles, tCellsTotal, width);
                if (engine.expands()) {
                    expansion = sparseExpansion;
                    double scale = Math.sqrt(0.5 * k.inverseSquaredLength() / Math.log(2));
                    centres = ws("centres", (long) tq * dim, len -> onDevice(p, len));
                    if (p == Precision.FP32) {
                        wg.task("centres", grid((long) tq * dim), GridClusterKernels::centresF32, new KernelContext(), tx.centroids, shift,
                                (FloatArray) centres, scale, tq * dim, dim);
                    } else {
                        wg.task("centres", grid((long) tq * dim), GridClusterKernels::centresF64, new KernelContext(), tx.centroids, shift,
                                (DoubleArray) centres, scale, tq * dim, dim);
                    }
                }
                written = run("write " + labelled + " " + tq + " " + width + " " + tCellsTotal + " " + totalTiles + " " + totalRanges + " " + (centres != null), wg);
            }
            long t3 = laps.lap("write", written == null ? null : new Profile[] {written});

            // the sum, then the results and row bounds back in the caller's order
            KernelArray sorted = ws("sorted", (long) m * cols, len -> onDevice(p, len));
            Profile first, profile;
            DoubleArray values = ws("values", (long) m * cols, len -> DoubleArray.pinned(len, dev));
            DoubleArray rowBounds = ws("rowBounds", m, len -> DoubleArray.pinned(len, dev));
            TaskGraph ug = new TaskGraph("ksum-grid-unpermute");
            if (p == Precision.FP32) {
                ug.task("unpermute", grid(m), GridClusterKernels::unpermuteF32, new KernelContext(), (FloatArray) sorted, tx.order, tx.keys,
                        tx.clusterOfCell, bounds, values, rowBounds, m, cols);
            } else {
                ug.task("unpermute", grid(m), GridClusterKernels::unpermuteF64, new KernelContext(), (DoubleArray) sorted, tx.order, tx.keys,
                        tx.clusterOfCell, bounds, values, rowBounds, m, cols);
            }
            ug.transferToHost(DataTransferMode.EVERY_EXECUTION, values, rowBounds);
            if (withOrders) ug.transferToHost(DataTransferMode.EVERY_EXECUTION, tx.order, sy.order);
            TiledReduction sum = null;
            TaskGraph warpSum = null;
            String warpKey = null;
            if (warpTiles && !whole) {
                float scale = (float) Math.sqrt(0.5 * k.inverseSquaredLength() / Math.log(2));
                warpSum = new TaskGraph("ksum-grid-sum").task("sum",
                        WorkerGrid.of((long) totalTiles * GridGaussKernelsF32.LANES).withLocal(GridGaussKernelsF32.LANES),
                        GridGaussKernelsF32::gaussTiles3, new KernelContext(), (FloatArray) xv, (FloatArray) yv, (FloatArray) bv,
                        (FloatArray) sorted, tiles, tileRangeOffsets, tileRanges, (FloatArray) centres, scale);
                warpKey = "sum " + m + " " + totalTiles + " " + totalRanges + " " + scale;
            } else {
                sum = TiledReduction.sums(dev, p, k, xv, yv, bv, sorted, dim, cols, tiles, tileRangeOffsets, tileRanges, width, expansion,
                        centres);
            }
            Profile unpermuted;
            try {
                laps.lap("sum-graph");
                if (sum != null) {
                    first = sum.run();
                    profile = sum.median(first, repeat);
                } else {
                    first = run(warpKey, warpSum);
                    Profile[] runs = new Profile[repeat];
                    for (int r = 0; r < repeat; r++) runs[r] = run(warpKey, warpSum);
                    Arrays.sort(runs, java.util.Comparator.comparingDouble(Profile::kernelMillis));
                    profile = repeat == 0 ? first : runs[repeat / 2];
                }
                laps.lap("sum", new Profile[] {first});
                unpermuted = run("unpermute " + m + " " + cols + " " + withOrders, ug);
                laps.lap("unpermute", new Profile[] {unpermuted});
            } finally {
                if (sum != null) sum.release(); // the arrays stay on the device for the next product
            }
            double[][] out = heap.join();
            double[] a = heapCopy(values, out[0]), rb = heapCopy(rowBounds, out[1]);
            int[] ox = withOrders ? orderOf(tx.order, m) : null, oy = withOrders ? orderOf(sy.order, n) : null;
            long t4 = laps.lap("heap");
            double fraction = (double) pairs / ((double) m * n);
            KernelSum.Result result = new KernelSum.Result(a, profile, pairs, fraction, rb, (t3 - t1c) / 1e6, first.hostMicros() / 1e3);
            Phases phases = new Phases((t1s - t0) / 1e6, (t1c - t1s) / 1e6, (t3 - t1c) / 1e6, (t4 - t3) / 1e6, (t4 - t0) / 1e6);
            return new Outcome(result, tq, sq, phases, ox, oy, List.copyOf(laps.steps), whole ? "dense" : sum == null ? "gaussTiles3" : "tiles");
        } finally {
            dev.free(owned.toArray(KernelArray[]::new));
        }
    }

    /** One cloud on the device: coordinates, cell keys, cell starts, cluster numbering, sorted order, clusters. */
    private record Side(DoubleArray coords, IntArray keys, IntArray cellStart, IntArray clusterOfCell, IntArray order, IntArray start,
            DoubleArray centroids, DoubleArray radii) {
    }

    /** The clustering tasks of one cloud; its cluster count goes to {@code scalars[countAt]}, its largest cluster's size to {@code scalars[largestAt]}. */
    private Side side(TaskGraph g, String tag, DoubleArray coords, int n, int dim, DoubleArray lo, IntArray cells, DoubleArray invCells,
            int cellCount, IntArray scalars, int countAt, int largestAt, IntArray labels) {
        long cap = Math.min(n, cellCount);
        IntArray keys = ws(tag + "keys", n, IntArray::onDevice), counts = ws(tag + "counts", cellCount + 1L, IntArray::onDevice);
        IntArray fill = ws(tag + "fill", cellCount, IntArray::onDevice), flags = ws(tag + "flags", cellCount + 1L, IntArray::onDevice);
        IntArray order = ws(tag + "order", n, IntArray::onDevice), start = ws(tag + "start", cap + 1, IntArray::onDevice);
        DoubleArray centroids = ws(tag + "centroids", cap * dim, DoubleArray::onDevice), radii = ws(tag + "radii", cap, DoubleArray::onDevice);
        g.transferToDevice(DataTransferMode.EVERY_EXECUTION, coords)
                .task(tag + "zeroCounts", grid(cellCount + 1L), GridClusterKernels::zero, new KernelContext(), counts, cellCount + 1)
                .task(tag + "zeroFill", grid(cellCount), GridClusterKernels::zero, new KernelContext(), fill, cellCount);
        if (labels != null) {
            g.task(tag + "keys", grid(n), GridClusterKernels::labelKeys, new KernelContext(), labels, keys, counts, n);
        } else {
            g.task(tag + "keys", grid(n), GridClusterKernels::cellKeys, new KernelContext(), coords, keys, counts, lo, cells, invCells, n, dim);
        }
        g.task(tag + "flags", grid(cellCount + 1L), GridClusterKernels::nonEmpty, new KernelContext(), counts, flags, cellCount);
        scan(g, tag + "cells", counts, cellCount + 1);
        scan(g, tag + "clusters", flags, cellCount + 1);
        g.task(tag + "starts", grid(cellCount), GridClusterKernels::clusterStarts, new KernelContext(), counts, flags, start, scalars,
                        largestAt, cellCount, n)
                .task(tag + "scatter", grid(n), GridClusterKernels::scatter, new KernelContext(), keys, counts, fill, order, n)
                .task(tag + "sort", grid(cap), GridClusterKernels::sortClusters, new KernelContext(), order, start, flags, cellCount,
                        SORTED_CLUSTER_LIMIT)
                .task(tag + "geometry", grid(cap), GridClusterKernels::geometry, new KernelContext(), coords, order, start, flags, centroids,
                        radii, cellCount, dim)
                .task(tag + "count", grid(1), GridClusterKernels::pick, new KernelContext(), flags, cellCount, scalars, countAt);
        return new Side(coords, keys, counts, flags, order, start, centroids, radii);
    }

    /**
     * The clusters of one labelled cloud numbered by label, empty ones included: starts are the scanned counts, the
     * cluster of label {@code l} is {@code l} (an identity table where the grid has {@code clusterOfCell}), centroids and
     * radii per label (0 for an empty cluster).
     */
    private Side byLabel(TaskGraph g, String tag, Side s, int dim, int labels) {
        IntArray identity = ws(tag + "identity", labels + 1L, IntArray::onDevice);
        DoubleArray centroids = ws(tag + "lcentroids", (long) labels * dim, DoubleArray::onDevice);
        DoubleArray radii = ws(tag + "lradii", labels, DoubleArray::onDevice);
        g.task(tag + "identity", grid(labels + 1L), GridClusterKernels::identity, new KernelContext(), identity, labels + 1)
                .task(tag + "lgeometry", grid(labels), GridClusterKernels::geometry, new KernelContext(), s.coords, s.order, s.cellStart,
                        identity, centroids, radii, labels, dim);
        return new Side(s.coords, s.keys, s.cellStart, identity, s.order, s.cellStart, centroids, radii);
    }

    private static void gather(TaskGraph g, String name, Precision p, DoubleArray v, IntArray order, KernelArray out, DoubleArray shift,
            int n, int width) {
        if (p == Precision.FP32) {
            g.task(name, grid(n), GridClusterKernels::gatherF32, new KernelContext(), v, order, (FloatArray) out, shift, n, width);
        } else {
            g.task(name, grid(n), GridClusterKernels::gatherF64, new KernelContext(), v, order, (DoubleArray) out, shift, n, width);
        }
    }

    /**
     * An exclusive scan of {@code data[0, n)} in place: block scans, the block totals scanned the same way (recursively),
     * the scanned totals added back.
     */
    void scan(TaskGraph g, String name, IntArray data, long n) {
        long blocks = Math.max(1, (n + GridClusterKernels.SCAN_BLOCK - 1) / GridClusterKernels.SCAN_BLOCK);
        IntArray sums = ws(name + "-sums", blocks, IntArray::onDevice);
        g.task(name + "-scan", WorkerGrid.of(blocks * W).withLocal(W), GridClusterKernels::scanBlocks, new KernelContext(), data, sums,
                (int) n);
        if (blocks > 1) {
            scan(g, name + "+", sums, blocks);
            g.task(name + "-add", grid(n), GridClusterKernels::addBlockOffsets, new KernelContext(), data, sums, (int) n);
        }
    }

    /** A work-group width near the mean cluster size: a power of two from 32 to 256. */
    private static int tileWidthFor(int points, int clusters) {
        double mean = (double) points / Math.max(1, clusters);
        int w = 32;
        while (w < mean && w < KernelSumKernelsF64.MAX_TILE) w *= 2;
        return w;
    }

    private static WorkerGrid grid(long count) {
        long groups = Math.max(1, (count + W - 1) / W);
        return WorkerGrid.of(groups * W).withLocal(W);
    }

    private static KernelArray onDevice(Precision p, long n) {
        return p == Precision.FP32 ? FloatArray.onDevice(Math.max(1, n)) : DoubleArray.onDevice(Math.max(1, n));
    }

    /**
     * The workspace array of this role and length: kept on the device from one product to the next (its contents are
     * rewritten or cleared by the kernels), reallocated when the length changes.
     */
    private <A extends KernelArray> A ws(String role, long length, java.util.function.LongFunction<A> make) {
        long len = Math.max(1, length);
        KernelArray old = workspace.get(role);
        if (old != null && old.getSizeLong() == len) {
            @SuppressWarnings("unchecked") A a = (A) old;
            return a;
        }
        if (old != null) {
            closePlans(); // kept plans are bound to the old array's device memory
            device.free(old);
        }
        A a = make.apply(len);
        workspace.put(role, a);
        return a;
    }

    /** A small workspace array holding {@code v} on the host (each launch set that lists it uploads it). */
    private DoubleArray values(String role, double[] v) {
        DoubleArray a = ws(role, v.length, DoubleArray::new);
        for (int i = 0; i < v.length; i++) a.set(i, v[i]);
        return a;
    }

    private IntArray values(String role, int[] v) {
        IntArray a = ws(role, v.length, IntArray::new);
        MemorySegment.copy(v, 0, a.segment(), ValueLayout.JAVA_INT, 0, v.length);
        return a;
    }

    /** Points a chunk of the parallel host passes. */
    private static final int CHUNK_POINTS = 1 << 14;

    /**
     * A workspace array of the device's page-locked host memory holding a copy of the coordinates of {@code s}, copied
     * in parallel chunks; {@code box} receives the cloud's lower and upper corners ({@link PointSet#bounds}, computed
     * once per point set).
     */
    private DoubleArray stageCloud(String role, PointSet s, double[][] box) {
        Device dev = device;
        double[] v = s.coordinatesView();
        DoubleArray a = ws(role, v.length, len -> DoubleArray.pinned(len, dev));
        MemorySegment dst = a.segment();
        int chunk = CHUNK_POINTS * s.dim();
        IntStream.range(0, (v.length + chunk - 1) / chunk).parallel().forEach(part -> {
            int from = part * chunk, count = Math.min(chunk, v.length - from);
            MemorySegment.copy(v, from, dst, ValueLayout.JAVA_DOUBLE, (long) from * Double.BYTES, count);
        });
        double[][] b = s.bounds();
        box[0] = b[0];
        box[1] = b[1];
        return a;
    }

    /**
     * {@code b} copied into the page-locked workspace array in parallel chunks, checked to be finite on the way (the
     * first non-finite value is reported by index), with {@code stats = {sum_j max_c |b_jc|, max_jc |b_jc|}} (chunk sums
     * added in order, so the result does not depend on the threads).
     *
     * @throws IllegalArgumentException for a value of {@code b} that is NaN or infinite
     */
    private DoubleArray stageWeights(double[] b, int cols, double[] stats) {
        Device dev = device;
        DoubleArray a = ws("b", b.length, len -> DoubleArray.pinned(len, dev));
        MemorySegment dst = a.segment();
        int rows = b.length / cols;
        double[][] parts = IntStream.range(0, (rows + CHUNK_POINTS - 1) / CHUNK_POINTS).parallel().mapToObj(part -> {
            int from = part * CHUNK_POINTS, to = Math.min(rows, from + CHUNK_POINTS);
            double sum = 0, largest = 0, bad = -1;
            for (int j = from; j < to; j++) {
                double row = 0;
                for (int c = 0; c < cols; c++) {
                    double v = b[j * cols + c];
                    if (!Double.isFinite(v) && bad < 0) bad = (double) j * cols + c;
                    double magnitude = Math.abs(v);
                    if (magnitude > row) row = magnitude;
                }
                sum += row;
                if (row > largest) largest = row;
            }
            MemorySegment.copy(b, from * cols, dst, ValueLayout.JAVA_DOUBLE, (long) from * cols * Double.BYTES, (to - from) * cols);
            return new double[] {sum, largest, bad};
        }).toArray(double[][]::new);
        double sum = 0, largest = 0;
        for (double[] part : parts) {
            if (part[2] >= 0) {
                int at = (int) part[2];
                throw new IllegalArgumentException("b[" + at + "] is " + b[at] + ": values must be finite");
            }
            sum += part[0];
            largest = Math.max(largest, part[1]);
        }
        stats[0] = sum;
        stats[1] = largest;
        return a;
    }

    /** The sizes {@link KernelSum#check} checks, without its pass over {@code b} (the staging checks the values). */
    private static void checkShapes(PointSet x, PointSet y, double[] b, int cols) {
        Objects.requireNonNull(x, "targets");
        Objects.requireNonNull(y, "sources");
        Objects.requireNonNull(b, "b");
        if (x.dim() != y.dim()) throw new IllegalArgumentException("targets are " + x.dim() + "-dimensional, sources " + y.dim() + "-dimensional");
        if (cols < 1) throw new IllegalArgumentException("column count must be at least 1, got " + cols);
        if ((long) y.size() * cols != b.length) {
            throw new IllegalArgumentException("b holds " + b.length + " values; " + y.size() + " points x " + cols + " columns need "
                    + (long) y.size() * cols);
        }
    }

    /** The host side of {@code a} copied into {@code v} (of its length) in parallel chunks. */
    private static double[] heapCopy(DoubleArray a, double[] v) {
        int n = v.length, chunk = 1 << 18;
        MemorySegment src = a.segment();
        IntStream.range(0, (n + chunk - 1) / chunk).parallel().forEach(c -> {
            int from = c * chunk, count = Math.min(chunk, n - from);
            MemorySegment.copy(src, ValueLayout.JAVA_DOUBLE, (long) from * Double.BYTES, v, from, count);
        });
        return v;
    }

    /** Frees the workspace's device memory. */
    @Override
    public void close() {
        closePlans();
        if (device != null && !workspace.isEmpty()) device.free(workspace.values().toArray(KernelArray[]::new));
        workspace.clear();
    }

    private static <A extends KernelArray> A add(List<KernelArray> owned, A a) {
        owned.add(a);
        return a;
    }

    /**
     * Runs a launch set through the plan kept for {@code key} (every scalar argument of the set; its arrays are the
     * workspace's, and a reallocated workspace array drops every kept plan), or through a new plan kept under it:
     * later products of the same sizes skip the plans' preparation.
     */
    private Profile run(String key, TaskGraph g) {
        ExecutionPlan plan = plans.get(key);
        if (plan == null) {
            plan = new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true);
            plans.put(key, plan);
        }
        return plan.execute().profile();
    }

    private void closePlans() {
        for (ExecutionPlan plan : plans.values()) plan.close();
        plans.clear();
    }


    private static int[] orderOf(IntArray order, int n) {
        int[] o = new int[n];
        for (int i = 0; i < n; i++) o[i] = order.get(i);
        return o;
    }
}
