package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** The loop-style blocked Cholesky (the JVM's path) on every device, so its generated C is checked too. */
class LoopCholeskyTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Runs the launches on a poisoned work array; returns the work array and the pivot info. */
    private static Object[] run(Device device, Precision p, double[] a, int n) {
        KernelArray da = p.fromDoubles(a), work = p.allocate((long) n * n);
        Precision.fill(work, Double.NaN);
        IntArray info = new IntArray(1);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("loop_cholesky");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, da, work, info);
        LoopCholesky.append(seq, da, work, n, info);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, work, info);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        return new Object[] {Precision.toDoubles(work), info.get(0)};
    }

    /** Orders below, at and above one block, none a multiple of the block or of the 4 x 4 tile. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void factorsAgainstReference(Device device) {
        for (int n : new int[] {5, 97, 301}) {
            double[] a = Matrices.spd(new SplittableRandom(n), n, 0.3);
            Object[] r = run(device, Precision.FP64, a, n);
            double[] l = (double[]) r[0];
            assertEquals(Integer.MAX_VALUE, (int) r[1], "no failing pivot expected for n=" + n);
            assertTrue(Residuals.upperIsZero(n, l, 0), "upper triangle not zero for n=" + n);
            double res = Residuals.cholesky(n, l, a);
            assertTrue(res < 1e-14, "||LL^T - A||/||A|| = " + res + " for n=" + n + " on " + device.id());
            Compare.close("L n=" + n + " on " + device.id(), ReferenceCholesky.factor(n, a), l, 1e-11);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singlePrecision(Device device) {
        int n = 133;
        double[] a = Matrices.spd(new SplittableRandom(3), n, 1);
        double res = Residuals.cholesky(n, (double[]) run(device, Precision.FP32, a, n)[0], a);
        assertTrue(res < 1e-5, "fp32 residual " + res + " on " + device.id());
    }

    /** The failing pivot lies in the third block; the diagonal holds its (non-positive) value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void reportsFailingPivot(Device device) {
        int n = 250, bad = 211;
        double[] a = Matrices.spd(new SplittableRandom(9), n, 0.5);
        a[bad + bad * n] -= 60;
        int refPivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, a)).pivot();
        Object[] r = run(device, Precision.FP64, a, n);
        assertEquals(refPivot, (int) r[1]);
        double value = ((double[]) r[0])[refPivot + refPivot * n];
        assertTrue(value <= 0, "pivot value " + value);
    }
}
