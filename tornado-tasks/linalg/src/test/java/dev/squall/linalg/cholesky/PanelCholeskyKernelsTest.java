package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.reference.ReferenceTriangular;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The fused inner step ({@link PanelCholeskyKernelsF64#potrfPanel}) on its own and inside
 * {@link BlockedCholesky}, on every device: the JVM device too, by appending the blocked launches
 * directly ({@link CholeskyRun} runs {@link LoopCholesky} there).
 */
class PanelCholeskyKernelsTest {
    static List<Arguments> devicesAndPrecisions() {
        List<Arguments> out = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (Precision p : Precision.values()) out.add(Arguments.of(d, p));
        }
        return out;
    }

    static List<Device> devices() {
        return TestDevices.all();
    }

    static List<Device> nonJvmDevices() {
        return TestDevices.all().stream().filter(d -> d.info().type() != DeviceType.JVM).toList();
    }

    /** The factor of {@link BlockedCholesky#append} (on a copy of {@code a}), its failing pivot or -1, and its tasks' names. */
    record Blocked(double[] l, int pivot, List<String> tasks) {
    }

    private static Blocked blocked(Device device, Precision p, double[] a, int n, int outer) {
        KernelArray work = p.fromDoubles(a);
        IntArray info = new IntArray(1);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("panel_test");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, work, info);
        BlockedCholesky.append(seq, work, n, info, outer, CholeskyPhase.all());
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, work, info);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        int pivot = info.get(0);
        return new Blocked(Precision.toDoubles(work), pivot == Integer.MAX_VALUE ? -1 : pivot, seq.graph().snapshot().taskNames());
    }

    /**
     * Orders that are not multiples of 64, outer block 128: 100 and 200 are factored in 64-column
     * steps throughout (the last one 36 and 8 wide), 300 in outer steps of 128 whose diagonal blocks
     * take two fused steps each. The upper triangle of the input is NaN: nothing may read it.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndPrecisions")
    void blockedFactorMatchesReference(Device device, Precision p) {
        for (int n : new int[] {100, 200, 300}) {
            double[] a = Matrices.spd(new SplittableRandom(n), n, 0.5);
            double[] in = a.clone();
            for (int c = 1; c < n; c++) for (int r = 0; r < c; r++) in[r + c * n] = Double.NaN;
            Blocked b = blocked(device, p, in, n, 128);
            String what = "n=" + n + " " + p + " on " + device.id();
            assertEquals(-1, b.pivot(), what);
            assertTrue(Residuals.upperIsZero(n, b.l(), 0), what);
            double res = Residuals.cholesky(n, b.l(), a);
            assertTrue(res < (p == Precision.FP64 ? 1e-14 : 1e-6), "||LL^T - A||/||A|| = " + res + " for " + what);
            Compare.close("L " + what, ReferenceCholesky.factor(n, a), b.l(), p == Precision.FP64 ? 1e-11 : 1e-4);
        }
    }

    /**
     * n = 200 in 64-column steps: four fused launches, three trailing GEMMs (64 x 64 tiles: at most 136 rows) and the
     * final upper-triangle clear (26 before).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void innerStepIsTwoLaunches(Device device) {
        int n = 200;
        Blocked b = blocked(device, Precision.FP64, Matrices.spd(new SplittableRandom(3), n, 1), n, 128);
        assertEquals(List.of("potrf_panel_0", "gemm_1", "potrf_panel_2", "gemm_3", "potrf_panel_4", "gemm_5", "potrf_panel_6", "copy_lower_7"),
                b.tasks());
    }

    /**
     * Failing pivots in the first step, in a middle step, in the last (8-wide, no panel) step, and
     * (n = 300, outer 128) in the second fused step of an outer diagonal block: the reference names
     * the same pivot, and the factor's diagonal holds the pivot's value there, as {@link CholeskyRun} reports it.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndPrecisions")
    void reportsFailingPivot(Device device, Precision p) {
        int[][] cases = {{200, 30}, {200, 150}, {200, 196}, {300, 100}};
        for (int[] nb : cases) {
            int n = nb[0], bad = nb[1];
            double[] a = Matrices.spd(new SplittableRandom(bad), n, 0.5);
            a[bad + bad * n] -= 50;
            NotPositiveDefiniteException ref = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, a));
            Blocked b = blocked(device, p, a, n, 128);
            String what = "n=" + n + " bad=" + bad + " " + p + " on " + device.id();
            assertEquals(ref.pivot(), b.pivot(), what);
            double value = b.l()[b.pivot() + b.pivot() * n];
            assertTrue(value <= 0, "pivot value " + value + " for " + what);
            assertEquals(ref.pivotValue(), value, (p == Precision.FP64 ? 1e-9 : 1e-3) * Math.abs(ref.pivotValue()), what);
        }
    }

    /** Through {@link CholeskyRun} (devices other than the JVM): the exception names the reference's pivot and its value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("nonJvmDevices")
    void choleskyRunThrowsForTheFailingPivot(Device device) {
        int n = 300;
        for (int bad : new int[] {100, 200}) {
            double[] a = Matrices.spd(new SplittableRandom(bad + 1), n, 0.5);
            a[bad + bad * n] -= 50;
            int refPivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, a)).pivot();
            try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, 128)) {
                NotPositiveDefiniteException e = assertThrows(NotPositiveDefiniteException.class, run::execute);
                assertEquals(refPivot, e.pivot(), "bad=" + bad + " on " + device.id());
                assertTrue(e.pivotValue() <= 0, "pivot value " + e.pivotValue());
            }
        }
    }

    /**
     * One launch on a column block inside a larger matrix (offset, lda > rows): L11 as the reference
     * factors A11, L21 as forward substitution solves {@code L11 X^T = A21^T}, the same L21 in the
     * panel, nothing else in {@code a} changed. Widths below 64 with a panel as well (the kernel
     * allows them; the blocked code sends only 64-wide blocks with a panel).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndPrecisions")
    void kernelFactorsBlockAndSolvesPanel(Device device, Precision p) {
        int lda = 240, k0 = 10;
        int[][] shapes = {{64, 150}, {64, 64}, {64, 1}, {37, 0}, {20, 130}, {1, 5}};
        for (int[] shape : shapes) {
            int kb = shape[0], rem = shape[1], rows = kb + rem;
            double[] spd = Matrices.spd(new SplittableRandom(kb * 1000 + rem), rows, 0.5);
            double[] a = Matrices.random(new SplittableRandom(rem), lda * lda);
            for (int c = 0; c < rows; c++) for (int r = 0; r < rows; r++) a[k0 + r + (k0 + c) * lda] = spd[r + c * rows];
            int off = k0 + k0 * lda;
            // the diagonal block's upper triangle is not input
            for (int c = 1; c < kb; c++) for (int r = 0; r < c; r++) a[off + r + c * lda] = Double.NaN;
            double[] panelIn = new double[Math.max(1, rem * kb)];
            Arrays.fill(panelIn, -7);
            KernelArray da = p.fromDoubles(a), panel = p.fromDoubles(panelIn);
            IntArray info = new IntArray(1);
            info.init(Integer.MAX_VALUE);
            run(device, p, da, off, lda, rows, kb, panel, info, 1000);
            double[] got = Precision.toDoubles(da), gotPanel = Precision.toDoubles(panel);
            double tol = p == Precision.FP64 ? 1e-11 : 1e-4;
            String what = "kb=" + kb + " rem=" + rem + " " + p + " on " + device.id();
            assertEquals(Integer.MAX_VALUE, info.get(0), what);

            double[] a11 = new double[kb * kb], l11 = new double[kb * kb];
            for (int c = 0; c < kb; c++) {
                for (int r = 0; r < kb; r++) {
                    a11[r + c * kb] = spd[r + c * rows];
                    l11[r + c * kb] = got[off + r + c * lda];
                }
            }
            double[] l11Ref = ReferenceCholesky.factor(kb, a11);
            Compare.close("L11 " + what, l11Ref, l11, tol);
            double[] l21Ref = new double[rem * kb], l21 = new double[rem * kb];
            for (int i = 0; i < rem; i++) {
                double[] rhs = new double[kb];
                for (int c = 0; c < kb; c++) {
                    rhs[c] = spd[kb + i + c * rows];
                    l21[i + c * rem] = got[off + kb + i + c * lda];
                }
                double[] x = ReferenceTriangular.forward(kb, l11Ref, rhs);
                for (int c = 0; c < kb; c++) l21Ref[i + c * rem] = x[c];
            }
            Compare.close("L21 " + what, l21Ref, l21, tol);
            if (rem > 0) Compare.close("panel " + what, l21, gotPanel, 0);
            for (int c = 0; c < lda; c++) {
                for (int r = 0; r < lda; r++) {
                    boolean inBlock = c >= k0 && c < k0 + kb && r >= k0 && r < k0 + rows;
                    int at = r + c * lda;
                    if (!inBlock) assertEquals(p == Precision.FP64 ? a[at] : (float) a[at], got[at], 0, "entry (" + r + ", " + c + ") outside the block changed, " + what);
                }
            }
        }
    }

    /**
     * A pivot fails inside the block: every group finds it, one reports it (pivotBase added); the
     * columns before it are the reference's partial factor, its diagonal entry holds the pivot's value.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndPrecisions")
    void kernelReportsFailingPivot(Device device, Precision p) {
        int kb = 64, rem = 100, rows = kb + rem, bad = 41;
        double[] a = Matrices.spd(new SplittableRandom(9), rows, 0.5);
        a[bad + bad * rows] -= 50;
        double[] a11 = new double[kb * kb];
        for (int c = 0; c < kb; c++) for (int r = 0; r < kb; r++) a11[r + c * kb] = a[r + c * rows];
        double[] partial = a11.clone();
        NotPositiveDefiniteException ref = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factorInPlace(kb, partial));
        KernelArray da = p.fromDoubles(a), panel = p.allocate((long) rem * kb);
        IntArray info = new IntArray(1);
        info.init(Integer.MAX_VALUE);
        run(device, p, da, 0, rows, rows, kb, panel, info, 500);
        double[] got = Precision.toDoubles(da);
        String what = p + " on " + device.id();
        assertEquals(500 + ref.pivot(), info.get(0), what);
        assertEquals(ref.pivotValue(), got[bad + bad * rows], (p == Precision.FP64 ? 1e-9 : 1e-3) * Math.abs(ref.pivotValue()), what);
        double tol = p == Precision.FP64 ? 1e-11 : 1e-4;
        for (int c = 0; c < ref.pivot(); c++) {
            for (int r = c; r < kb; r++) assertEquals(partial[r + c * kb], got[r + c * rows], tol * Math.max(1, Math.abs(partial[r + c * kb])), "L(" + r + ", " + c + ") " + what);
        }
        for (int c = 0; c < kb; c++) for (int r = 0; r < c; r++) assertEquals(0, got[r + c * rows], "upper triangle " + what);
        for (double v : Precision.toDoubles(panel)) assertTrue(Double.isFinite(v), "panel " + what);
    }

    private static void run(Device device, Precision p, KernelArray a, int off, int lda, int rows, int kb, KernelArray panel, IntArray info,
                            int pivotBase) {
        int groups = 1 + (rows - kb + 63) / 64;
        IntArray arrivals = new IntArray(1);
        LaunchSequence seq = new LaunchSequence("panel_kernel");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, panel, info);
        seq.graph().task(seq.taskName("potrf_panel"), WorkerGrid.of((long) groups * PanelCholeskyKernelsF64.THREADS).withLocal(PanelCholeskyKernelsF64.THREADS),
                PanelCholeskyKernels.potrfPanel.at(p), new KernelContext(), a, off, lda, rows, kb, panel, info, 0, pivotBase, arrivals);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, a, panel, info, arrivals);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        assertEquals(0, arrivals.get(0), "the last group resets the counter");
    }
}
