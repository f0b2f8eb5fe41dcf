package dev.squall.linalg.triangular;

import dev.squall.linalg.plan.Precision;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.reference.ReferenceTriangular;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.runtime.testing.TestDevices;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class TriangularInverseTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Cholesky factors (upper triangle left as garbage, which must be ignored), sizes that are not powers of two. */
    private static double[] factors(SplittableRandom rnd, int n, int batch) {
        double[] all = new double[n * n * batch];
        for (int e = 0; e < batch; e++) {
            double[] l = ReferenceCholesky.factor(n, Matrices.spd(rnd, n, 0.5));
            for (int j = 0; j < n; j++) for (int i = 0; i < j; i++) l[i + j * n] = rnd.nextDouble(-9, 9);
            System.arraycopy(l, 0, all, e * n * n, n * n);
        }
        return all;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void batchedInverseMatchesReferenceAndResidual(Device device) {
        for (int[] nb : new int[][] {{100, 3}, {64, 5}, {31, 2}, {1, 2}}) {
            int n = nb[0], batch = nb[1];
            double[] l = factors(new SplittableRandom(n), n, batch);
            double[] got = Precision.toDoubles(TriangularInverse.invert(device, Precision.FP64.fromDoubles(l), n, batch));
            for (int e = 0; e < batch; e++) {
                double[] le = java.util.Arrays.copyOfRange(l, e * n * n, (e + 1) * n * n);
                double[] xe = java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n);
                Compare.close("inverse n=" + n + " matrix " + e + " on " + device.id(), ReferenceTriangular.invertLower(n, le), xe, 1e-11);
                assertTrue(Residuals.inverse(n, le, xe) < 1e-12, "||L X - I|| = " + Residuals.inverse(n, le, xe));
                assertTrue(Residuals.upperIsZero(n, got, e * n * n));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singlePrecision(Device device) {
        int n = 77, batch = 2;
        double[] l = factors(new SplittableRandom(4), n, batch);
        double[] got = Precision.toDoubles(TriangularInverse.invert(device, Precision.FP32.fromDoubles(l), n, batch));
        for (int e = 0; e < batch; e++) {
            double[] le = java.util.Arrays.copyOfRange(l, e * n * n, (e + 1) * n * n);
            double r = Residuals.inverse(n, le, java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n));
            assertTrue(r < 1e-4, "fp32 ||L X - I|| = " + r);
        }
    }

    @Test
    void rejectsSingularAndNonFiniteInput() {
        int n = 5;
        double[] l = factors(new SplittableRandom(1), n, 1);
        l[3 + 3 * n] = 0;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TriangularInverse.invert(Devices.jvm(), Precision.FP64.fromDoubles(l), n, 1));
        assertTrue(e.getMessage().contains("diagonal entry 3 is 0"), e.getMessage());
        l[3 + 3 * n] = 1;
        l[4 + 1 * n] = Double.POSITIVE_INFINITY;
        IllegalArgumentException inf = assertThrows(IllegalArgumentException.class,
                () -> TriangularInverse.invert(Devices.jvm(), Precision.FP64.fromDoubles(l), n, 1));
        assertTrue(inf.getMessage().contains("entry (4, 1) is Infinity"), inf.getMessage());
    }
}
