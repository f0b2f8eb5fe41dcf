package dev.squall.hmatrix.ksum;

import static dev.squall.hmatrix.ksum.KernelSumTest.random;
import static dev.squall.hmatrix.ksum.KernelSumTest.reference;
import static dev.squall.hmatrix.ksum.KernelSumTest.relativeError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.ksum.BlockSparseSum.KeepRule;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The device pipeline of block-sparse sums over a grid against plain Java: the sorted orders (cells in row-major order,
 * original order within a cell), every kept tile (a Java sum over the pairs whose cells the distance rule keeps), the
 * bound on the dropped terms, and all-keep equal to the dense sum on the sorted clouds bit for bit.
 */
class GridBlockSparseSumTest {
    static List<Device> devices() {
        return KernelSumTest.devices();
    }

    /** The grid the pipeline uses: common lower corner, cells per dimension, row-major key per point. */
    private record HostGrid(double[] lo, int[] cells, int[] xKeys, int[] yKeys) {
        static HostGrid of(PointSet x, PointSet y, double cell) {
            int dim = x.dim();
            double[] lo = new double[dim], hi = new double[dim];
            Arrays.fill(lo, Double.POSITIVE_INFINITY);
            Arrays.fill(hi, Double.NEGATIVE_INFINITY);
            for (PointSet s : List.of(x, y)) {
                for (int i = 0; i < s.size(); i++) {
                    for (int d = 0; d < dim; d++) {
                        lo[d] = Math.min(lo[d], s.coord(i, d));
                        hi[d] = Math.max(hi[d], s.coord(i, d));
                    }
                }
            }
            int[] cells = new int[dim];
            for (int d = 0; d < dim; d++) cells[d] = (int) Math.floor((hi[d] - lo[d]) / cell) + 1;
            return new HostGrid(lo, cells, keys(x, lo, cells, cell), keys(y, lo, cells, cell));
        }

        static int[] keys(PointSet s, double[] lo, int[] cells, double cell) {
            return keys(s, lo, cells, cell, 1);
        }

        /** Keys with cells {@code span} times wider along the first coordinate ({@code cells} counted on that grid). */
        static int[] keys(PointSet s, double[] lo, int[] cells, double cell, int span) {
            int[] k = new int[s.size()];
            for (int i = 0; i < s.size(); i++) {
                int key = 0, stride = 1;
                for (int d = 0; d < s.dim(); d++) {
                    double u = Math.floor((s.coord(i, d) - lo[d]) * (1.0 / (d == 0 ? cell * span : cell)));
                    int c = u > 0 ? (int) Math.min(u, cells[d] - 1) : 0;
                    key += c * stride;
                    stride *= cells[d];
                }
                k[i] = key;
            }
            return k;
        }
    }

    /** Points sorted by key, ties by index: what the device's counting sort and per-cluster sort give. */
    private static int[] sortedOrder(int[] keys) {
        return java.util.stream.IntStream.range(0, keys.length).boxed()
                .sorted((a, b) -> keys[a] != keys[b] ? Integer.compare(keys[a], keys[b]) : Integer.compare(a, b))
                .mapToInt(Integer::intValue).toArray();
    }

    /** Centroid ({@code dim} values) then radius of every non-empty cell, by key, summed in increasing index. */
    private static java.util.Map<Integer, double[]> balls(PointSet s, int[] keys) {
        int dim = s.dim();
        java.util.Map<Integer, double[]> sum = new java.util.TreeMap<>();
        java.util.Map<Integer, Integer> count = new java.util.HashMap<>();
        for (int i = 0; i < s.size(); i++) {
            double[] c = sum.computeIfAbsent(keys[i], k -> new double[dim + 1]);
            for (int d = 0; d < dim; d++) c[d] += s.coord(i, d);
            count.merge(keys[i], 1, Integer::sum);
        }
        for (var e : sum.entrySet()) for (int d = 0; d < dim; d++) e.getValue()[d] *= 1.0 / count.get(e.getKey());
        for (int i = 0; i < s.size(); i++) {
            double[] c = sum.get(keys[i]);
            double r2 = 0;
            for (int d = 0; d < dim; d++) r2 += (s.coord(i, d) - c[d]) * (s.coord(i, d) - c[d]);
            c[dim] = Math.max(c[dim], r2);
        }
        for (double[] c : sum.values()) c[dim] = Math.sqrt(c[dim]) * (1.0 + 1e-12);
        return sum;
    }

