package dev.squall.linalg.svd;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.testing.Dense;
import dev.squall.linalg.testing.Matrices;
import dev.squall.tasks.api.IntArray;
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

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class BatchedSvdTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** {@code ||U_r diag(s_r) V_r^T - A||_F} with the first r singular triplets. */
    private static double reconstructionError(SvdResult res, int e, int r, double[] a) {
        int m = res.rows(), n = res.columns();
        double[] u = res.u(e, r), s = res.singularValues(e), v = res.v(e, r);
        double[] us = u.clone();
        for (int p = 0; p < r; p++) for (int i = 0; i < m; i++) us[i + p * m] *= s[p];
        double[] vt = new double[r * n];
        for (int p = 0; p < r; p++) for (int j = 0; j < n; j++) vt[p + j * r] = v[j + p * n];
        double[] rec = Dense.multiply(false, m, n, r, us, vt);
        for (int i = 0; i < rec.length; i++) rec[i] -= a[i];
        return Dense.frobenius(rec);
    }

    private static double[] descending(double[] s) {
        double[] c = s.clone();
        Arrays.sort(c);
        for (int i = 0; i < c.length / 2; i++) {
            double t = c[i];
            c[i] = c[c.length - 1 - i];
            c[c.length - 1 - i] = t;
        }
        return c;
    }

    /**
     * Known spectra (distinct, clustered, graded over 12 decades), odd and even column counts, a
     * wide matrix: singular values, orthogonality of U and V, reconstruction.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void knownSpectraAreRecovered(Device device) {
        for (int[] mn : new int[][] {{128, 64}, {37, 21}, {16, 16}, {23, 50}, {7, 1}}) {
            int m = mn[0], n = mn[1], k = Math.min(m, n);
            SplittableRandom rnd = new SplittableRandom(31L * m + n);
            double[] distinct = new double[k], clustered = new double[k], graded = new double[k];
            for (int i = 0; i < k; i++) {
                distinct[i] = 1 + rnd.nextDouble() * 9;
                clustered[i] = 2 + (i % 3) * 1e-9;
                graded[i] = Math.pow(10, -12.0 * i / Math.max(1, k - 1));
            }
            double[][] spectra = {distinct, clustered, graded};
            double[][] ms = new double[3][];
            for (int e = 0; e < 3; e++) ms[e] = Dense.withSpectrum(rnd, m, n, spectra[e]);
            SvdResult res = BatchedSvd.decompose(device, Precision.FP64.fromDoubles(Dense.pack(ms)), m, n, 3, 0);
            assertTrue(res.converged(), "converged");
            for (int e = 0; e < 3; e++) {
                String what = m + "x" + n + " matrix " + e + " on " + device.id();
                double[] want = descending(spectra[e]), got = res.singularValues(e);
                double smax = want[0];
                for (int i = 0; i < k; i++) {
                    assertTrue(Math.abs(got[i] - want[i]) <= 1e-13 * smax * Math.sqrt(m), what + ": s" + i + " = " + got[i] + ", expected " + want[i]);
                }
                assertEquals(k, res.rank(e), what + ": rank with relTol 0");
                assertTrue(Dense.orthogonality(m, k, res.u(e, k)) < 1e-12, what + ": ||U^T U - I|| = " + Dense.orthogonality(m, k, res.u(e, k)));
                assertTrue(Dense.orthogonality(n, k, res.v(e, k)) < 1e-12, what + ": ||V^T V - I|| = " + Dense.orthogonality(n, k, res.v(e, k)));
                double rec = reconstructionError(res, e, k, ms[e]) / Dense.frobenius(ms[e]);
                assertTrue(rec < 1e-14 * Math.sqrt(m), what + ": ||U S V^T - A|| / ||A|| = " + rec);
                assertTrue(res.sweeps(e) >= 1 && res.sweeps(e) <= BatchedSvd.MAX_SWEEPS, what + ": sweeps " + res.sweeps(e));
            }
        }
    }

    /**
     * Truncation: a spectrum with a gap keeps exactly the values above it; an exactly rank-r
     * product keeps r; the zero matrix keeps none. The truncated factors reconstruct A to within
     * the dropped part of the spectrum (Eckart-Young).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void truncationKeepsTheRankAboveTheThreshold(Device device) {
        int m = 60, n = 33, k = 33;
        SplittableRandom rnd = new SplittableRandom(77);
        double[] gap = new double[k];
        int keep = 11;
        for (int i = 0; i < k; i++) gap[i] = i < keep ? 1.0 / (1 + i) : 1e-9 / (1 + i);
        double[] withGap = Dense.withSpectrum(rnd, m, n, gap);
        int r = 5;
        double[] lowRank = Dense.multiply(false, m, n, r, Matrices.random(rnd, m * r), Matrices.random(rnd, r * n));
        double[] zero = new double[m * n];
        double relTol = 1e-6;
        SvdResult res = BatchedSvd.decompose(device, Precision.FP64.fromDoubles(Dense.pack(withGap, lowRank, zero)), m, n, 3, relTol);
        assertEquals(keep, res.rank(0), "rank of the gapped spectrum on " + device.id());
        assertEquals(r, res.rank(1), "rank of the rank-" + r + " product on " + device.id());
        assertEquals(0, res.rank(2), "rank of the zero matrix");
        for (double s : res.singularValues(2)) assertEquals(0.0, s);
        double dropped = 0;
        for (int i = keep; i < k; i++) dropped += gap[i] * gap[i];
        double err = reconstructionError(res, 0, keep, withGap);
        assertTrue(err <= Math.sqrt(dropped) * 1.001 + 1e-14, "truncated error " + err + ", dropped part " + Math.sqrt(dropped));
        double lowErr = reconstructionError(res, 1, r, lowRank) / Dense.frobenius(lowRank);
        assertTrue(lowErr < 1e-13, "rank-" + r + " reconstruction " + lowErr);
        assertTrue(Dense.orthogonality(m, r, res.u(1, r)) < 1e-12, "kept U columns orthonormal");
    }

    /** Outputs start as NaN on the device: every promised element is written. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void writesEveryOutputElement(Device device) {
        int m = 19, n = 9, batch = 2;
        double[] a = Matrices.random(new SplittableRandom(3), m * n * batch);
        KernelArray da = Precision.FP64.fromDoubles(a);
        KernelArray u = Precision.FP64.allocate(m * n * batch), s = Precision.FP64.allocate(n * batch), v = Precision.FP64.allocate(n * n * batch);
        KernelArray work = Precision.FP64.allocate(BatchedSvd.workLength(m, n, batch));
        for (KernelArray x : new KernelArray[] {u, s, v, work}) Precision.fill(x, Double.NaN);
        IntArray rank = new IntArray(batch), sweeps = new IntArray(batch);
        rank.init(-7);
        LaunchSequence seq = new LaunchSequence("svd");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, da, u, s, v, work, rank);
        BatchedSvd.append(seq, da, m, n, batch, work, u, s, v, rank, sweeps, 0.5);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, u, s, v, rank);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        for (KernelArray x : new KernelArray[] {u, s, v}) {
            for (double d : Precision.toDoubles(x)) assertFalse(Double.isNaN(d), "unwritten output on " + device.id());
        }
        double[] ss = Precision.toDoubles(s);
        for (int e = 0; e < batch; e++) {
            int expected = 0;
            for (int i = 0; i < n; i++) if (ss[e * n + i] > 0.5 * ss[e * n]) expected++;
            assertEquals(expected, rank.get(e), "rank of matrix " + e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singlePrecision(Device device) {
        int m = 40, n = 24;
        double[] sigma = new double[n];
        for (int i = 0; i < n; i++) sigma[i] = 1 + i;
        double[] a = Dense.withSpectrum(new SplittableRandom(12), m, n, sigma);
        SvdResult res = BatchedSvd.decompose(device, Precision.FP32.fromDoubles(a), m, n, 1, 0);
        double[] got = res.singularValues(0), want = descending(sigma);
        for (int i = 0; i < n; i++) assertEquals(want[i], got[i], 1e-4 * want[0], "fp32 s" + i);
        assertTrue(reconstructionError(res, 0, n, a) / Dense.frobenius(a) < 1e-5);
    }

    @Test
    void rejectsBadInputBeforeLaunch() {
        double[] a = Matrices.random(new SplittableRandom(1), 8 * 3);
        a[4 + 8] = Double.NaN;
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                () -> BatchedSvd.decompose(Devices.jvm(), Precision.FP64.fromDoubles(a), 8, 3, 1, 1e-8));
        assertTrue(nan.getMessage().contains("matrix 0, entry (4, 1) is NaN"), nan.getMessage());
        IllegalArgumentException tol = assertThrows(IllegalArgumentException.class,
                () -> BatchedSvd.decompose(Devices.jvm(), Precision.FP64.allocate(24), 8, 3, 1, 1.5));
        assertTrue(tol.getMessage().contains("relTol must be in [0, 1), got 1.5"), tol.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> BatchedSvd.decompose(Devices.jvm(), Precision.FP64.allocate(70 * 65), 70, 65, 1, 0));
        assertTrue(big.getMessage().contains("min(m, n) <= 64, got 70 x 65"), big.getMessage());
    }
}
