package dev.squall.sparse.precond;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.SolverChecks;
import dev.squall.sparse.testing.TestData;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class Ilu0PreconditionerTest {
    static Map<String, CsrMatrix> matrices() throws Exception {
        Map<String, CsrMatrix> m = new LinkedHashMap<>();
        m.put("7pt 6x5x4", Stencils.of(7, 6, 5, 4));
        m.put("mesh1e1", MatrixMarketReader.read(TestData.file("mesh1e1.mtx")));
        m.put("ani1", MatrixMarketReader.read(TestData.file("ani1.mtx")));
        m.put("nonsymmetric 157", SolverChecks.nonsymmetric(157, 9));
        return m;
    }

    /** Factors against the plain Java ILU(0); z = U^-1 L^-1 r against dense solves with those factors. */
    @TestFactory
    Stream<DynamicTest> factorsAndTriangularSolvesMatchTheReferences() throws Exception {
        Map<String, CsrMatrix> ms = matrices();
        java.util.List<String> cases = new java.util.ArrayList<>();
        for (String name : ms.keySet()) {
            for (String solves : new String[] {"levelset", "syncfree", "syncfree-levels", "syncfree-lanes", "syncfree-lanes-levels"}) cases.add(name + " / " + solves);
        }
        return DeviceCases.each(cases.toArray(String[]::new), d -> "", (d, p, kase) -> {
            String name = kase.substring(0, kase.indexOf(" / "));
            GaussSeidel.Ordering solves = GaussSeidel.Ordering.parse(kase.substring(kase.indexOf(" / ") + 3));
            CsrMatrix a = ms.get(name);
            int n = a.rows();
            DeviceMatrix m = DeviceMatrix.of(a, p);
            Ilu0Preconditioner ilu = new Ilu0Preconditioner(m, p, d, name.startsWith("7pt") ? 1000 : 0, solves);
            org.junit.jupiter.api.Assertions.assertEquals(solves != GaussSeidel.Ordering.LEVELS, ilu.syncFree(), ilu.describe());
            double[] want = ReferenceSolvers.ilu0(a);
            double[] got = ilu.factors();
            SolverChecks.assertClose(want, got, p, kase + " factors");

            double[] r = new SplittableRandom(3).doubles(n, -1, 1).toArray();
            double[] lower = new double[n * n], upper = new double[n * n];
            for (int i = 0; i < n; i++) {
                lower[i * n + i] = 1;
                for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                    int j = a.colIndex(k);
                    if (j < i) lower[i * n + j] = want[k];
                    else upper[i * n + j] = want[k];
                }
            }
            double[] zWant = ReferenceSolvers.denseSolve(upper, ReferenceSolvers.denseSolve(lower, r));
            KernelArray rd = p.fromDoubles(r);
            KernelArray zd = p.allocate(n);
            TaskGraph g = new TaskGraph("iluapply").transferToDevice(DataTransferMode.EVERY_EXECUTION, rd, zd);
            ilu.appendApply(g, "m", rd, zd);
            g.transferToHost(DataTransferMode.EVERY_EXECUTION, zd);
            try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
                plan.withDevice(d).execute();
                plan.freeDeviceMemory();
            }
            double[] z = Precision.read(zd, n);
            SolverChecks.assertClose(zWant, z, p, kase + " z");
        });
    }

    @org.junit.jupiter.api.Test
    void autoTakesSyncFreeSolvesForNarrowLevelsOnGpusAndSaysWhy() {
        // a chain (tridiagonal): one row per level, narrower than any device keeps busy
        int n = 300;
        java.util.List<int[]> e = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            e.add(new int[] {i, i});
            if (i > 0) e.add(new int[] {i, i - 1});
            if (i + 1 < n) e.add(new int[] {i, i + 1});
        }
        int[] ri = e.stream().mapToInt(t -> t[0]).toArray(), ci = e.stream().mapToInt(t -> t[1]).toArray();
        double[] v = new double[ri.length];
        for (int t = 0; t < v.length; t++) v[t] = ri[t] == ci[t] ? 4 : -1;
        CsrMatrix a = CsrMatrix.fromCoo(n, n, ri, ci, v);
        dev.squall.tasks.runtime.Device jvm = dev.squall.tasks.runtime.Devices.jvm();
        Ilu0Preconditioner ilu = new Ilu0Preconditioner(DeviceMatrix.of(a, Precision.FP64), Precision.FP64, jvm, 512, GaussSeidel.Ordering.AUTO);
        org.junit.jupiter.api.Assertions.assertFalse(ilu.syncFree(), ilu.describe());
        org.junit.jupiter.api.Assertions.assertTrue(ilu.describe().contains("(auto: CPU device, level sets with narrow levels chained)"), ilu.describe());
        dev.squall.sparse.inspect.Schedule chain = dev.squall.sparse.inspect.LevelSets.forward(dev.squall.sparse.inspect.DependenceGraph.of(a));
        String[] why = new String[1];
        org.junit.jupiter.api.Assertions.assertEquals(GaussSeidel.Ordering.LEVELS, Ilu0Preconditioner.chooseSolves(chain, true, 512, why));
        org.junit.jupiter.api.Assertions.assertTrue(why[0].endsWith("1 rows per level on average, 300 levels"), why[0]);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new Ilu0Preconditioner(DeviceMatrix.of(a, Precision.FP64), Precision.FP64, jvm, 512, GaussSeidel.Ordering.COLOURS));
    }
}
