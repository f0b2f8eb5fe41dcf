package dev.squall.sparse.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.inspect.DependenceGraph;
import dev.squall.sparse.inspect.LevelSets;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.sparse.testing.DeviceCases;
import dev.squall.sparse.testing.SolverChecks;
import dev.squall.sparse.testing.TestData;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class SyncFreeSolveTest {
    /**
     * Square matrices whose strict lower part has the named shape and whose strict upper part is its transpose pattern
     * with other values; diagonal entries of random sign, dominant, so substitution is well conditioned.
     */
    static Map<String, CsrMatrix> shapes() throws Exception {
        Map<String, CsrMatrix> m = new LinkedHashMap<>();
        m.put("chain 1000", mirrored(1000, 1, (i, r) -> i > 0 ? new int[] {i - 1} : new int[0]));
        // rows 10.. read only rows 0..9: two levels, the second of ~3000 rows
        m.put("wide levels 3001", mirrored(3001, 2, (i, r) -> i < 10 ? new int[0] : new int[] {r.nextInt(10), r.nextInt(10), r.nextInt(10)}));
        // half the rows hold only their diagonal, the others up to 6 random earlier columns, some far back
        m.put("diagonal-only rows 777", mirrored(777, 3, (i, r) -> i == 0 || r.nextBoolean() ? new int[0] : r.ints(1 + r.nextInt(6), 0, i).toArray()));
        m.put("random 2049", mirrored(2049, 4, (i, r) -> i == 0 ? new int[0] : r.ints(8, Math.max(0, i - 300), i).toArray()));
        m.put("single row", mirrored(1, 5, (i, r) -> new int[0]));
        m.put("27pt 9x7x5", Stencils.of(27, 9, 7, 5));
        m.put("bcsstk01", MatrixMarketReader.read(TestData.file("bcsstk01.mtx")));
        return m;
    }

    interface Lower {
        int[] columns(int row, SplittableRandom rnd);
    }

    static CsrMatrix mirrored(int n, long seed, Lower lower) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<int[]> e = new ArrayList<>();
        List<Double> v = new ArrayList<>();
        double[] dom = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j : lower.columns(i, rnd)) {
                double lo = rnd.nextDouble(-1, 1), up = rnd.nextDouble(-1, 1);
                e.add(new int[] {i, j});
                v.add(lo);
                e.add(new int[] {j, i});
                v.add(up);
                dom[i] += Math.abs(lo);
                dom[j] += Math.abs(up);
            }
        }
        for (int i = 0; i < n; i++) {
            e.add(new int[] {i, i});
            v.add((rnd.nextBoolean() ? 1 : -1) * (1 + dom[i] * rnd.nextDouble(1, 2)));
        }
        int[] ri = new int[e.size()], ci = new int[e.size()];
        double[] vals = new double[e.size()];
        for (int t = 0; t < ri.length; t++) {
            ri[t] = e.get(t)[0];
            ci[t] = e.get(t)[1];
            vals[t] = v.get(t);
        }
        return CsrMatrix.fromCoo(n, n, ri, ci, vals);
    }

    /** Sequential substitution over the strict lower ({@code lower}) or upper part, diagonal a_ii or 1 ({@code unit}). */
    static double[] substitute(CsrMatrix a, double[] b, boolean lower, boolean unit) {
        int n = a.rows();
        double[] x = new double[n];
        for (int t = 0; t < n; t++) {
            int i = lower ? t : n - 1 - t;
            double s = b[i], d = 0;
            for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
                int j = a.colIndex(q);
                if (j == i) d = a.value(q);
                else if (lower ? j < i : j > i) s -= a.value(q) * x[j];
            }
            x[i] = unit ? s : s / d;
        }
        return x;
    }

    /** How a solve waits: a work-item per row ({@code lanes} -1), by warps (0), or by warps with {@code lanes} lanes a row. */
    private record Kind(int lanes, int waitMode, int group) {
        static final Kind[] ALL = {new Kind(-1, 0, 32), new Kind(0, 0, 32), new Kind(2, SyncFreeSolve.WAIT_PASS, 32),
                new Kind(16, SyncFreeSolve.WAIT_LATEST, 32), new Kind(32, SyncFreeSolve.WAIT_LANES, 32), new Kind(4, SyncFreeSolve.WAIT_LANES, 128),
                new Kind(8, SyncFreeSolve.WAIT_PASS, 64), new Kind(2, SyncFreeSolve.WAIT_LANES, 256)};

        SyncFreeSolve solve(int[] forward, int[] backward, String name) {
            return lanes < 0 ? new SyncFreeSolve(forward, backward, name) : new SyncFreeSolve(forward, backward, name, true, lanes, waitMode, group);
        }

        @Override
        public String toString() {
            return lanes < 0 ? "" : lanes == 0 ? " by warps" : " by warps, " + lanes + " lanes a row, wait " + waitMode + ", groups of " + group;
        }
    }

    private record Case(String matrix, boolean levelOrder, boolean lower, boolean unit, Kind kind) {
        @Override
        public String toString() {
            return matrix + (levelOrder ? " level order" : " natural order") + (lower ? " lower" : " upper") + (unit ? " unit" : "") + kind;
        }
    }

    private static int[] naturalOrder(int n, boolean reversed) {
        int[] o = new int[n];
        for (int i = 0; i < n; i++) o[i] = reversed ? n - 1 - i : i;
        return o;
    }

    @TestFactory
    Stream<DynamicTest> triangularSolvesEqualSequentialSubstitution() throws Exception {
        Map<String, CsrMatrix> ms = shapes();
        List<Case> cases = new ArrayList<>();
        for (String name : ms.keySet()) {
            for (boolean levels : new boolean[] {false, true}) {
                for (Kind kind : Kind.ALL) {
                    cases.add(new Case(name, levels, true, false, kind));
                    cases.add(new Case(name, levels, false, false, kind));
                    // a unit-diagonal solve over bcsstk01's entries (up to 1e9) overflows: unit cases on the scaled shapes only
                    if (!name.equals("bcsstk01")) cases.add(new Case(name, levels, true, true, kind));
                }
            }
        }
        return DeviceCases.each(cases.toArray(Case[]::new), d -> "", (d, p, c) -> {
            CsrMatrix a = ms.get(c.matrix());
            int n = a.rows();
            double[] b = new SplittableRandom(n).doubles(n, -1, 1).toArray();
            DeviceMatrix m = DeviceMatrix.of(a, p);
            DependenceGraph g = DependenceGraph.of(a);
            SyncFreeSolve s = c.levelOrder() ? c.kind().solve(LevelSets.forward(g).order(), LevelSets.backward(g).order(), "level order")
                    : c.kind().solve(naturalOrder(n, false), naturalOrder(n, true), "natural order");
            KernelArray kb = p.allocate(n);
            KernelArray x = p.allocate(n);
            Precision.write(kb, b);
            Precision.write(x, DeviceCases.poison(n));
            TaskGraph tg = new TaskGraph("syncfree").transferToDevice(DataTransferMode.FIRST_EXECUTION, kb, x);
            s.append(tg, "t", p, m, m.val(), kb, kb, x, c.lower(), c.lower() ? SolverKernels.LOWER : SolverKernels.UPPER, c.unit() ? 1 : 0);
            tg.transferToHost(DataTransferMode.EVERY_EXECUTION, x);
            double[] want = substitute(a, b, c.lower(), c.unit());
            try (ExecutionPlan plan = new ExecutionPlan(tg.snapshot())) {
                plan.withDevice(d);
                for (int run = 0; run < 2; run++) { // the second run finds the flags of the first and must clear them
                    plan.execute();
                    SolverChecks.assertClose(want, Precision.read(x, n), p, c + " run " + run);
                }
            }
        });
    }

    private record Local(String matrix, boolean lower, boolean unit, boolean inLocal) {
        @Override
        public String toString() {
            return matrix + (lower ? " lower" : " upper") + (unit ? " unit" : "") + (inLocal ? ", values in local memory" : ", values in global memory");
        }
    }

    /** One work-group walking the levels, values in local or global memory: every shape, both triangles, run twice. */
    @TestFactory
    Stream<DynamicTest> levelWalksEqualSequentialSubstitution() throws Exception {
        Map<String, CsrMatrix> ms = shapes();
        ms.put("chain 4096", mirrored(SolverKernels.LOCAL_ROWS, 6, (i, r) -> i < 4 ? new int[0] : new int[] {r.nextInt(3), i - 1}));
        List<Local> cases = new ArrayList<>();
        for (String name : ms.keySet()) {
            for (boolean inLocal : new boolean[] {true, false}) {
                cases.add(new Local(name, true, false, inLocal));
                cases.add(new Local(name, false, false, inLocal));
                if (!name.equals("bcsstk01")) cases.add(new Local(name, true, true, inLocal));
            }
        }
        return DeviceCases.each(cases.toArray(Local[]::new), d -> "", (d, p, c) -> {
            CsrMatrix a = ms.get(c.matrix());
            int n = a.rows();
            double[] b = new SplittableRandom(n + 1).doubles(n, -1, 1).toArray();
            DeviceMatrix m = DeviceMatrix.of(a, p);
            DependenceGraph g = DependenceGraph.of(a);
            SyncFreeSolve s = SyncFreeSolve.walk(LevelSets.forward(g), LevelSets.backward(g), c.inLocal());
            assertEquals(1, s.launches());
            KernelArray kb = p.allocate(n);
            KernelArray x = p.allocate(n);
            Precision.write(kb, b);
            Precision.write(x, DeviceCases.poison(n));
            TaskGraph tg = new TaskGraph("local").transferToDevice(DataTransferMode.FIRST_EXECUTION, kb, x);
            s.append(tg, "t", p, m, m.val(), kb, kb, x, c.lower(), c.lower() ? SolverKernels.LOWER : SolverKernels.UPPER, c.unit() ? 1 : 0);
            tg.transferToHost(DataTransferMode.EVERY_EXECUTION, x);
            double[] want = substitute(a, b, c.lower(), c.unit());
            try (ExecutionPlan plan = new ExecutionPlan(tg.snapshot())) {
                plan.withDevice(d);
                for (int run = 0; run < 2; run++) {
                    plan.execute();
                    SolverChecks.assertClose(want, Precision.read(x, n), p, c + " run " + run);
                }
            }
        });
    }

    @Test
    void levelSolvesWalkSmallOrNarrowMatricesInOneWorkGroupAndShareLanesBeyond() {
        int r = SolverKernels.LOCAL_ROWS;
        // a chain (one row a level), and 2n/3 rows reading one of the first n/3 rows (two levels, the second wide)
        for (int n : new int[] {1, 100, r, r + 1, 3 * r}) {
            for (boolean wide : new boolean[] {false, true}) {
                int third = Math.max(1, n / 3);
                CsrMatrix a = mirrored(n, 9, (i, rnd) -> wide ? (i < third ? new int[0] : new int[] {rnd.nextInt(third)}) : i > 0 ? new int[] {i - 1} : new int[0]);
                DependenceGraph g = DependenceGraph.of(a);
                SyncFreeSolve s = SyncFreeSolve.levels(LevelSets.forward(g), LevelSets.backward(g), a);
                double mean = Math.max((double) n / LevelSets.forward(g).groups(), (double) n / LevelSets.backward(g).groups());
                String want = n <= r ? "values in local memory" : mean <= SyncFreeSolve.WALK_WIDTH ? "walking the levels" : "lanes a row";
                assertTrue(s.orderName().contains(want), n + (wide ? " wide: " : ": ") + s.orderName());
                assertTrue(s.orderName().contains(n + " rows"), s.orderName()); // the reason names the matrix's size
                if (want.equals("lanes a row")) {
                    // wide levels (thousands of rows) take at least 8 lanes a row, a chain of one-row levels the row-length rule
                    assertEquals(mean >= SyncFreeSolve.WIDE_LEVEL ? Math.max(8, SyncFreeSolve.lanesFor(a)) : SyncFreeSolve.lanesFor(a), s.lanes(), s.orderName());
                    assertEquals(wide, s.lanes() >= 8, s.orderName());
                }
                assertEquals(1, s.launches(), s.orderName());
            }
        }
        CsrMatrix big = mirrored(r + 1, 9, (i, rnd) -> new int[0]);
        DependenceGraph g = DependenceGraph.of(big);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SyncFreeSolve.walk(LevelSets.forward(g), LevelSets.backward(g), true));
        assertTrue(e.getMessage().contains("at most " + r + " rows, got " + (r + 1)), e.getMessage());
    }

    private record Generations(String matrix, int lanes, int waitMode, int group) {
        @Override
        public String toString() {
            return matrix + ", " + lanes + " lanes a row, wait " + waitMode + ", groups of " + group;
        }
    }

    /**
     * The lanes-sharing solve clears its flags itself (each solve clears the half the previous one used): graphs with
     * an odd number of solves, run several times, and a second graph on the same solve, so every solve meets the
     * halves in either state; each result against sequential substitution.
     */
    @TestFactory
    Stream<DynamicTest> lanesSolvesInAnyNumberPerGraphFindTheirFlagsCleared() throws Exception {
        Map<String, CsrMatrix> ms = shapes();
        List<Generations> cases = new ArrayList<>();
        for (String name : List.of("chain 1000", "random 2049", "single row", "27pt 9x7x5")) {
            cases.add(new Generations(name, 2, SyncFreeSolve.WAIT_LANES, 128));
            cases.add(new Generations(name, 8, SyncFreeSolve.WAIT_PASS, 64));
            cases.add(new Generations(name, 4, SyncFreeSolve.WAIT_LATEST, 32));
        }
        return DeviceCases.each(cases.toArray(Generations[]::new), d -> "", (d, p, c) -> {
            CsrMatrix a = ms.get(c.matrix());
            int n = a.rows();
            DependenceGraph g = DependenceGraph.of(a);
            SyncFreeSolve s = new SyncFreeSolve(LevelSets.forward(g).order(), LevelSets.backward(g).order(), "level order", true, c.lanes(), c.waitMode(), c.group());
            DeviceMatrix m = DeviceMatrix.of(a, p);
            SplittableRandom rnd = new SplittableRandom(n + 7);
            double[] b = rnd.doubles(n, -1, 1).toArray();
            KernelArray kb = p.allocate(n);
            KernelArray y = p.allocate(n);
            KernelArray z = p.allocate(n);
            KernelArray w = p.allocate(n);
            Precision.write(kb, b);
            // three solves: y = L^-1 b, z = U^-1 y, w = L^-1 z (unit diagonal)
            TaskGraph three = new TaskGraph("gen3").transferToDevice(DataTransferMode.FIRST_EXECUTION, kb, y, z, w);
            s.append(three, "a", p, m, m.val(), kb, kb, y, true, SolverKernels.LOWER, 0);
            s.append(three, "b", p, m, m.val(), y, y, z, false, SolverKernels.UPPER, 0);
            s.append(three, "c", p, m, m.val(), z, z, w, true, SolverKernels.LOWER, 1);
            three.transferToHost(DataTransferMode.EVERY_EXECUTION, y, z, w);
            KernelArray v = p.allocate(n);
            TaskGraph one = new TaskGraph("gen1").transferToDevice(DataTransferMode.FIRST_EXECUTION, v);
            s.append(one, "u", p, m, m.val(), kb, kb, v, false, SolverKernels.UPPER, 1);
            one.transferToHost(DataTransferMode.EVERY_EXECUTION, v);
            double[] wy = substitute(a, b, true, false), wz = substitute(a, wy, false, false), ww = substitute(a, wz, true, true);
            double[] wv = substitute(a, b, false, true);
            try (ExecutionPlan p3 = new ExecutionPlan(three.snapshot()); ExecutionPlan p1 = new ExecutionPlan(one.snapshot())) {
                p3.withDevice(d);
                p1.withDevice(d);
                for (int run = 0; run < 3; run++) {
                    Precision.write(y, DeviceCases.poison(n));
                    p3.execute();
                    SolverChecks.assertClose(wy, Precision.read(y, n), p, c + " L run " + run);
                    SolverChecks.assertClose(wz, Precision.read(z, n), p, c + " U run " + run);
                    SolverChecks.assertClose(ww, Precision.read(w, n), p, c + " unit L run " + run);
                    p1.execute();
                    SolverChecks.assertClose(wv, Precision.read(v, n), p, c + " unit U run " + run);
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> aNanInTheRightHandSideEndsTheWarpSolveWithNonFiniteValues() {
        CsrMatrix a = mirrored(300, 11, (i, r) -> i > 0 ? new int[] {i - 1, r.nextInt(i)} : new int[0]);
        int n = a.rows();
        return DeviceCases.each(new Integer[] {0, 37, 299, -37}, d -> "", (d, p, signed) -> {
            int bad = Math.abs(signed); // negative: the solve whose lanes share rows
            double[] b = new SplittableRandom(bad).doubles(n, -1, 1).toArray();
            b[bad] = Double.NaN;
            double[] want = substitute(a, b, true, false);
            DeviceMatrix m = DeviceMatrix.of(a, p);
            KernelArray kb = p.allocate(n);
            KernelArray x = p.allocate(n);
            Precision.write(kb, b);
            TaskGraph tg = new TaskGraph("syncfreenan").transferToDevice(DataTransferMode.FIRST_EXECUTION, kb, x);
            (signed < 0 ? SyncFreeSolve.natural(n, 4, SyncFreeSolve.WAIT_LANES) : SyncFreeSolve.natural(n, true)).append(tg, "t", p, m, m.val(), kb, kb, x, true, SolverKernels.LOWER, 0);
            tg.transferToHost(DataTransferMode.EVERY_EXECUTION, x);
            try (ExecutionPlan plan = new ExecutionPlan(tg.snapshot())) {
                plan.withDevice(d).execute();
            }
            double[] got = Precision.read(x, n);
            SolverChecks.assertClose(java.util.Arrays.copyOf(want, bad), java.util.Arrays.copyOf(got, bad), p, "rows before the NaN");
            // every later row reads row `bad` through the chain: none may come out finite (NaN is published as infinity)
            for (int i = bad; i < n; i++) assertTrue(!Double.isFinite(got[i]), "row " + i + " = " + got[i]);
        });
    }

    private record Sweep(String matrix, GaussSeidel.Ordering ordering) {
        @Override
        public String toString() {
            return matrix + " " + ordering;
        }
    }

    @TestFactory
    Stream<DynamicTest> syncFreeSweepsEqualTheSequentialSweepInNaturalOrder() throws Exception {
        Map<String, CsrMatrix> ms = new LinkedHashMap<>();
        ms.put("27pt 9x7x5", Stencils.of(27, 9, 7, 5));
        ms.put("ani4", MatrixMarketReader.read(TestData.file("ani4.mtx")));
        ms.put("nonsymmetric 301", SolverChecks.nonsymmetric(301, 5)); // rows read later rows' old values that need not wait on them
        ms.put("diagonal-only rows 777", shapes().get("diagonal-only rows 777"));
        ms.put("27pt 17x16x16", Stencils.of(27, 17, 16, 16)); // more rows than local memory holds: lanes-sharing solve in level order
        List<Sweep> vs = new ArrayList<>();
        for (String name : ms.keySet()) {
            vs.add(new Sweep(name, GaussSeidel.Ordering.SYNC_FREE));
            vs.add(new Sweep(name, GaussSeidel.Ordering.SYNC_FREE_LEVELS));
            vs.add(new Sweep(name, GaussSeidel.Ordering.SYNC_FREE_WARP));
            vs.add(new Sweep(name, GaussSeidel.Ordering.SYNC_FREE_WARP_LEVELS));
            vs.add(new Sweep(name, GaussSeidel.Ordering.SYNC_FREE_LANES));
            vs.add(new Sweep(name, GaussSeidel.Ordering.SYNC_FREE_LANES_LEVELS));
        }
        return DeviceCases.each(vs.toArray(Sweep[]::new), d -> "", (d, p, v) -> {
            CsrMatrix a = ms.get(v.matrix());
            int n = a.rows();
            SplittableRandom rnd = new SplittableRandom(23);
            double[] b = rnd.doubles(n, -1, 1).toArray();
            double[] x0 = rnd.doubles(n, -1, 1).toArray();
            try (GaussSeidel gs = GaussSeidel.create(a, v.ordering(), p, d, 512)) {
                assertTrue(gs.sweeper() instanceof SyncFreeSweeper, gs.sweeper().layout());
                // neither the lanes-sharing solve nor the local-memory walk of a small matrix's levels has a clearing launch
                boolean lanes = v.ordering() == GaussSeidel.Ordering.SYNC_FREE_LANES || v.ordering() == GaussSeidel.Ordering.SYNC_FREE_LANES_LEVELS;
                assertEquals(lanes ? 2 : 3, gs.sweeper().forwardLaunches());
                if (v.ordering() == GaussSeidel.Ordering.SYNC_FREE_LANES_LEVELS) {
                    assertEquals(n <= SolverKernels.LOCAL_ROWS, gs.sweeper().layout().contains("local memory"), gs.sweeper().layout());
                }
                for (GaussSeidel.Direction dir : GaussSeidel.Direction.values()) {
                    double[] want = x0.clone();
                    for (int s = 0; s < 2; s++) {
                        if (dir != GaussSeidel.Direction.BACKWARD) ReferenceSolvers.gaussSeidel(a, b, want, ReferenceSolvers.natural(n));
                        if (dir != GaussSeidel.Direction.FORWARD) ReferenceSolvers.gaussSeidel(a, b, want, ReferenceSolvers.reversed(n));
                    }
                    gs.setB(b);
                    gs.setX(x0);
                    gs.sweep(dir, 2);
                    SolverChecks.assertClose(want, gs.x(), p, v + " " + dir);
                }
            }
        });
    }

    @Test
    void lanesPerRowAreThePowerOfTwoAtLeastTheMeanRowLength() throws Exception {
        assertEquals(16, SyncFreeSolve.lanesFor(Stencils.of(27, 9, 7, 5)));  // 25 * 19 * 13 = 6175 entries on 315 rows: 19.6
        assertEquals(8, SyncFreeSolve.lanesFor(shapes().get("bcsstk01")));   // 400 on 48: 8.3
        assertEquals(2, SyncFreeSolve.lanesFor(shapes().get("chain 1000")));  // 2998 on 1000
        assertEquals(2, SyncFreeSolve.lanesFor(shapes().get("single row")));  // at least 2
        assertEquals(4, SyncFreeSolve.lanesFor(mirrored(100, 6, (i, r) -> i > 2 ? new int[] {i - 1, i - 2, i - 3} : new int[0]))); // 682 on 100: 6.8
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SyncFreeSolve(new int[] {0}, new int[] {0}, "natural order", true, 12, SyncFreeSolve.WAIT_LANES));
        assertTrue(e.getMessage().contains("got 12"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new SyncFreeSolve(new int[] {0}, new int[] {0}, "natural order", true, 4, SyncFreeSolve.WAIT_LANES, 96));
        assertTrue(e.getMessage().contains("got 96"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new SyncFreeSolve(new int[] {0}, new int[] {0}, "natural order", true, 4, SyncFreeSolve.WAIT_LATEST, 64));
        assertTrue(e.getMessage().contains("spinning lane 0 takes work-groups of 32"), e.getMessage());
    }

    @Test
    void aZeroOrMissingDiagonalIsReportedWithItsRow() {
        CsrMatrix a = mirrored(50, 9, (i, r) -> i > 0 ? new int[] {i - 1} : new int[0]);
        double[] vals = a.values().clone();
        for (int q = a.rowStart(17); q < a.rowStart(18); q++) if (a.colIndex(q) == 17) vals[q] = 0;
        CsrMatrix zero = CsrMatrix.of(50, 50, a.rowPtr(), a.colIdx(), vals);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GaussSeidel.create(zero, GaussSeidel.Ordering.SYNC_FREE, Precision.FP64, Devices.jvm(), 512));
        assertTrue(e.getMessage().contains("row 17 has a zero diagonal"), e.getMessage());
        CsrMatrix missing = CsrMatrix.fromCoo(3, 3, new int[] {0, 1, 1, 2}, new int[] {0, 0, 1, 1}, new double[] {2, 1, 2, 1});
        e = assertThrows(IllegalArgumentException.class, () -> DeviceMatrix.of(missing, Precision.FP64));
        assertTrue(e.getMessage().contains("row 2 has no diagonal"), e.getMessage());
    }
}
