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
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.api.IntArray;
import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.gemm.PipelinedGemmKernelsF64;
import dev.squall.linalg.plan.LaunchSequence;
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

    /**
     * The outer steps' panel solves and trailing updates through the pipelined tensor-core kernel that
     * {@code --kernel auto} takes for large products on an H100 ({@code chunk-w8-d32-s3}: lower-only C, upper-triangular
     * op(B), offsets into the matrix), on one queue (587 / 256: trailing updates of 331 and 75 rows, depth 256) and with
     * look-ahead (587 / 128: five steps, the last 75 wide), against the plain Java factor. A device without its 216 KiB
     * of local memory (NVIDIA's OpenCL) is refused before launch with a clear error.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void outerStepsThroughTheDeepPipelinedGemm(Device device) {
        int n = 587;
        double[] a = Matrices.spd(new SplittableRandom(77), n, 0.5);
        GemmKernel deep = GemmKernel.CHUNK_W8_D32_S3;
        KernelArray work = Precision.FP64.fromDoubles(a);
        IntArray info = new IntArray(1);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("deep_gemm_cholesky", device);
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, work, info);
        if (!PipelinedGemmKernelsF64.fits(device, PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BlockedCholesky.append(seq, work, n, info, 256, CholeskyPhase.all(), deep));
            assertTrue(e.getMessage().contains("need 216 KiB of local memory; " + device.id() + " has"), e.getMessage());
            return;
        }
        double[] reference = ReferenceCholesky.factor(n, a);
        BlockedCholesky.append(seq, work, n, info, 256, CholeskyPhase.all(), deep);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, work, info);
        assertTrue(seq.graph().snapshot().taskNames().stream().anyMatch(t -> t.startsWith("gemm_chunk_deep")), () -> seq.graph().snapshot().taskNames().toString());
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        assertEquals(Integer.MAX_VALUE, info.get(0), "no failing pivot");
        double[] l = Precision.toDoubles(new CholeskyFactor(work, n).l());
        assertTrue(Residuals.cholesky(n, l, a) < 1e-14, "residual on " + device.id());
        Compare.close("L, one queue, deep GEMM on " + device.id(), reference, l, 1e-11);

        KernelArray input = Precision.FP64.fromDoubles(a), out = Precision.FP64.allocate((long) n * n);
        IntArray info2 = new IntArray(1);
        info2.init(Integer.MAX_VALUE);
        try (LookaheadCholesky la = new LookaheadCholesky(device, input, out, n, info2, 128, true, deep)) {
            la.execute().result().transferToHost(out);
        }
        assertEquals(Integer.MAX_VALUE, info2.get(0), "no failing pivot");
        double[] l2 = Precision.toDoubles(new CholeskyFactor(out, n).l());
        assertTrue(Residuals.upperIsZero(n, l2, 0));
        Compare.close("L, look-ahead, deep GEMM on " + device.id(), reference, l2, 1e-11);
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
