package dev.squall.linalg.triangular;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.reference.ReferenceTriangular;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.runtime.testing.TestDevices;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
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

    /** Both kernels for orders up to 64 (warp: one launch; blocks: diag_inv + GEMM rounds), into NaN-poisoned outputs, odd batches. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void smallOrdersByWarpAndBlockKernels(Device device) {
        for (int[] nb : new int[][] {{33, 5}, {64, 3}, {20, 1}}) {
            int n = nb[0], batch = nb[1];
            double[] l = factors(new SplittableRandom(10 + n), n, batch);
            for (String kernel : new String[] {"warp", "blocks"}) {
                KernelArray src = Precision.FP64.fromDoubles(l);
                double[] poison = new double[n * n * batch];
                java.util.Arrays.fill(poison, Double.NaN);
                KernelArray w = Precision.FP64.fromDoubles(poison);
                LaunchSequence seq = new LaunchSequence("trinv");
                seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, src, w);
                if (kernel.equals("warp")) TriangularInverse.appendWarp(seq, src, 0, n, n * n, w, n, batch);
                else TriangularInverse.append(seq, src, 0, n, n * n, w, Precision.FP64.allocate(TriangularInverse.tempLength(n, batch)), n, batch, 16);
                seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, w);
                try (ExecutionPlan plan = seq.plan(device)) {
                    plan.execute();
                }
                double[] got = Precision.toDoubles(w);
                for (int e = 0; e < batch; e++) {
                    double[] le = java.util.Arrays.copyOfRange(l, e * n * n, (e + 1) * n * n);
                    double[] xe = java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n);
                    String what = kernel + " n=" + n + " matrix " + e + " on " + device.id();
                    Compare.close(what, ReferenceTriangular.invertLower(n, le), xe, 1e-11);
                    assertTrue(Residuals.upperIsZero(n, got, e * n * n), what);
                }
            }
        }
    }

    @Test
    void warpKernelRejectsOrdersAbove64() {
        KernelArray a = Precision.FP64.allocate(65 * 65);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TriangularInverse.appendWarp(new LaunchSequence("x"), a, 0, 65, 65 * 65, a, 65, 1));
        assertTrue(e.getMessage().contains("1..64, got 65"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singlePrecision(Device device) {
        for (int n : new int[] {77, 50}) {   // blocks, warp
            int batch = 3;
            double[] l = factors(new SplittableRandom(4), n, batch);
            double[] got = Precision.toDoubles(TriangularInverse.invert(device, Precision.FP32.fromDoubles(l), n, batch));
            for (int e = 0; e < batch; e++) {
                double[] le = java.util.Arrays.copyOfRange(l, e * n * n, (e + 1) * n * n);
                double r = Residuals.inverse(n, le, java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n));
                assertTrue(r < 1e-4, "fp32 n=" + n + " ||L X - I|| = " + r);
            }
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