    static Stream<Arguments> exactCases() {
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, 3, 1, Precision.FP32), Arguments.of(d, 3, 1, Precision.FP64),
                Arguments.of(d, 5, 3, Precision.FP32), Arguments.of(d, 1, 1, Precision.FP64)));
    }

    @ParameterizedTest(name = "{0} d={1} cols={2} {3}")
    @MethodSource("exactCases")
    void keepingEveryTileEqualsTheDenseSumOnTheSortedPoints(Device device, int dim, int cols, Precision p) {
        PointSet x = PointSet.gaussian(700, dim, 1), y = PointSet.uniform(450, dim, 2);
        double[] b = random(y.size() * cols, 3);
        KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.2"), p, device);
        GridBlockSparseSum.Outcome o = new GridBlockSparseSum(ks, 0.25).withOrders(true).apply(x, y, b, cols, KeepRule.all(), 0);
        HostGrid g = HostGrid.of(x, y, 0.25);
        int[] ox = o.targetOrder(), oy = o.sourceOrder();
        assertArrayEquals(sortedOrder(g.xKeys()), ox, "targets sorted by row-major cell, original order within a cell");
        assertArrayEquals(sortedOrder(g.yKeys()), oy, "sources sorted by row-major cell, original order within a cell");
        assertEquals(Arrays.stream(g.xKeys()).distinct().count(), o.targetClusters());
        assertEquals(Arrays.stream(g.yKeys()).distinct().count(), o.sourceClusters());

        double[] bSorted = new double[b.length];
        for (int s = 0; s < oy.length; s++) System.arraycopy(b, oy[s] * cols, bSorted, s * cols, cols);
        double[] denseSorted = ks.apply(x.permuted(ox), y.permuted(oy), bSorted, cols).values();
        double[] dense = new double[denseSorted.length];
        for (int s = 0; s < ox.length; s++) System.arraycopy(denseSorted, s * cols, dense, ox[s] * cols, cols);
        KernelSum.Result r = o.result();
        assertArrayEquals(dense, r.values(), 0.0, "all-keep must equal dense on the sorted points bit for bit");
        assertEquals(1.0, r.keptFraction());
        assertEquals(0.0, r.maxBound());
        double tol = p == Precision.FP64 ? 1e-13 : 2e-6;
        assertTrue(relativeError(r.values(), reference(ks.kernel(), x, y, b, cols)) < tol, "and match the plain Java sum to rounding");
    }

    static Stream<Arguments> keptCases() {
        // kernel, dim, cols, targets, sources, cell, cutoff: M != N, N = 1, one cluster, D = 8, sizes off the tile widths
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, "gauss:0.04", 3, 1, 1500, 1100, 0.07, 0.12),
                Arguments.of(d, "cauchy:0.02", 2, 2, 901, 1777, 0.05, 0.2),
                Arguments.of(d, "matern52:0.05", 3, 1, 333, 1, 0.1, 0.25),
                Arguments.of(d, "exp:0.3", 3, 1, 257, 129, 5.0, 0.5),
                Arguments.of(d, "gauss:0.3", 8, 3, 150, 97, 0.3, 0.6)));
    }

    @ParameterizedTest(name = "{0} {1} d={2} cols={3} {4}x{5} cell={6} cutoff={7}")
    @MethodSource("keptCases")
    void computesExactlyTheKeptTilesAndBoundsTheRest(Device device, String kernel, int dim, int cols, int m, int n, double cell,
            double cutoff) {
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.uniform(m, dim, 4), y = PointSet.spiral(n, dim, 5);
        double[] b = random(n * cols, 6);
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        GridBlockSparseSum.Outcome tight = new GridBlockSparseSum(ks, cell).apply(x, y, b, cols, KeepRule.withinTightBounds(cutoff), 0);
        GridBlockSparseSum.Outcome fast = new GridBlockSparseSum(ks, cell).apply(x, y, b, cols, KeepRule.within(cutoff), 0);

        // plain Java: the pairs whose cells' balls come closer than the cutoff
        HostGrid g = HostGrid.of(x, y, cell);
        var bx = balls(x, g.xKeys()); var by = balls(y, g.yKeys());
        double[] kept = new double[m * cols], exact = reference(k, x, y, b, cols);
        long pairs = 0, within = 0;
        for (int i = 0; i < m; i++) {
            double[] ct = bx.get(g.xKeys()[i]);
            for (int j = 0; j < n; j++) {
                if (x.distance(i, y, j) < cutoff) within++;
                double[] cs = by.get(g.yKeys()[j]);
                double d2 = 0;
                for (int d = 0; d < dim; d++) d2 += (ct[d] - cs[d]) * (ct[d] - cs[d]);
                if (Math.max(0, Math.sqrt(d2) - ct[dim] - cs[dim]) < cutoff) {
                    pairs++;
                    double v = k.evaluate(x.distance(i, y, j));
                    for (int c = 0; c < cols; c++) kept[i * cols + c] += v * b[j * cols + c];
                }
            }
        }
        assertEquals(pairs, tight.result().pairs(), "pairs kept");
        assertTrue(relativeError(tight.result().values(), kept) < 1e-13, "the sum over the kept tiles");
        assertEquals(bx.size(), tight.targetClusters());
        assertEquals(by.size(), tight.sourceClusters());
        for (GridBlockSparseSum.Outcome o : List.of(tight, fast)) {
            KernelSum.Result r = o.result();
            assertEquals(m * cols, r.values().length);
            for (int i = 0; i < m; i++) {
                for (int c = 0; c < cols; c++) {
                    double err = Math.abs(r.values()[i * cols + c] - exact[i * cols + c]);
                    assertTrue(err <= r.rowBounds()[i] + 1e-13 * (1 + Math.abs(exact[i * cols + c])),
                            "row " + i + " column " + c + ": error " + err + " above its bound " + r.rowBounds()[i]);
                }
            }
        }
        assertTrue(fast.result().pairs() <= tight.result().pairs(), "the box search keeps a subset of the all-pairs rule");
        assertTrue(fast.result().pairs() >= within, "and every pair closer than the cutoff");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void widerTargetClustersComputeExactlyTheirKeptTiles(Device device) {
        // targets in cells 3 source cells wide along x: the kept pairs are those of the ball rule on the wider clusters
        PairKernel k = PairKernel.parse("gauss:0.04");
        PointSet x = PointSet.uniform(1400, 3, 51), y = PointSet.gaussian(1200, 3, 52);
        double[] b = random(y.size(), 53);
        double cell = 0.08, cutoff = 0.12;
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        GridBlockSparseSum.Outcome o = new GridBlockSparseSum(ks, cell).withTargetSpan(3).withOrders(true)
                .apply(x, y, b, 1, KeepRule.withinTightBounds(cutoff), 0);
        GridBlockSparseSum.Outcome fast = new GridBlockSparseSum(ks, cell).withTargetSpan(3).apply(x, y, b, 1, KeepRule.within(cutoff), 0);
        HostGrid g = HostGrid.of(x, y, cell);
        int[] tCells = g.cells().clone();
        // the target grid's cell count along x, as the pipeline computes it from the bounding box
        double extent0 = 0;
        for (PointSet s : List.of(x, y)) for (int i = 0; i < s.size(); i++) extent0 = Math.max(extent0, s.coord(i, 0) - g.lo()[0]);
        tCells[0] = (int) Math.floor(extent0 / (3 * cell)) + 1;
        int[] tKeys = HostGrid.keys(x, g.lo(), tCells, cell, 3);
        assertArrayEquals(sortedOrder(tKeys), o.targetOrder(), "targets sorted by their wider cells");
        var bx = balls(x, tKeys); var by = balls(y, g.yKeys());
        double[] kept = new double[x.size()], exact = reference(k, x, y, b, 1);
        long pairs = 0, within = 0;
        for (int i = 0; i < x.size(); i++) {
            double[] ct = bx.get(tKeys[i]);
            for (int j = 0; j < y.size(); j++) {
                if (x.distance(i, y, j) < cutoff) within++;
                double[] cs = by.get(g.yKeys()[j]);
                double d2 = 0;
                for (int d = 0; d < 3; d++) d2 += (ct[d] - cs[d]) * (ct[d] - cs[d]);
                if (Math.max(0, Math.sqrt(d2) - ct[3] - cs[3]) < cutoff) {
                    pairs++;
                    kept[i] += k.evaluate(x.distance(i, y, j)) * b[j];
                }
            }
        }
        assertEquals(bx.size(), o.targetClusters());
        assertEquals(pairs, o.result().pairs());
        assertTrue(relativeError(o.result().values(), kept) < 1e-13);
        assertTrue(fast.result().pairs() >= within, "every pair closer than the cutoff");
        for (GridBlockSparseSum.Outcome r : List.of(o, fast)) {
            for (int i = 0; i < x.size(); i++) {
                double err = Math.abs(r.result().values()[i] - exact[i]);
                assertTrue(err <= r.result().rowBounds()[i] + 1e-13 * (1 + Math.abs(exact[i])), "row " + i + ": " + err);
            }
        }
    }

    static Stream<Arguments> warpTileCases() {
        // points, targets, sources, cell, kernel, cutoff: clusters of about 0.3, 3, 60 points and of up to ~1000 (several
        // tiles a cluster), sizes off the tile and stage widths
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, "uniform", 2000, 2500, 0.02, "gauss:0.02", 0.06),
                Arguments.of(d, "uniform", 3001, 2800, 0.1, "gauss:0.05", 0.2),
                Arguments.of(d, "uniform", 4000, 3501, 0.25, "gauss:0.1", 0.3),
                Arguments.of(d, "gaussian", 6000, 5001, 0.15, "gauss:0.06", 0.2)));
    }

    @ParameterizedTest(name = "{0} {1} {2}x{3} cell={4} {5} cutoff={6}")
    @MethodSource("warpTileCases")
    void fp32GaussianTilesOfOneWarpComputeExactlyTheKeptPairs(Device device, String points, int m, int n, double cell, String kernel,
            double cutoff) {
        // the fp32 Gaussian in 3 dimensions runs GridGaussKernelsF32.gaussTiles3: every kept pair once, to fp32 rounding
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.named(points, m, 3, 61), y = PointSet.named(points, n, 3, 62);
        double[] b = random(n, 63);
        KernelSum ks = new KernelSum(k, Precision.FP32, device);
        GridBlockSparseSum.Outcome o = new GridBlockSparseSum(ks, cell).apply(x, y, b, 1, KeepRule.withinTightBounds(cutoff), 1);
        assertEquals("gaussTiles3", o.sumKernel());
        KernelSum.Result r = o.result();
        HostGrid g = HostGrid.of(x, y, cell);
        var bx = balls(x, g.xKeys()); var by = balls(y, g.yKeys());
        // fp32 rounding of a term: the coordinates (at most `reach` from the clouds' midpoint, where they are rounded)
        // move its exponent |x - y|^2 / (2 l^2) by about 2 u reach |x - y| / l^2 each, the expanded exponent's parts
        // (|v|^2 with v = y - centroid, |v| <= |x - y| + the cell's diagonal) by a few u |v|^2 / l^2, the exponential
        // and the sums by a few u
        double u = 0x1p-24, c = k.inverseSquaredLength(), reach = 0;
        for (PointSet s : List.of(x, y)) {
            for (int i = 0; i < s.size(); i++) {
                double r2 = 0;
                for (int d = 0; d < 3; d++) r2 += Math.pow(s.coord(i, d) - 0.5 * (g.lo()[d] + g.lo()[d] + g.cells()[d] * cell), 2);
                reach = Math.max(reach, Math.sqrt(r2));
            }
        }
        long pairs = 0;
        for (int i = 0; i < m; i++) {
            double[] ct = bx.get(g.xKeys()[i]);
            double kept = 0, magnitude = 0;
            for (int j = 0; j < n; j++) {
                double[] cs = by.get(g.yKeys()[j]);
                double d2 = 0;
                for (int d = 0; d < 3; d++) d2 += (ct[d] - cs[d]) * (ct[d] - cs[d]);
                if (Math.max(0, Math.sqrt(d2) - ct[3] - cs[3]) < cutoff) {
                    pairs++;
                    double dist = x.distance(i, y, j), v = k.evaluate(dist) * b[j], far = dist + cell * Math.sqrt(3);
                    kept += v;
                    magnitude += Math.abs(v) * (16 * u + 4 * u * (reach * dist + far * far) * c);
                }
            }
            assertEquals(kept, r.values()[i], magnitude + 1e-30, "row " + i);
        }
        assertEquals(pairs, r.pairs(), "pairs kept");
        assertTrue(r.keptFraction() > 0 && r.keptFraction() < 1, "kept " + r.keptFraction());
    }

    /** Slab labels along the first coordinate: {@code min(labels - 1, floor(x_0 labels))}; slabs no point reaches stay empty. */
    private static int[] slabs(PointSet p, int labels) {
        int[] l = new int[p.size()];
        for (int i = 0; i < l.length; i++) l[i] = (int) Math.max(0, Math.min(labels - 1, Math.floor(p.coord(i, 0) * labels)));
        return l;
    }

    static Stream<Arguments> maskCases() {
        // kernel, dim, cols, targets, sources, target labels, source labels, precision, kept share of the mask: empty
        // clusters (gaussian points leave the outer slabs empty), one target cluster, N = 1, D = 8, the fp32 Gaussian's
        // one-warp tiles
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, "gauss:0.1", 3, 1, 1500, 1100, 20, 16, Precision.FP64, 0.4),
                Arguments.of(d, "gauss:0.1", 3, 1, 1700, 1300, 24, 20, Precision.FP32, 0.3),
                Arguments.of(d, "cauchy:0.05", 2, 2, 900, 777, 1, 9, Precision.FP64, 0.5),
                Arguments.of(d, "matern32:0.2", 3, 1, 333, 1, 7, 3, Precision.FP64, 0.5),
                Arguments.of(d, "gauss:0.3", 8, 3, 150, 97, 5, 6, Precision.FP64, 0.6)));
    }

    @ParameterizedTest(name = "{0} {1} d={2} cols={3} {4}x{5} labels {6}x{7} {8} keep={9}")
    @MethodSource("maskCases")
    void masksOverLabelledClustersComputeExactlyTheKeptTilesAndBoundTheRest(Device device, String kernel, int dim, int cols, int m, int n,
            int tLabels, int sLabels, Precision p, double share) {
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.gaussian(m, dim, 71), y = PointSet.gaussian(n, dim, 72);
        double[] b = random(n * cols, 73);
        int[] xl = slabs(x, tLabels), yl = slabs(y, sLabels);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(74);
        boolean[][] keep = new boolean[tLabels][sLabels];
        for (boolean[] row : keep) for (int s = 0; s < sLabels; s++) row[s] = rnd.nextDouble() < share;
        keep[0][0] = true;
        KernelSum ks = new KernelSum(k, p, device);
        GridBlockSparseSum.Outcome o = new GridBlockSparseSum(ks, 1.0).withOrders(true).applyMasked(x, xl, y, yl, b, cols, keep, 0);
        // sorted by label, original order within a label
        assertArrayEquals(sortedOrder(xl), o.targetOrder());
        assertArrayEquals(sortedOrder(yl), o.sourceOrder());
        double[] kept = new double[m * cols], magnitude = new double[m], exact = reference(k, x, y, b, cols);
        long pairs = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                if (!keep[xl[i]][yl[j]]) continue;
                pairs++;
                double v = k.evaluate(x.distance(i, y, j));
                for (int c = 0; c < cols; c++) {
                    kept[i * cols + c] += v * b[j * cols + c];
                    magnitude[i] += Math.abs(v * b[j * cols + c]);
                }
            }
        }
        KernelSum.Result r = o.result();
        assertEquals(pairs, r.pairs(), "pairs kept");
        double rounding = p == Precision.FP64 ? 1e-13 : 2e-5;
        for (int i = 0; i < m; i++) {
            for (int c = 0; c < cols; c++) {
                double got = r.values()[i * cols + c];
                assertEquals(kept[i * cols + c], got, rounding * (magnitude[i] + 1e-300), "row " + i + " column " + c);
                double err = Math.abs(got - exact[i * cols + c]);
                assertTrue(err <= r.rowBounds()[i] + rounding * (1 + Math.abs(exact[i * cols + c])),
                        "row " + i + ": error " + err + " above its bound " + r.rowBounds()[i]);
            }
        }
        assertEquals(Arrays.stream(xl).distinct().count(), Arrays.stream(o.targetOrder()).map(i -> xl[i]).distinct().count());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("precisionCases")
    void anAllKeepMaskEqualsTheDenseSumOnTheSortedPoints(Device device, Precision p) {
        PointSet x = PointSet.uniform(800, 3, 81), y = PointSet.gaussian(650, 3, 82);
        double[] b = random(y.size(), 83);
        int[] xl = slabs(x, 9), yl = slabs(y, 11);
        boolean[][] keep = new boolean[9][11];
        for (boolean[] row : keep) Arrays.fill(row, true);
        KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.2"), p, device);
        GridBlockSparseSum.Outcome o = new GridBlockSparseSum(ks, 1.0).withOrders(true).applyMasked(x, xl, y, yl, b, 1, keep, 0);
        int[] ox = o.targetOrder(), oy = o.sourceOrder();
        double[] bSorted = new double[b.length];
        for (int s = 0; s < oy.length; s++) bSorted[s] = b[oy[s]];
        double[] denseSorted = ks.apply(x.permuted(ox), y.permuted(oy), bSorted, 1).values();
        double[] dense = new double[denseSorted.length];
        for (int s = 0; s < ox.length; s++) dense[ox[s]] = denseSorted[s];
        assertArrayEquals(dense, o.result().values(), 0.0, "all-keep must equal dense on the sorted points bit for bit");
        assertEquals(1.0, o.result().keptFraction());
        assertEquals("dense", o.sumKernel());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void labelsOutOfRangeAreNamed(Device device) {
        KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.1"), Precision.FP64, device);
        PointSet x = PointSet.uniform(30, 2, 91);
        double[] b = random(30, 92);
        int[] labels = new int[30];
        labels[17] = 4;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GridBlockSparseSum(ks, 1.0).applyMasked(x, labels, x, new int[30], b, 1, new boolean[3][2], 0));
        assertTrue(e.getMessage().contains("label 4 of point 17"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new GridBlockSparseSum(ks, 1.0).applyMasked(x, new int[29], x, new int[30], b, 1, new boolean[3][2], 0));
    }

    static Stream<Arguments> precisionCases() {
        return devices().stream().flatMap(d -> Stream.of(Arguments.of(d, Precision.FP32), Arguments.of(d, Precision.FP64)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("precisionCases")
    void expandedGaussianOverSmallCellsMeetsItsBoundInBothPrecisions(Device device, Precision p) {
        PairKernel k = PairKernel.parse("gauss:0.03");
        PointSet x = PointSet.uniform(3000, 3, 21), y = PointSet.gaussian(2600, 3, 22);
        double[] b = random(y.size(), 23);
        KernelSum ks = new KernelSum(k, p, device);
        KernelSum.Result r = new GridBlockSparseSum(ks, 0.08).apply(x, y, b, 1, KeepRule.within(0.15), 2).result();
        double[] exact = reference(k, x, y, b, 1);
        double scale = Arrays.stream(exact).map(Math::abs).max().orElse(1);
        double rounding = p == Precision.FP64 ? 1e-13 : 3e-6;
        assertTrue(r.keptFraction() > 0 && r.keptFraction() < 0.5, "kept " + r.keptFraction());
        for (int i = 0; i < x.size(); i++) {
            double err = Math.abs(r.values()[i] - exact[i]);
            assertTrue(err <= r.rowBounds()[i] + rounding * scale, "row " + i + ": error " + err + " bound " + r.rowBounds()[i]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void clustersTooLargeToSortKeepTheirScatterOrderAndStayExact(Device device) {
        // one cell holds all 5000 targets: past the per-cluster sort, the order within it is the scatter's
        PointSet x = PointSet.uniform(GridBlockSparseSum.SORTED_CLUSTER_LIMIT + 904, 2, 31), y = PointSet.uniform(300, 2, 32);
        double[] b = random(y.size(), 33);
        KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.5"), Precision.FP64, device);
        GridBlockSparseSum.Outcome o = new GridBlockSparseSum(ks, 2.0).withOrders(true).apply(x, y, b, 1, KeepRule.all(), 0);
        int[] ox = o.targetOrder();
        int[] seen = ox.clone();
        Arrays.sort(seen);
        for (int i = 0; i < seen.length; i++) assertEquals(i, seen[i], "the order is a permutation");
        assertEquals(1, o.targetClusters());
        assertTrue(relativeError(o.result().values(), reference(ks.kernel(), x, y, b, 1)) < 1e-13);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("precisionCases")
    void aReusedInstanceGivesWhatFreshOnesGive(Device device, Precision p) {
        // the workspace and the launch plans stay between products: counters must be cleared, sizes may change, the same
        // sizes with another b rerun the kept plans
        KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.05"), p, device);
        PointSet x1 = PointSet.uniform(900, 3, 41), y1 = PointSet.gaussian(700, 3, 42), x2 = PointSet.spiral(1300, 3, 43);
        double[] b1 = random(700, 44), b2 = random(1300 * 2, 45);
        double[] b3 = random(700, 46);
        Object[][] calls = {{x1, y1, b1, 1, KeepRule.within(0.15)}, {x1, y1, b3, 1, KeepRule.within(0.15)}, {x1, y1, b1, 1, KeepRule.all()},
                {x2, x2, b2, 2, KeepRule.within(0.2)}, {x1, y1, b1, 1, KeepRule.within(0.15)}, {x1, y1, b1, 1, KeepRule.within(0.15)}};
        try (GridBlockSparseSum reused = new GridBlockSparseSum(ks, 0.1)) {
            for (Object[] c : calls) {
                KernelSum.Result got = reused.apply((PointSet) c[0], (PointSet) c[1], (double[]) c[2], (int) c[3], (KeepRule) c[4], 0).result();
                KernelSum.Result want;
                try (GridBlockSparseSum fresh = new GridBlockSparseSum(ks, 0.1)) {
                    want = fresh.apply((PointSet) c[0], (PointSet) c[1], (double[]) c[2], (int) c[3], (KeepRule) c[4], 0).result();
                }
                assertArrayEquals(want.values(), got.values(), 0.0);
                assertArrayEquals(want.rowBounds(), got.rowBounds(), 0.0);
                assertEquals(want.pairs(), got.pairs());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void rejectsMasksAndGridsWithTooManyCells(Device device) {
        KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.1"), Precision.FP64, device);
        PointSet x = PointSet.uniform(50, 3, 1);
        double[] b = random(50, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GridBlockSparseSum(ks, 1e-4).apply(x, x, b, 1, KeepRule.within(0.1), 0));
        assertTrue(e.getMessage().contains("grid cells"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new GridBlockSparseSum(ks, 0.1).apply(x, x, b, 1, KeepRule.mask(new boolean[][] {{true}}), 0));
        assertThrows(IllegalArgumentException.class, () -> new GridBlockSparseSum(ks, 0));
        // non-finite input is named: a value of b by index, a coordinate by point
        double[] bad = b.clone();
        bad[37] = Double.NaN;
        e = assertThrows(IllegalArgumentException.class, () -> new GridBlockSparseSum(ks, 0.1).apply(x, x, bad, 1, KeepRule.within(0.1), 0));
        assertTrue(e.getMessage().contains("b[37] is NaN"), e.getMessage());
        double[] c = x.coordinates();
        c[3 * 12 + 2] = Double.NaN;
        e = assertThrows(IllegalArgumentException.class, () -> PointSet.of(3, c));
        assertTrue(e.getMessage().contains("coordinate 2 of point 12 is NaN"), e.getMessage());
    }
}
