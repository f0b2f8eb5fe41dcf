package dev.squall.hmatrix.ksum;

import static dev.squall.hmatrix.ksum.KernelSumTest.reference;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The tolerance picks a method and meets eps in every entry, checked against the plain Java sum. */
class TolerantKernelSumTest {
    static List<Device> devices() {
        return KernelSumTest.devices();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void shortKernelsGoBlockSparseAndMeetTheTolerance(Device device) {
        PairKernel k = PairKernel.parse("gauss:0.01");
        PointSet x = PointSet.uniform(2500, 2, 1), y = PointSet.uniform(2000, 2, 2);
        double[] b = new SplittableRandom(3).doubles(y.size(), 0, 1).toArray();
        for (double eps : new double[] {1e-4, 1e-8}) {
            TolerantKernelSum.Outcome o = TolerantKernelSum.compute(new KernelSum(k, Precision.FP64, device), x, y, b, 1, eps);
            assertEquals("block-sparse", o.method(), o.reason());
            assertTrue(o.reason().contains("on the device"), o.reason());
            assertTrue(o.result().keptFraction() < 0.2, "kept " + o.result().keptFraction());
            double[] exact = reference(k, x, y, b, 1);
            for (int i = 0; i < x.size(); i++) {
                double rel = Math.abs(o.result().values()[i] - exact[i]) / Math.abs(exact[i]);
                assertTrue(rel <= eps, "eps " + eps + " row " + i + ": relative error " + rel);
            }
        }
    }

    static java.util.stream.Stream<Arguments> toleranceCases() {
        // kernel, dim, cols, targets, sources, points, precision, eps: the fp32 Gaussian's one-warp tiles, D = 8 with
        // several columns, N = 1, M != N, sizes off the tile widths
        return devices().stream().flatMap(d -> java.util.stream.Stream.of(
                Arguments.of(d, "gauss:0.01", 3, 1, 3000, 2200, "uniform", Precision.FP32, 1e-4),
                Arguments.of(d, "gauss:0.02", 8, 2, 400, 350, "uniform", Precision.FP64, 1e-6),
                Arguments.of(d, "exp:0.02", 2, 1, 1500, 1, "spiral", Precision.FP64, 1e-8),
                Arguments.of(d, "matern52:0.03", 3, 3, 900, 1300, "gaussian", Precision.FP64, 1e-6)));
    }

    @ParameterizedTest(name = "{0} {1} d={2} cols={3} {4}x{5} {6} {7} eps={8}")
    @MethodSource("toleranceCases")
    void everyEntryMeetsTheToleranceWhateverTheMethod(Device device, String kernel, int dim, int cols, int m, int n, String points,
            Precision p, double eps) {
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.named(points, m, dim, 11), y = PointSet.named(points, n, dim, 12);
        // signed weights in fp64; positive ones in fp32, whose rounding (~1e-7 of the sum of |terms|) is not relative to a
        // row that cancels
        double[] b = new SplittableRandom(13).doubles((long) n * cols, p == Precision.FP32 ? 0 : -1, 1).toArray();
        TolerantKernelSum.Outcome o = TolerantKernelSum.compute(new KernelSum(k, p, device), x, y, b, cols, eps);
        double[] exact = reference(k, x, y, b, cols), got = o.result().values();
        assertEquals(exact.length, got.length);
        for (int i = 0; i < exact.length; i++) {
            double err = Math.abs(got[i] - exact[i]);
            assertTrue(err <= eps * Math.abs(exact[i]) + Double.MIN_NORMAL,
                    o.method() + " (" + o.reason() + "), entry " + i + ": error " + err + " against " + exact[i]);
        }
        if (o.method().equals("block-sparse")) assertTrue(o.result().keptFraction() < 0.5, o.reason());
    }

    @Test
    void wideKernelsGoDenseAndSayWhy() {
        Device jvm = Devices.jvm();
        PointSet x = PointSet.uniform(200, 3, 4);
        double[] b = new SplittableRandom(5).doubles(x.size(), 0, 1).toArray();
        TolerantKernelSum.Outcome o = TolerantKernelSum.compute(new KernelSum(PairKernel.parse("gauss:1"), Precision.FP64, jvm), x, x, b, 1, 1e-6);
        assertEquals("dense", o.method());
        assertTrue(o.reason().contains("beyond the clouds' reach"), o.reason());
        assertEquals(1.0, o.result().keptFraction());
    }

    @Test
    void toleranceBelowThePrecisionIsBadInput() {
        KernelSum fp32 = new KernelSum(PairKernel.parse("gauss:0.1"), Precision.FP32, Devices.jvm());
        PointSet x = PointSet.uniform(10, 2, 6);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TolerantKernelSum.compute(fp32, x, x, new double[10], 1, 1e-7));
        assertTrue(e.getMessage().contains("--precision fp64"), e.getMessage());
    }
}
