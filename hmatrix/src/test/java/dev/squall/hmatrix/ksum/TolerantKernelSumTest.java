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
            assertTrue(o.result().keptFraction() < 0.2, "kept " + o.result().keptFraction());
            double[] exact = reference(k, x, y, b, 1);
            for (int i = 0; i < x.size(); i++) {
                double rel = Math.abs(o.result().values()[i] - exact[i]) / Math.abs(exact[i]);
                assertTrue(rel <= eps, "eps " + eps + " row " + i + ": relative error " + rel);
            }
        }
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
