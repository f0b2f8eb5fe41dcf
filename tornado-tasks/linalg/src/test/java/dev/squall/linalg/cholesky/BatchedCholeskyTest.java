package dev.squall.linalg.cholesky;

import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.runtime.testing.TestDevices;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class BatchedCholeskyTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    static List<Arguments> devicesAndKernels() {
        List<Arguments> out = new java.util.ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (SmallCholeskyKernel k : SmallCholeskyKernel.values()) out.add(Arguments.of(d, k));
        }
        return out;
    }

    private static double[] pack(double[][] ms) {
        int len = ms[0].length;
        double[] all = new double[len * ms.length];
        for (int e = 0; e < ms.length; e++) System.arraycopy(ms[e], 0, all, e * len, len);
        return all;
    }

    /** Well- and ill-conditioned matrices in one batch of 5 (an odd count: the warp kernel's last group is half empty), one not positive definite. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndKernels")
    void factorsBatchAndReportsFailingPivot(Device device, SmallCholeskyKernel kernel) {
        for (int n : new int[] {37, 64, 1, 32, 33}) {
            SplittableRandom rnd = new SplittableRandom(n);
            double[][] ms = new double[5][];
            ms[0] = Matrices.spd(rnd, n, 1.0);
            ms[1] = Matrices.spd(rnd, n, 1e-6);       // ill-conditioned
            ms[2] = Matrices.spd(rnd, n, 0.5);
            ms[3] = Matrices.spd(rnd, n, 0.5);
            ms[4] = Matrices.spd(rnd, n, 0.3);
            int bad = n / 2;
            ms[2][bad + bad * n] -= 1e3;               // not positive definite at pivot `bad`
            double[] a = pack(ms);
            // only the lower triangle is input: NaN above it must neither be read nor survive
            for (int e = 0; e < 5; e++) {
                for (int c = 1; c < n; c++) for (int r = 0; r < c; r++) a[e * n * n + r + c * n] = Double.NaN;
            }
            KernelArray da = Precision.FP64.fromDoubles(a);
            BatchStatus s = BatchedCholesky.factor(device, da, n, 5, kernel);
            double[] got = Precision.toDoubles(da);
            int refPivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, ms[2])).pivot();
            assertEquals(refPivot, s.failedPivot(2), "failing pivot on " + device.id());
            assertFalse(s.allPositiveDefinite());
            assertTrue(s.describeFirstFailure().contains("matrix 2"), s.describeFirstFailure());
            for (int e : new int[] {0, 1, 3, 4}) {
                assertEquals(-1, s.failedPivot(e));
                double[] l = java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n);
                Compare.close("L of matrix " + e + " n=" + n + " by " + kernel + " on " + device.id(), ReferenceCholesky.factor(n, ms[e]), l, e == 1 ? 1e-8 : 1e-12);
                assertTrue(Residuals.cholesky(n, l, ms[e]) < 1e-14, "residual of matrix " + e);
                assertTrue(Residuals.upperIsZero(n, got, e * n * n));
            }
        }
    }

    /** Failing pivots at the first column, on both sides of the 32-row split and at the last column, with good matrices between. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndKernels")
    void reportsFailingPivotsAtTheEdges(Device device, SmallCholeskyKernel kernel) {
        int n = 64;
        int[] bad = {0, -1, 31, 32, -1, 63};
        SplittableRandom rnd = new SplittableRandom(64);
        double[][] ms = new double[bad.length][];
        for (int e = 0; e < bad.length; e++) {
            ms[e] = Matrices.spd(rnd, n, 0.5);
            if (bad[e] >= 0) ms[e][bad[e] + bad[e] * n] -= 1e3;
        }
        KernelArray da = Precision.FP64.fromDoubles(pack(ms));
        BatchStatus s = BatchedCholesky.factor(device, da, n, bad.length, kernel);
        double[] got = Precision.toDoubles(da);
        for (int e = 0; e < bad.length; e++) {
            if (bad[e] >= 0) {
                double[] m = ms[e];
                int pivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, m)).pivot();
                assertEquals(bad[e], pivot);
                assertEquals(pivot, s.failedPivot(e), "matrix " + e + " by " + kernel + " on " + device.id());
            } else {
                assertEquals(-1, s.failedPivot(e));
                double[] l = java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n);
                Compare.close("L of matrix " + e + " by " + kernel + " on " + device.id(), ReferenceCholesky.factor(n, ms[e]), l, 1e-12);
            }
        }
    }

    /** Out of place (the CLI's path: warp-loop in one launch, the others after a copy): the input is kept, a NaN-poisoned output fully overwritten, an odd batch with a failing pivot. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndKernels")
    void factorsOutOfPlace(Device device, SmallCholeskyKernel kernel) {
        int n = 50, batch = 3;
        SplittableRandom rnd = new SplittableRandom(9);
        double[][] ms = {Matrices.spd(rnd, n, 1), Matrices.spd(rnd, n, 0.4), Matrices.spd(rnd, n, 0.7)};
        ms[1][40 + 40 * n] -= 1e3;
        double[] in = pack(ms);
        for (int e = 0; e < batch; e++) {
            for (int c = 1; c < n; c++) for (int r = 0; r < c; r++) in[e * n * n + r + c * n] = Double.NaN;
        }
        KernelArray src = Precision.FP64.fromDoubles(in);
        double[] poison = new double[in.length];
        java.util.Arrays.fill(poison, Double.NaN);
        KernelArray dst = Precision.FP64.fromDoubles(poison);
        IntArray info = new IntArray(batch);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("potrf_oop");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, src, dst, info);
        BatchedCholesky.appendOutOfPlace(seq, src, 0, dst, 0, n, n * n, n, batch, info, 0, 0, kernel);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, src, dst, info);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        double[] kept = Precision.toDoubles(src);
        for (int i = 0; i < in.length; i++) assertEquals(Double.doubleToLongBits(in[i]), Double.doubleToLongBits(kept[i]), "input entry " + i + " changed");
        int refPivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, ms[1])).pivot();
        assertEquals(refPivot, info.get(1) == Integer.MAX_VALUE ? -1 : info.get(1), kernel + " on " + device.id());
        double[] got = Precision.toDoubles(dst);
        for (int e : new int[] {0, 2}) {
            assertEquals(Integer.MAX_VALUE, info.get(e));
            double[] l = java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n);
            Compare.close("L of matrix " + e + " out of place by " + kernel + " on " + device.id(), ReferenceCholesky.factor(n, ms[e]), l, 1e-12);
            assertTrue(Residuals.upperIsZero(n, got, e * n * n));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndKernels")
    void singlePrecision(Device device, SmallCholeskyKernel kernel) {
        int n = 45;
        SplittableRandom rnd = new SplittableRandom(3);
        double[][] ms = {Matrices.spd(rnd, n, 1), Matrices.spd(rnd, n, 0.2)};
        KernelArray da = Precision.FP32.fromDoubles(pack(ms));
        assertTrue(BatchedCholesky.factor(device, da, n, 2, kernel).allPositiveDefinite());
        double[] got = Precision.toDoubles(da);
        for (int e = 0; e < 2; e++) {
            double[] l = java.util.Arrays.copyOfRange(got, e * n * n, (e + 1) * n * n);
            assertTrue(Residuals.cholesky(n, l, ms[e]) < 1e-5, "fp32 residual " + Residuals.cholesky(n, l, ms[e]));
        }
    }

    @Test
    void rejectsNonFiniteInputAndBadSizesBeforeLaunch() {
        int n = 8;
        double[] a = pack(new double[][] {Matrices.spd(new SplittableRandom(1), n, 1), Matrices.spd(new SplittableRandom(2), n, 1)});
        a[n * n + 5 + 2 * n] = Double.NaN;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchedCholesky.factor(Devices.jvm(), Precision.FP64.fromDoubles(a), n, 2));
        assertTrue(e.getMessage().contains("matrix 1, entry (5, 2) is NaN"), e.getMessage());
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> BatchedCholesky.factor(Devices.jvm(), Precision.FP64.allocate(65 * 65), 65, 1));
        assertTrue(size.getMessage().contains("1..64"), size.getMessage());
        IllegalArgumentException len = assertThrows(IllegalArgumentException.class,
                () -> BatchedCholesky.factor(Devices.jvm(), Precision.FP64.allocate(100), 8, 2));
        assertTrue(len.getMessage().contains("2 matrices of 8 x 8 = 128"), len.getMessage());
    }
}
