package dev.squall.hmatrix.ksum;

import static dev.squall.hmatrix.ksum.KernelSumTest.random;
import static dev.squall.hmatrix.ksum.KernelSumTest.reference;
import static dev.squall.hmatrix.ksum.KernelSumTest.relativeError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Block-sparse sums against the dense kernel and a plain Java sum restricted to the kept tiles. */
class BlockSparseSumTest {
    static List<Device> devices() {
        return KernelSumTest.devices();
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
        Clustering cx = Clustering.grid(x, 0.25, device), cy = Clustering.grid(y, 0.25, device);
        KernelSum.Result sparse = BlockSparseSum.build(ks, x, y, cx, cy).apply(b, cols, BlockSparseSum.KeepRule.all());

        int[] ox = cx.order(), oy = cy.order();
        double[] bSorted = new double[b.length];
        for (int s = 0; s < oy.length; s++) System.arraycopy(b, oy[s] * cols, bSorted, s * cols, cols);
        double[] denseSorted = ks.apply(x.permuted(ox), y.permuted(oy), bSorted, cols).values();
        double[] dense = new double[denseSorted.length];
        for (int s = 0; s < ox.length; s++) System.arraycopy(denseSorted, s * cols, dense, ox[s] * cols, cols);

        assertArrayEquals(dense, sparse.values(), 0.0, "all-keep block-sparse must equal dense on sorted points bit for bit");
        assertEquals(1.0, sparse.keptFraction());
        assertEquals(0.0, sparse.maxBound());
        double tol = p == Precision.FP64 ? 1e-13 : 2e-6;
        assertTrue(relativeError(sparse.values(), ks.apply(x, y, b, cols).values()) < tol, "and match the dense sum in the original order to rounding");
    }

