package dev.squall.hmatrix.ksum;

import static dev.squall.hmatrix.ksum.KernelSumTest.reference;
import static dev.squall.hmatrix.ksum.KernelSumTest.relativeError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The expanded Gaussian kernels ({@link GaussSumKernelsF32#gaussExpanded3}, {@link GaussSumKernelsF64#gaussExpanded3})
 * against a plain fp64 Java sum: clouds far from the origin, narrow and wide length scales, sizes that are not
 * multiples of the tile, M != N, one source or one target, targets far from every source; and the fp64 exponential.
 */
class GaussSumKernelsTest {
    /** {@code n} points uniform in the cube {@code [offset, offset + side)^3}. */
    static PointSet cube(int n, double offset, double side, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] c = new double[3 * n];
        for (int k = 0; k < c.length; k++) c[k] = offset + side * r.nextDouble();
        return PointSet.of(3, c);
    }

    static Stream<Arguments> cases() {
        // device, precision, length scale, targets, sources, offset of the clouds, side of the cube
        return KernelSumTest.devices().stream().flatMap(d -> Stream.of(Precision.FP32, Precision.FP64).flatMap(p -> Stream.of(
                Arguments.of(d, p, 0.1, 1037, 2311, 0.0, 1.0),       // the reference problem's shape, S = 54
                Arguments.of(d, p, 0.1, 613, 1700, 1000.0, 1.0),     // far from the origin
                Arguments.of(d, p, 0.1, 500, 900, -3.0e4, 1.0),
                Arguments.of(d, p, 3.0, 777, 1203, 50.0, 1.0),       // wide: nearly constant kernel
                Arguments.of(d, p, 40.0, 300, 2000, 0.0, 100.0),     // wide on a large cloud
                Arguments.of(d, p, 0.002, 400, 1500, 7.0, 0.02),     // narrow on a small cloud
                Arguments.of(d, p, 0.2, 1, 999, 0.0, 1.0),           // one target
                Arguments.of(d, p, 0.2, 1025, 1, 0.0, 1.0))));       // one source
    }

    @ParameterizedTest(name = "{0} {1} l={2} m={3} n={4} offset={5} side={6}")
    @MethodSource("cases")
    void expandedSumMatchesJavaReference(Device device, Precision p, double l, int m, int n, double offset, double side) {
        PairKernel k = PairKernel.parse("gauss:" + l);
        PointSet x = cube(m, offset, side, 1), y = cube(n, offset, side, 2);
        double[] b = new SplittableRandom(3).doubles(n, 0, 1).toArray();
        KernelSum ks = new KernelSum(k, p, device);
        assertTrue(fits(ks, x, y, b), "the expanded form applies to this case");
        double[] want = reference(k, x, y, b, 1);
        double[] got = ks.apply(x, y, b, 1).values();
        double[] direct = ks.withExpansion(false).apply(x, y, b, 1).values();
        if (m >= 100) assertFalse(Arrays.equals(got, direct), "the expanded and the direct kernels differ in rounding (the expanded one ran)");
        double tol = p == Precision.FP64 ? 1e-13 : 2e-6;
        assertTrue(relativeError(got, want) < tol, "expanded: relative error " + relativeError(got, want));
        assertTrue(relativeError(direct, want) < tol, "direct: relative error " + relativeError(direct, want));
        for (int i = 0; i < m; i++) {
            double rel = Math.abs(got[i] - want[i]) / want[i];
            assertTrue(rel < (p == Precision.FP64 ? 1e-12 : 1e-5), "row " + i + ": relative error " + rel);
        }
    }

    static Stream<Arguments> splitCases() {
        // device, precision, targets, sources: enough sources for several segments, counts not multiples of the tiles
        return KernelSumTest.devices().stream().flatMap(d -> Stream.of(Precision.FP32, Precision.FP64).flatMap(p -> Stream.of(
                Arguments.of(d, p, 1500, 20011), Arguments.of(d, p, 257, 12289), Arguments.of(d, p, 3, 40000))));
    }

    /**
     * Dense sums with the sources split into segments ({@link TiledReduction.DenseSplit}: more than one segment here)
     * against the plain fp64 Java sum, with signed weights; and a few sources far beyond the targets (staged as far
     * sources in fp64, flushed to zero or {@code 2^-126} in fp32), which must not disturb the sums.
     */
    @ParameterizedTest(name = "{0} {1} m={2} n={3}")
    @MethodSource("splitCases")
    void splitDenseSumMatchesJavaReference(Device device, Precision p, int m, int n) {
        PairKernel k = PairKernel.parse("gauss:0.1");
        PointSet x = cube(m, -0.5, 1.0, 13);
        SplittableRandom r = new SplittableRandom(14);
        double[] c = new double[3 * n];
        for (int j = 0; j < n; j++) {
            for (int d = 0; d < 3; d++) c[3 * j + d] = r.nextDouble() - 0.5;
            if (j % 997 == 5) c[3 * j] = (j % 2 == 0 ? 1 : -1) * 1000.0; // far on either side: the midpoint stays near 0
        }
        PointSet y = PointSet.of(3, c);
        double[] b = r.doubles(n, -0.2, 1).toArray();
        KernelSum ks = new KernelSum(k, p, device);
        assertTrue(fits(ks, x, y, b), "the expanded form applies to this case");
        assertTrue(TiledReduction.DenseSplit.segments(m, n, 1, TiledReduction.DenseSplit.ITEMS / 32)[0] > 1, "more than one segment");
        double[] want = reference(k, x, y, b, 1);
        double[] got = ks.apply(x, y, b, 1).values();
        for (int i = 0; i < m; i++) {
            double abs = 0;
            for (int j = 0; j < n; j++) {
                double d = x.distance(i, y, j);
                abs += Math.exp(-0.5 * 100 * d * d) * Math.abs(b[j]);
            }
            double err = Math.abs(got[i] - want[i]) / abs;
            assertTrue(err < (p == Precision.FP64 ? 1e-13 : 2e-6), "row " + i + ": error " + err + " of sum |k b| " + abs);
        }
    }

    static Stream<Arguments> splitVariants() {
        // device, precision, fp32 exponentials on the FMA pipe
        return KernelSumTest.devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, Precision.FP32, GaussSumKernelsF32.FMA_SHARE_ONE_OF_EIGHT),
                Arguments.of(d, Precision.FP32, GaussSumKernelsF32.FMA_SHARE_THREE_OF_SIXTEEN),
                Arguments.of(d, Precision.FP64, 0)));
    }

    /**
     * Each variant of the split kernels (fp32: 1 of 8 or 3 of 16 exponentials on the FMA pipe; fp64) against the plain fp64 Java sum, on counts that are not multiples of the tiles or stages (full stages and a
     * partial last one), signed weights, several segments, and targets off the centre in every direction.
     */
    @ParameterizedTest(name = "{0} {1} fmaShare={2}")
    @MethodSource("splitVariants")
    void everySplitKernelVariantMatchesJavaReference(Device device, Precision p, int fmaShare) {
        int m = 707, n = 9301;
        PointSet x = cube(m, -0.5, 1.0, 21), y = cube(n, -0.5, 1.0, 22);
        double[] b = new SplittableRandom(23).doubles(n, -0.3, 1).toArray();
        double l = 0.1, scale = Math.sqrt(0.5 / (l * l) / Math.log(2));
        assertTrue(TiledReduction.DenseSplit.segments(m, n, 1, TiledReduction.DenseSplit.ITEMS / 32)[0] > 1, "more than one segment");
        double[] got;
        try (TiledReduction r = TiledReduction.denseSplit(device, p, p.fromDoubles(x.coordinates()), p.fromDoubles(y.coordinates()),
                p.fromDoubles(b), p.allocate(m), p.fromDoubles(new double[3]), scale, fmaShare)) {
            r.run();
            got = r.result(m);
        }
        PairKernel k = PairKernel.parse("gauss:" + l);
        double[] want = reference(k, x, y, b, 1);
        for (int i = 0; i < m; i++) {
            double abs = 0;
            for (int j = 0; j < n; j++) {
                double d = x.distance(i, y, j);
                abs += Math.exp(-0.5 / (l * l) * d * d) * Math.abs(b[j]);
            }
            double err = Math.abs(got[i] - want[i]) / abs;
            assertTrue(err < (p == Precision.FP64 ? 1e-13 : 2e-6), "row " + i + ": error " + err + " of sum |k b| " + abs);
        }
    }

    /**
     * The segment count raised for a full last wave: never below the plain count nor above twice it, chunks of whole
     * blocks covering the sources, and the idle tail no larger than the plain count's (H100-sized devices: 132
     * multiprocessors, 32 or 8 resident groups each).
     */
    @Test
    void segmentCountsLeaveTheLastWaveNoEmptier() {
        for (int[] c : new int[][] {{3907, 1_000_000, 32 * 132, 32768}, {1954, 1_000_000, 8 * 132, 8192}, {15625, 1_000_000, 8 * 132, 8192},
                {40, 300_000, 4 * 7, 8192}, {1, 9301, 32 * 132, 32768}}) {
            int tiles = c[0], n = c[1], resident = c[2], groups = c[3];
            int[] plain = TiledReduction.DenseSplit.segments(n, n, tiles, groups);
            int[] raised = TiledReduction.DenseSplit.segments(n, n, tiles, groups, resident);
            assertTrue(raised[0] >= plain[0] && raised[0] <= 2 * plain[0], "segments " + raised[0] + " against " + plain[0]);
            assertEquals(0, raised[1] % KernelSumKernelsF64.PARTIAL, "chunk of whole blocks");
            assertTrue((long) raised[0] * raised[1] >= n && (long) (raised[0] - 1) * raised[1] < n, "chunks cover the sources, none empty");
            assertTrue(TiledReduction.DenseSplit.idleTail((long) tiles * raised[0], resident)
                    <= TiledReduction.DenseSplit.idleTail((long) tiles * plain[0], resident), "idle tail");
        }
        int[] fp32 = TiledReduction.DenseSplit.segments(1_000_000, 1_000_000, 3907, 32768, 32 * 132);
        assertTrue(TiledReduction.DenseSplit.idleTail(3907L * fp32[0], 32 * 132) < 0.01, "reference problem, fp32: " + fp32[0] + " segments");
    }

    /** Targets 2.5 length scales and more from every source: all terms small, rows still accurate relative to themselves. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("precisions")
    void targetsFarFromTheSourcesKeepTheirRelativeAccuracy(Device device, Precision p) {
        PairKernel k = PairKernel.parse("gauss:0.5");
        PointSet x = cube(300, 3.0, 1.0, 4), y = cube(700, 0.0, 1.0, 5);
        double[] b = new SplittableRandom(6).doubles(700, 0, 1).toArray();
        KernelSum ks = new KernelSum(k, p, device);
        assertTrue(fits(ks, x, y, b));
        double[] got = ks.apply(x, y, b, 1).values(), want = reference(k, x, y, b, 1);
        for (int i = 0; i < x.size(); i++) {
            double rel = Math.abs(got[i] - want[i]) / want[i];
            assertTrue(rel < (p == Precision.FP64 ? 1e-12 : 1e-5), "row " + i + ": value " + want[i] + ", relative error " + rel);
        }
    }

    static Stream<Arguments> precisions() {
        return KernelSumTest.devices().stream().flatMap(d -> Stream.of(Arguments.of(d, Precision.FP32), Arguments.of(d, Precision.FP64)));
    }

    /** Too narrow a kernel for the cloud: the direct kernel runs, so expanding or not gives the same bits. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("precisions")
    void narrowKernelsOnWideCloudsRunTheDirectForm(Device device, Precision p) {
        PairKernel k = PairKernel.parse(p == Precision.FP32 ? "gauss:0.05" : "gauss:0.02");
        PointSet x = cube(400, 0.0, 1.0, 7), y = cube(600, 0.0, 1.0, 8);
        double[] b = new SplittableRandom(9).doubles(600, -1, 1).toArray();
        KernelSum ks = new KernelSum(k, p, device);
        assertFalse(fits(ks, x, y, b));
        double[] got = ks.apply(x, y, b, 1).values();
        assertEquals(0.0, relativeError(got, ks.withExpansion(false).apply(x, y, b, 1).values()));
        assertTrue(relativeError(got, reference(k, x, y, b, 1)) < (p == Precision.FP64 ? 1e-13 : 2e-6));
    }

    static boolean fits(KernelSum ks, PointSet x, PointSet y, double[] b) {
        double[] mid = x.midpoint(y);
        return new TiledReduction.Expansion(new double[3], x.reach(mid), y.size() * KernelSum.maxAbs(b), true).fits(ks.kernel(), ks.precision());
    }

    /**
     * {@link GaussSumKernelsF64#exp2} (as plain Java: its arithmetic is that of the device code, fp64 with fused
     * multiply-adds) against {@link Math#pow} over the range the kernels use; the device results are checked through
     * the sums above.
     */
    @Test
    void fp64ExponentialIsAccurateToAFewUnits() {
        double[] table = new double[GaussSumKernelsF64.TABLE];
        for (int h = 0; h < table.length; h++) table[h] = Math.pow(2.0, h / 256.0);
        SplittableRandom r = new SplittableRandom(10);
        for (int k = 0; k < 200_000; k++) {
            double e = k < 1024 ? -k / 1024.0 : k == 1024 ? -1020.0 : k == 1025 ? 255.99999 : k % 3 == 0 ? 256 * r.nextDouble() : -1030 * r.nextDouble();
            double want = Math.pow(2.0, Math.max(e, -1020.0));
            double got = GaussSumKernelsF64.exp2(e, table);
            double rel = Math.abs(got - want) / want;
            assertTrue(rel < 3 * 0x1p-52, "2^" + e + " = " + got + ", want " + want + " (relative error " + rel + ")");
        }
    }

    /**
     * {@link GaussSumKernelsF64#exp2Fine} (plain Java, as on the device) against {@link Math#pow}: within a few units
     * over the kernels' range; below {@code -1020} a term between {@code 2^-1020} and {@code 2^-1019}.
     */
    @Test
    void fineTableExponentialIsAccurateToAFewUnits() {
        double[] table = GaussSumKernelsF64.fineTable();
        SplittableRandom r = new SplittableRandom(12);
        for (int k = 0; k < 200_000; k++) {
            double e = k < 4096 ? -k / 4096.0 : k == 4096 ? -1020.0 : k == 4097 ? 999.99 : k % 3 == 0 ? 1000 * r.nextDouble() : -1020 * r.nextDouble();
            double want = Math.pow(2.0, e);
            double got = GaussSumKernelsF64.exp2Fine(e, table);
            double rel = Math.abs(got - want) / want;
            assertTrue(rel < 3 * 0x1p-52, "2^" + e + " = " + got + ", want " + want + " (relative error " + rel + ")");
        }
        for (double e : new double[] {-1020.5, -1021, -2048, -1.0e5, -1.0e6}) {
            double got = GaussSumKernelsF64.exp2Fine(e, table);
            assertTrue(got >= 0x1p-1020 && got < 0x1p-1019, "2^" + e + " counts as 2^-1020 to 2^-1019, got " + got);
        }
    }

    /** {@link GaussSumKernelsF32#exp2Fma} (plain Java: fp32 with fused multiply-adds, as on the device) against {@link Math#pow}. */
    @Test
    void fp32PolynomialExponentialIsAsAccurateAsTheHardwareOne() {
        SplittableRandom r = new SplittableRandom(11);
        for (int k = 0; k < 200_000; k++) {
            float e = k < 4096 ? -k / 4096.0f : k % 2 == 0 ? (float) (64 * r.nextDouble()) : (float) (-126 * r.nextDouble());
            double want = Math.pow(2.0, e);
            double rel = Math.abs(GaussSumKernelsF32.exp2Fma(e) - want) / want;
            assertTrue(rel < 2.5e-7, "2^" + e + " = " + GaussSumKernelsF32.exp2Fma(e) + ", want " + want + " (relative error " + rel + ")");
        }
        assertTrue(GaussSumKernelsF32.exp2Fma(-1000.0f) <= 0x1p-125f, "arguments below -126 give at most 2^-125");
    }

    /** Block-sparse sums in 3 dimensions run the expanded kernel about each cluster's centroid: within the bound plus rounding. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("precisions")
    void blockSparseExpandedSumsStayWithinTheirBound(Device device, Precision p) {
        PairKernel k = PairKernel.parse("gauss:0.03");
        PointSet x = cube(1500, 20.0, 1.0, 12), y = cube(1300, 20.0, 1.0, 13);
        double[] b = new SplittableRandom(14).doubles(1300, 0, 1).toArray();
        KernelSum ks = new KernelSum(k, p, device);
        BlockSparseSum bs = BlockSparseSum.build(ks, x, y, Clustering.grid(x, 0.1, device), Clustering.grid(y, 0.1, device));
        KernelSum.Result got = bs.apply(b, 1, BlockSparseSum.KeepRule.within(0.15));
        KernelSum.Result direct = BlockSparseSum.build(ks.withExpansion(false), x, y, Clustering.grid(x, 0.1, device), Clustering.grid(y, 0.1, device))
                .apply(b, 1, BlockSparseSum.KeepRule.within(0.15));
        assertTrue(got.keptFraction() < 0.5, "kept " + got.keptFraction());
        assertFalse(Arrays.equals(got.values(), direct.values()), "the expanded kernel ran");
        double[] want = reference(k, x, y, b, 1);
        double u = p == Precision.FP64 ? 1e-13 : 2e-6;
        for (int i = 0; i < x.size(); i++) {
            double err = Math.abs(got.values()[i] - want[i]);
            assertTrue(err <= got.rowBounds()[i] + u * Math.max(1.0, want[i]), "row " + i + ": error " + err + ", bound " + got.rowBounds()[i]);
        }
    }
}
