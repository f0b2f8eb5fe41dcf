package dev.squall.linalg.cholesky;

import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.reference.ReferenceTriangular;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.runtime.testing.TestDevices;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class BlockedCholeskyTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    private static double[] factorOn(Device device, Precision p, double[] a, int n) {
        KernelArray da = p.fromDoubles(a);
        try (CholeskyRun run = new CholeskyRun(device, da, n)) {
            run.execute();
            return Precision.toDoubles(run.factor().l());
        }
    }

    /** 203: inner 64-blocks only (not a multiple of 64); 587: outer 256-blocks whose diagonal blocks recurse. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void factorsAgainstReferenceAndResidual(Device device) {
        for (int n : new int[] {203, 587}) {
            double[] a = Matrices.spd(new SplittableRandom(n), n, n == 203 ? 1e-5 : 0.5);
            double[] l = factorOn(device, Precision.FP64, a, n);
            assertTrue(Residuals.upperIsZero(n, l, 0));
            double res = Residuals.cholesky(n, l, a);
            assertTrue(res < 1e-14, "||LL^T - A||/||A|| = " + res + " for n=" + n + " on " + device.id());
            Compare.close("L n=" + n + " on " + device.id(), ReferenceCholesky.factor(n, a), l, n == 203 ? 1e-7 : 1e-11);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singlePrecision(Device device) {
        int n = 150;
        double[] a = Matrices.spd(new SplittableRandom(8), n, 1);
        double res = Residuals.cholesky(n, factorOn(device, Precision.FP32, a, n), a);
        assertTrue(res < 1e-5, "fp32 residual " + res);
    }

    /** The failing pivot lies in a later block; the reference names the same pivot. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void reportsFailingPivotIndex(Device device) {
        int n = 181, bad = 150;
        double[] a = Matrices.spd(new SplittableRandom(5), n, 0.5);
        a[bad + bad * n] -= 50;
        int refPivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, a)).pivot();
        NotPositiveDefiniteException e = assertThrows(NotPositiveDefiniteException.class,
                () -> factorOn(device, Precision.FP64, a, n));
        assertEquals(refPivot, e.pivot());
        assertTrue(e.pivotValue() <= 0, "pivot value " + e.pivotValue());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void solvesAndGaussianLikelihood(Device device) {
        int n = 131, nrhs = 3;
        SplittableRandom rnd = new SplittableRandom(12);
        double[] a = Matrices.spd(rnd, n, 0.3), b = Matrices.random(rnd, n * nrhs);
        CholeskyFactor f;
        try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n)) {
            f = run.factor();
        }
        double[] x = Precision.toDoubles(f.solve(device, Precision.FP64.fromDoubles(b), nrhs));
        double[] lRef = ReferenceCholesky.factor(n, a);
        for (int c = 0; c < nrhs; c++) {
            double[] bc = java.util.Arrays.copyOfRange(b, c * n, (c + 1) * n);
            double[] ref = ReferenceTriangular.backward(n, lRef, ReferenceTriangular.forward(n, lRef, bc));
            Compare.close("solve column " + c + " on " + device.id(), ref, java.util.Arrays.copyOfRange(x, c * n, (c + 1) * n), 1e-10);
            // independent check: A x = b
            double[] ax = new double[n];
            for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) ax[i] += a[i + j * n] * x[c * n + j];
            Compare.close("A x = b column " + c, bc, ax, 1e-10);
        }
        // log N(y | 0, A) against a direct evaluation from the reference factor
        double[] y = java.util.Arrays.copyOf(b, n);
        double[] z = ReferenceTriangular.forward(n, lRef, y);
        double q = 0, logDet = 0;
        for (int i = 0; i < n; i++) {
            q += z[i] * z[i];
            logDet += 2 * Math.log(lRef[i + i * n]);
        }
        double expected = -0.5 * (q + logDet + n * Math.log(2 * Math.PI));
        assertEquals(logDet, f.logDeterminant(), 1e-10 * Math.abs(logDet));
        assertEquals(expected, f.gaussianLogLikelihood(device, Precision.FP64.fromDoubles(y)), 1e-10 * Math.abs(expected));
    }

    /** A diagonal matrix has a closed-form factor and log-determinant. */
    @Test
    void closedFormDiagonal() {
        int n = 70;
        double[] a = new double[n * n];
        double logDet = 0;
        for (int i = 0; i < n; i++) {
            a[i + i * n] = (i + 1) * (i + 1);
            logDet += 2 * Math.log(i + 1);
        }
        try (CholeskyRun run = new CholeskyRun(Devices.jvm(), Precision.FP64.fromDoubles(a), n)) {
            CholeskyFactor f = run.factor();
            double[] l = Precision.toDoubles(f.l());
            for (int i = 0; i < n; i++) assertEquals(i + 1, l[i + i * n], 1e-12);
            assertEquals(logDet, f.logDeterminant(), 1e-10);
        }
    }

    @Test
    void rejectsNonFiniteAndMismatchedInputBeforeLaunch() {
        int n = 20;
        double[] a = Matrices.spd(new SplittableRandom(2), n, 1);
        a[7 + 3 * n] = Double.NEGATIVE_INFINITY;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CholeskyRun(Devices.jvm(), Precision.FP64.fromDoubles(a), n));
        assertTrue(e.getMessage().contains("entry (7, 3) is -Infinity"), e.getMessage());
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> new CholeskyRun(Devices.jvm(), Precision.FP64.allocate(399), n));
        assertTrue(size.getMessage().contains("20 x 20 = 400"), size.getMessage());
        CholeskyFactor f = new CholeskyFactor(Precision.FP64.allocate(400), n);
        IllegalArgumentException rhs = assertThrows(IllegalArgumentException.class,
                () -> f.solve(Devices.jvm(), Precision.FP64.allocate(41), 2));
        assertTrue(rhs.getMessage().contains("nrhs = 2"), rhs.getMessage());
    }
}