    static Stream<Arguments> cutoffCases() {
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, "gauss:0.04", 2, 0.12), Arguments.of(d, "cauchy:0.02", 3, 0.2),
                Arguments.of(d, "matern52:0.05", 3, 0.25), Arguments.of(d, "exp:0.03", 2, 0.2)));
    }

    @ParameterizedTest(name = "{0} {1} d={2} cutoff={3}")
    @MethodSource("cutoffCases")
    void droppedTilesStayWithinTheReportedBound(Device device, String kernel, int dim, double cutoff) {
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.uniform(1500, dim, 4), y = PointSet.spiral(1100, dim, 5);
        double[] b = random(y.size(), 6);
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        BlockSparseSum bs = BlockSparseSum.build(ks, x, y, Clustering.grid(x, 0.1, device), Clustering.grid(y, 0.1, device));
        KernelSum.Result r = bs.apply(b, 1, BlockSparseSum.KeepRule.within(cutoff));
        double[] exact = reference(k, x, y, b, 1);
        assertTrue(r.keptFraction() < 0.9 && r.keptFraction() > 0, "kept fraction " + r.keptFraction());
        assertTrue(r.maxBound() > 0, "something was dropped");
        long pairs = 0;
        for (int i = 0; i < x.size(); i++) {
            double err = Math.abs(r.values()[i] - exact[i]);
            assertTrue(err <= r.rowBounds()[i] + 1e-13, "row " + i + ": error " + err + " above its bound " + r.rowBounds()[i]);
            for (int j = 0; j < y.size(); j++) if (x.distance(i, y, j) < cutoff) pairs++;
        }
        assertTrue(r.pairs() >= pairs, "every pair within the cutoff is computed");
    }

    /**
     * Clusters of nearly coincident points (spread 1e-4 around centres 0.05 apart or more) and positive weights: the
     * dropped sum is then close to the bound, which must still hold and be within 5 % of it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void boundIsTightForCompactClusters(Device device) {
        PairKernel k = PairKernel.parse("gauss:0.05");
        SplittableRandom rnd = new SplittableRandom(15);
        int q = 40, per = 12;
        double[] centres = new double[q * 2];
        for (int c = 0; c < q; c++) {
            centres[2 * c] = 0.05 * (c % 8) + 0.01 * rnd.nextDouble();
            centres[2 * c + 1] = 0.05 * (c / 8) + 0.01 * rnd.nextDouble();
        }
        double[] coords = new double[q * per * 2];
        int[] labels = new int[q * per];
        for (int i = 0; i < q * per; i++) {
            labels[i] = i % q;
            for (int d = 0; d < 2; d++) coords[2 * i + d] = centres[2 * labels[i] + d] + 1e-4 * (rnd.nextDouble() - 0.5);
        }
        PointSet x = PointSet.of(2, coords);
        double[] b = new SplittableRandom(16).doubles(x.size(), 0.5, 1).toArray();
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        Clustering c = Clustering.fromLabels(labels, q);
        KernelSum.Result r = BlockSparseSum.build(ks, x, x, c, c).apply(b, 1, BlockSparseSum.KeepRule.within(0.08));
        double[] exact = reference(k, x, x, b, 1);
        int checked = 0;
        for (int i = 0; i < x.size(); i++) {
            double dropped = exact[i] - r.values()[i];
            assertTrue(dropped <= r.rowBounds()[i] + 1e-13, "row " + i + ": dropped " + dropped + " above its bound " + r.rowBounds()[i]);
            if (r.rowBounds()[i] > 1e-6) {
                assertTrue(dropped >= 0.95 * r.rowBounds()[i], "row " + i + ": bound " + r.rowBounds()[i] + " far above dropped " + dropped);
                checked++;
            }
        }
        assertTrue(checked > x.size() / 2, "most rows drop something measurable: " + checked);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void maskedAndTransposedSumsFollowTheMaskWithEmptyClusters(Device device) {
        PairKernel k = PairKernel.parse("matern32:0.3");
        PointSet x = PointSet.uniform(333, 3, 7), y = PointSet.gaussian(201, 3, 8);
        SplittableRandom rnd = new SplittableRandom(9);
        int tq = 9, sq = 7;
        int[] lx = rnd.ints(x.size(), 0, tq).map(v -> v == 4 ? 5 : v).toArray();       // target cluster 4 empty
        int[] ly = rnd.ints(y.size(), 0, sq).map(v -> v == 0 || v == 6 ? 3 : v).toArray(); // source clusters 0 and 6 empty
        boolean[][] keep = new boolean[tq][sq];
        for (int t = 0; t < tq; t++) for (int s = 0; s < sq; s++) keep[t][s] = rnd.nextInt(3) > 0;
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        BlockSparseSum bs = BlockSparseSum.build(ks, x, y, Clustering.fromLabels(lx, tq), Clustering.fromLabels(ly, sq));
        double[] b = random(y.size() * 2, 10), a = random(x.size() * 2, 11);
        double[] got = bs.apply(b, 2, BlockSparseSum.KeepRule.mask(keep)).values();
        double[] gotT = bs.applyTransposed(a, 2, BlockSparseSum.KeepRule.mask(keep)).values();
        double[] want = new double[x.size() * 2], wantT = new double[y.size() * 2];
        for (int i = 0; i < x.size(); i++) {
            for (int j = 0; j < y.size(); j++) {
                if (!keep[lx[i]][ly[j]]) continue;
                double v = k.evaluate(x.distance(i, y, j));
                for (int c = 0; c < 2; c++) {
                    want[i * 2 + c] += v * b[j * 2 + c];
                    wantT[j * 2 + c] += v * a[i * 2 + c];
                }
            }
        }
        assertTrue(relativeError(got, want) < 1e-13, "masked: " + relativeError(got, want));
        assertTrue(relativeError(gotT, wantT) < 1e-13, "masked transposed: " + relativeError(gotT, wantT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void oneClusterAndEightDimensionsAndOneSourceWork(Device device) {
        PairKernel k = PairKernel.parse("gauss:0.6");
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        PointSet x = PointSet.uniform(150, 8, 12), y = PointSet.uniform(97, 8, 13);
        double[] b = random(y.size(), 14);
        BlockSparseSum one1 = BlockSparseSum.build(ks, x, y, Clustering.single(x.size()), Clustering.single(y.size()));
        assertArrayEquals(ks.apply(x, y, b, 1).values(), one1.apply(b, 1, BlockSparseSum.KeepRule.all()).values(), 0.0,
                "one cluster each, all kept: the dense sum itself");
        KernelSum.Result none = one1.apply(b, 1, BlockSparseSum.KeepRule.within(0.0));
        double absSum = 0;
        for (double v : b) absSum += Math.abs(v);
        assertEquals(0L, none.pairs());
        for (int i = 0; i < x.size(); i++) {
            assertEquals(0.0, none.values()[i]);
            assertEquals(absSum, none.rowBounds()[i], 1e-13 * absSum, "nothing kept: the bound is k(0) sum |b|");
        }
        KernelSum.Result grid = BlockSparseSum.build(ks, x, y, Clustering.grid(x, 0.5, device), Clustering.grid(y, 0.5, device))
                .apply(b, 1, BlockSparseSum.KeepRule.within(1.2));
        double[] exact = reference(k, x, y, b, 1);
        for (int i = 0; i < x.size(); i++) assertTrue(Math.abs(grid.values()[i] - exact[i]) <= grid.rowBounds()[i] + 1e-13);
        PointSet one = PointSet.of(8, new double[] {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5});
        double[] a = BlockSparseSum.build(ks, x, one, Clustering.grid(x, 0.5, device), Clustering.single(1))
                .apply(new double[] {3.0}, 1, BlockSparseSum.KeepRule.all()).values();
        for (int i = 0; i < x.size(); i++) assertEquals(3.0 * k.evaluate(x.distance(i, one, 0)), a[i], 1e-15);
    }

    /**
     * The fast range search (grid sources: only clusters near each target cluster visited, the far ones bounded
     * together) against the search over all cluster pairs: both within their bounds of the plain Java sum, every pair
     * within the cutoff computed, no more pairs than the full search keeps; on a cloud and a grid wider than the search box.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("pruneCases")
    void nearClusterSearchKeepsEveryCloseTileAndHoldsItsBound(Device device, Precision p) {
        PairKernel k = PairKernel.parse("gauss:0.02");
        PointSet x = PointSet.uniform(3000, 3, 21), y = PointSet.gaussian(2600, 3, 22);
        double[] b = random(y.size(), 23);
        KernelSum ks = new KernelSum(k, p, device);
        BlockSparseSum bs = BlockSparseSum.build(ks, x, y, Clustering.grid(x, 0.05, device), Clustering.grid(y, 0.05, device));
        KernelSum.Result fast = bs.apply(b, 1, BlockSparseSum.KeepRule.within(0.08));
        KernelSum.Result full = bs.apply(b, 1, BlockSparseSum.KeepRule.withinTightBounds(0.08));
        double[] exact = reference(k, x, y, b, 1);
        double u = p == Precision.FP64 ? 1e-13 : 2e-6;
        long close = 0;
        for (int i = 0; i < x.size(); i++) {
            for (int j = 0; j < y.size(); j++) if (x.distance(i, y, j) < 0.08) close++;
            for (KernelSum.Result r : new KernelSum.Result[] {fast, full}) {
                double err = Math.abs(r.values()[i] - exact[i]);
                assertTrue(err <= r.rowBounds()[i] + u * Math.max(1, Math.abs(exact[i])), "row " + i + ": error " + err + ", bound " + r.rowBounds()[i]);
            }
        }
        assertTrue(fast.pairs() >= close && fast.pairs() <= full.pairs(), fast.pairs() + " pairs, " + close + " close, " + full.pairs() + " in the full search");
        assertTrue(fast.keptFraction() < 0.3, "kept " + fast.keptFraction());
    }

    static Stream<Arguments> pruneCases() {
        return devices().stream().flatMap(d -> Stream.of(Arguments.of(d, Precision.FP64), Arguments.of(d, Precision.FP32)));
    }

    @Test
    void nanCoordinatesAreBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PointSet.of(3, new double[] {0, 0, 0, 1, Double.NaN, 1}));
        assertTrue(e.getMessage().contains("coordinate 1 of point 1 is NaN"), e.getMessage());
    }
}
