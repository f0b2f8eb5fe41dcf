package dev.squall.sparse.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.SolverChecks;
import dev.squall.sparse.testing.TestData;
import dev.squall.tasks.runtime.Precision;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class GaussSeidelTest {
    static Map<String, CsrMatrix> matrices() throws Exception {
        Map<String, CsrMatrix> m = new LinkedHashMap<>();
        m.put("27pt 9x7x5", Stencils.of(27, 9, 7, 5));
        m.put("7pt 11x6x3", Stencils.of(7, 11, 6, 3));
        m.put("bcsstk01", MatrixMarketReader.read(TestData.file("bcsstk01.mtx")));
        m.put("ani4", MatrixMarketReader.read(TestData.file("ani4.mtx")));
        m.put("nonsymmetric 301", SolverChecks.nonsymmetric(301, 5));
        return m;
    }

    private record Variant(String matrix, GaussSeidel.Ordering ordering, int chainMax, Sweeper.Layout layout) {
        @Override
        public String toString() {
            return matrix + " " + ordering + " chain " + chainMax + " " + layout;
        }
    }

    @TestFactory
    Stream<DynamicTest> sweepsEqualTheSequentialSweepInTheScheduleOrder() throws Exception {
        Map<String, CsrMatrix> ms = matrices();
        java.util.List<Variant> vs = new java.util.ArrayList<>();
        for (String name : ms.keySet()) {
            for (Sweeper.Layout l : new Sweeper.Layout[] {Sweeper.Layout.CSR, Sweeper.Layout.ELL, Sweeper.Layout.DIA}) {
                vs.add(new Variant(name, GaussSeidel.Ordering.LEVELS, 0, l));
                vs.add(new Variant(name, GaussSeidel.Ordering.LEVELS, 1000, l));
                vs.add(new Variant(name, GaussSeidel.Ordering.COLOURS, 0, l));
                vs.add(new Variant(name, GaussSeidel.Ordering.COLOURS, 1000, l));
            }
        }
        return DeviceCases.each(vs.toArray(Variant[]::new), d -> "", (d, p, v) -> {
            CsrMatrix a = ms.get(v.matrix());
            int n = a.rows();
            SplittableRandom rnd = new SplittableRandom(17);
            double[] b = rnd.doubles(n, -1, 1).toArray();
            double[] x0 = rnd.doubles(n, -1, 1).toArray();
            if (v.layout() == Sweeper.Layout.DIA && DiaSweeper.offsets(a, DiaSweeper.MAX_DIAGONALS) == null) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GaussSeidel.create(a, v.ordering(), p, d, v.chainMax(), v.layout()));
                assertTrue(e.getMessage().contains("more than 64 diagonals"), e.getMessage());
                return;
            }
            try (GaussSeidel gs = GaussSeidel.create(a, v.ordering(), p, d, v.chainMax(), v.layout())) {
                Schedule f = gs.plan().forward();
                Schedule bw = gs.plan().backward();
                if (v.ordering() == GaussSeidel.Ordering.LEVELS) {
                    assertEquals(Schedule.Kind.FORWARD_LEVELS, f.kind());
                    assertEquals(Schedule.Kind.BACKWARD_LEVELS, bw.kind());
                    if (v.chainMax() > 0 && f.groups() > 2) assertTrue(gs.sweeper().chainedGroups() > 0, "no chain in " + v);
                }
                int[] fOrder = v.ordering() == GaussSeidel.Ordering.LEVELS ? ReferenceSolvers.natural(n) : f.order();
                // the ELL and DIA layouts run the forward groups last to first: for colours that is the order reversed
                int[] bOrder = v.ordering() == GaussSeidel.Ordering.LEVELS ? ReferenceSolvers.reversed(n)
                        : v.layout() != Sweeper.Layout.CSR ? f.reversed().order() : bw.order();
                for (GaussSeidel.Direction dir : GaussSeidel.Direction.values()) {
                    double[] want = x0.clone();
                    for (int s = 0; s < 2; s++) {
                        if (dir != GaussSeidel.Direction.BACKWARD) ReferenceSolvers.gaussSeidel(a, b, want, fOrder);
                        if (dir != GaussSeidel.Direction.FORWARD) ReferenceSolvers.gaussSeidel(a, b, want, bOrder);
                    }
                    gs.setB(b);
                    gs.setX(x0);
                    gs.sweep(dir, 1);
                    gs.sweep(dir, 1);
                    SolverChecks.assertClose(want, gs.x(), p, v + " " + dir);
                }
            }
        });
    }
}
