package dev.squall.sparse.solve.kernels;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.solve.VectorOps;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.TestMatrices;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The fused solver kernels launched directly against plain Java: residual + restriction, CG's step + norm, the paired dot finish. */
class SolverKernelsTest {
    private static int serial;

    private static double eps(Precision p) {
        return p == Precision.FP64 ? 1e-13 : 1e-5;
    }

    @TestFactory
    Stream<DynamicTest> residualRestrictEqualsTheResidualAtTheChosenRows() {
        return DeviceCases.each(new String[] {"residual+restrict"}, d -> "", (d, p, v) -> {
            Random rnd = new Random(11 + p.ordinal());
            int checked = 0;
            for (Map.Entry<String, CsrMatrix> e : TestMatrices.all().entrySet()) {
                CsrMatrix a = e.getValue();
                if (a.rows() == 0 || a.cols() == 0) continue;
                double[] x = rnd.doubles(a.cols(), -2, 2).toArray();
                double[] rf = rnd.doubles(a.rows(), -1, 1).toArray();
                // some rows twice, some not at all, out of order
                int nc = 1 + a.rows() / 3;
                int[] fineOf = new int[nc];
                for (int c = 0; c < nc; c++) fineOf[c] = rnd.nextInt(a.rows());
                double[] got = run(d, p, a, rf, x, fineOf);
                for (int c = 0; c < nc; c++) {
                    int f = fineOf[c];
                    double s = 0, mag = Math.abs(rf[f]);
                    for (int q = a.rowStart(f); q < a.rowStart(f + 1); q++) {
                        s += a.value(q) * x[a.colIndex(q)];
                        mag += Math.abs(a.value(q) * x[a.colIndex(q)]);
                    }
                    double want = rf[f] - s;
                    assertEquals(want, got[c], 4 * eps(p) * (mag + 1e-300) * (a.rowStart(f + 1) - a.rowStart(f) + 1),
                            e.getKey() + " coarse " + c + " (row " + f + ")");
                }
                checked++;
            }
            assertTrue(checked > 5);
        });
    }

    private static double[] run(Device d, Precision p, CsrMatrix a, double[] rf, double[] x, int[] fineOf) {
        IntArray rowPtr = ints(a.rowPtr()), col = ints(a.colIdx().length == 0 ? new int[1] : a.colIdx()), map = ints(fineOf);
        KernelArray val = p.fromDoubles(a.values().length == 0 ? new double[1] : a.values());
        KernelArray rfv = p.fromDoubles(rf), xv = p.fromDoubles(x), rc = p.fromDoubles(DeviceCases.poison(fineOf.length));
        TaskGraph g = new TaskGraph("restrict-test" + serial++)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, rowPtr, col, val, rfv, xv, rc, map)
                .task("rr", SolverKernelVariants.residualRestrict.at(p), rowPtr, col, val, rfv, xv, rc, map, fineOf.length);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(d);
            plan.execute().transferToHost(rc);
            return Precision.read(rc, fineOf.length);
        }
    }

    @TestFactory
    Stream<DynamicTest> stepWithNormAndPairedFinishEqualTheSeparateOperations() {
        // lengths below one group, not a multiple of it, and above the grid (each work-item loops)
        Integer[] sizes = {1, 255, 1000, 300_001};
        return DeviceCases.each(sizes, d -> "", (d, p, n) -> {
            Random rnd = new Random(n + 7L * p.ordinal());
            double[] x = rnd.doubles(n, -1, 1).toArray();
            double[] r = rnd.doubles(n, -1, 1).toArray();
            double[] dir = rnd.doubles(n, -1, 1).toArray();
            double[] ap = rnd.doubles(n, -3, 3).toArray();
            double[] z = rnd.doubles(n, -1, 1).toArray();
            double[] s = {0.75, 123, 0.1 + 5 * rnd.nextDouble(), 99};
            KernelArray xv = p.fromDoubles(x), rv = p.fromDoubles(r), dv = p.fromDoubles(dir), av = p.fromDoubles(ap), zv = p.fromDoubles(z),
                    sv = p.fromDoubles(s);
            VectorOps ops = new VectorOps(n, p, d);
            TaskGraph g = new TaskGraph("step-test" + serial++).transferToDevice(DataTransferMode.EVERY_EXECUTION, xv, rv, dv, av, zv, sv);
            ops.stepWithNorm(g, "step", xv, rv, dv, av, sv);
            ops.dotFinishingCarried(g, "rz", rv, zv, sv, SolverKernels.RZ, SolverKernels.RZ_OLD, SolverKernels.RR);
            try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
                plan.withDevice(d);
                ExecutionResult res = plan.execute();
                res.transferToHost(xv, rv, sv);
            }
            double alpha = s[0] / s[2];
            double rz = 0, rr = 0, rzMag = 0;
            double[] gx = Precision.read(xv, n), gr = Precision.read(rv, n), gs = Precision.read(sv, 4);
            for (int i = 0; i < n; i++) {
                double wx = x[i] + alpha * dir[i], wr = r[i] - alpha * ap[i];
                assertEquals(wx, gx[i], 8 * eps(p) * (Math.abs(x[i]) + Math.abs(alpha * dir[i]) + 1e-300), "x[" + i + "]");
                assertEquals(wr, gr[i], 8 * eps(p) * (Math.abs(r[i]) + Math.abs(alpha * ap[i]) + 1e-300), "r[" + i + "]");
                rz += wr * z[i];
                rzMag += Math.abs(wr * z[i]);
                rr += wr * wr;
            }
            assertEquals(s[0], gs[SolverKernels.RZ_OLD], eps(p), "previous r^T z kept");
            assertEquals(rz, gs[SolverKernels.RZ], 8 * eps(p) * Math.sqrt(n) * rzMag + 1e-300, "r^T z");
            assertEquals(rr, gs[SolverKernels.RR], 8 * eps(p) * Math.sqrt(n) * rr + 1e-300, "r^T r");
            assertEquals((float) s[2], (float) gs[SolverKernels.PAP], "p^T A p untouched");
        });
    }
}
