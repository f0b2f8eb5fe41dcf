package dev.squall.linalg.qr;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.ReferenceQr;
import dev.squall.linalg.testing.Dense;
import dev.squall.linalg.testing.Matrices;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class BatchedQrTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Random, ill-conditioned (graded columns, nearly dependent pair) and rank-deficient matrices. */
    private static double[][] inputs(SplittableRandom rnd, int m, int n) {
        double[] random = Matrices.random(rnd, m * n);
        double[] graded = Matrices.random(rnd, m * n);
        for (int c = 0; c < n; c++) for (int r = 0; r < m; r++) graded[r + c * m] *= Math.pow(1e-10, (double) c / n);
        if (n > 1) for (int r = 0; r < m; r++) graded[r + (n - 1) * m] = graded[r] + 1e-12 * graded[r + (n - 1) * m];
        double[] deficient = Matrices.random(rnd, m * n);
        if (n > 2) for (int r = 0; r < m; r++) deficient[r + 2 * m] = 0;   // a zero column: its reflector is the identity
        return new double[][] {random, graded, deficient};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void qAndRReconstructAndAreOrthogonalAndTriangular(Device device) {
        for (int[] mn : new int[][] {{128, 64}, {37, 23}, {20, 20}, {9, 1}, {13, 30}, {1, 5}}) {
            int m = mn[0], n = mn[1], k = Math.min(m, n);
            double[][] ms = inputs(new SplittableRandom(m * 100 + n), m, n);
            double[] a = Dense.pack(ms);
            KernelArray da = Precision.FP64.fromDoubles(a);
            QrFactors f = BatchedQr.factor(device, da, m, n, ms.length, true);
            for (int e = 0; e < ms.length; e++) {
                String what = m + "x" + n + " matrix " + e + " on " + device.id();
                double[] q = f.q(e), r = f.r(e);
                double norm = Dense.frobenius(ms[e]);
                double[] qr = Dense.multiply(false, m, n, k, q, r);
                for (int i = 0; i < qr.length; i++) qr[i] -= ms[e][i];
                assertTrue(Dense.frobenius(qr) <= 1e-14 * norm * Math.sqrt(m), what + ": ||QR - A|| = " + Dense.frobenius(qr) / norm);
                assertTrue(Dense.orthogonality(m, k, q) < 1e-13, what + ": ||Q^T Q - I|| = " + Dense.orthogonality(m, k, q));
                // R is unique up to the signs of its rows: compare with the reference after matching signs
                double[] ref = ReferenceQr.factor(m, n, ms[e]).r();
                if (e == 0) {
                    for (int i = 0; i < k; i++) {
                        double sign = Math.signum(r[i + i * k]) * Math.signum(ref[i + i * k]);
                        for (int c = i; c < n; c++) {
                            double d = Math.abs(r[i + c * k] - sign * ref[i + c * k]);
                            assertTrue(d < 1e-12 * norm, what + ": R(" + i + ", " + c + ") = " + r[i + c * k] + ", reference " + ref[i + c * k]);
                        }
                    }
                }
            }
        }
    }

    /** R alone: {@code R^T R = A^T A}, an identity that does not need Q. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void rOnlyMatchesGramMatrix(Device device) {
        int m = 70, n = 45;
        SplittableRandom rnd = new SplittableRandom(5);
        double[][] ms = {Matrices.random(rnd, m * n), Matrices.random(rnd, m * n)};
        QrFactors f = BatchedQr.factor(device, Precision.FP64.fromDoubles(Dense.pack(ms)), m, n, 2, false);
        assertFalse(f.hasQ());
        assertThrows(IllegalStateException.class, () -> f.q(0));
        for (int e = 0; e < 2; e++) {
            double[] r = f.r(e);
            double[] rtr = Dense.multiply(true, n, n, n, r, r), ata = Dense.multiply(true, n, n, m, ms[e], ms[e]);
            double scale = Dense.frobenius(ata);
            for (int i = 0; i < ata.length; i++) rtr[i] -= ata[i];
            assertTrue(Dense.frobenius(rtr) < 1e-14 * scale * m, "||R^T R - A^T A|| / ||A^T A|| = " + Dense.frobenius(rtr) / scale);
        }
    }

    /** Q and tau start as NaN on the device: every element the kernels promise must be written. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void writesEveryOutputElement(Device device) {
        int m = 41, n = 17, batch = 3, k = Math.min(m, n);
        double[] a = Matrices.random(new SplittableRandom(9), m * n * batch);
        KernelArray da = Precision.FP64.fromDoubles(a), tau = Precision.FP64.allocate((long) k * batch), q = Precision.FP64.allocate((long) m * k * batch);
        Precision.fill(tau, Double.NaN);
        Precision.fill(q, Double.NaN);
        LaunchSequence seq = new LaunchSequence("qr");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, da, tau, q);
        BatchedQr.append(seq, da, m, n, batch, tau, q);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, da, tau, q);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        double[] qs = Precision.toDoubles(q);
        for (int e = 0; e < batch; e++) {
            double[] qe = Dense.slice(qs, e, m * k);
            assertTrue(Dense.orthogonality(m, k, qe) < 1e-13, "matrix " + e + " on " + device.id());
        }
        for (double t : Precision.toDoubles(tau)) assertTrue(t >= 0 && t <= 2, "tau " + t);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singlePrecision(Device device) {
        int m = 50, n = 31;
        double[] a = Matrices.random(new SplittableRandom(4), m * n * 2);
        QrFactors f = BatchedQr.factor(device, Precision.FP32.fromDoubles(a), m, n, 2, true);
        for (int e = 0; e < 2; e++) {
            double[] ae = Dense.slice(a, e, m * n);
            double[] qr = Dense.multiply(false, m, n, n, f.q(e), f.r(e));
            for (int i = 0; i < qr.length; i++) qr[i] -= ae[i];
            assertTrue(Dense.frobenius(qr) / Dense.frobenius(ae) < 1e-5, "fp32 ||QR - A|| / ||A|| = " + Dense.frobenius(qr) / Dense.frobenius(ae));
            assertTrue(Dense.orthogonality(m, n, f.q(e)) < 1e-5, "fp32 orthogonality");
        }
    }

    @Test
    void rejectsBadInputBeforeLaunch() {
        double[] a = Matrices.random(new SplittableRandom(1), 6 * 4 * 2);
        a[6 * 4 + 3 + 2 * 6] = Double.POSITIVE_INFINITY;
        IllegalArgumentException inf = assertThrows(IllegalArgumentException.class,
                () -> BatchedQr.factor(Devices.jvm(), Precision.FP64.fromDoubles(a), 6, 4, 2, false));
        assertTrue(inf.getMessage().contains("matrix 1, entry (3, 2) is Infinity"), inf.getMessage());
        IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
                () -> BatchedQr.factor(Devices.jvm(), Precision.FP64.allocate(100 * 65), 100, 65, 1, false));
        assertTrue(wide.getMessage().contains("1..64 columns, got 65"), wide.getMessage());
        IllegalArgumentException len = assertThrows(IllegalArgumentException.class,
                () -> BatchedQr.factor(Devices.jvm(), Precision.FP64.allocate(47), 6, 4, 2, false));
        assertTrue(len.getMessage().contains("2 matrices of 6 x 4 = 48"), len.getMessage());
    }
}
