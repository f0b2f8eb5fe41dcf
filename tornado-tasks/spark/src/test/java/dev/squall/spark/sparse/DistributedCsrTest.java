package dev.squall.spark.sparse;

import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.solve.Pcg;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** Local mode with 4 slots: a barrier stage of up to 4 blocks fits. */
class DistributedCsrTest {
    static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = SquallSpark.start(SquallSpark.conf("local[4]", "squall-cg-test"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.close();
    }

    static double[] multiply(CsrMatrix a, double[] x) {
        double[] y = new double[a.rows()];
        for (int i = 0; i < a.rows(); i++) for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) y[i] += a.value(k) * x[a.colIndex(k)];
        return y;
    }

    @Test
    void productMatchesPlainCsrAndDeviceCopiesAreCached() {
        CsrMatrix a = Stencils.hpcg(8, 8, 6);
        double[] x = new Random(1).doubles(a.rows(), -1, 1).toArray();
        double[] want = multiply(a, x);
        try (DistributedCsr d = DistributedCsr.of(sc, a, 3, TaskDevices.fallingBackTo("jvm").localGpus(false))) {
            long[] before = BlockCache.counts();
            double[] y = d.multiply(x);
            double[] again = d.multiply(x);
            long[] after = BlockCache.counts();
            for (int i = 0; i < y.length; i++) assertEquals(want[i], y[i], 1e-13 * (1 + Math.abs(want[i])), "row " + i);
            assertArrayEquals(y, again, 0.0);
            // local mode: the executor is this JVM, so its cache is visible here
            assertEquals(3, after[1] - before[1], "one device copy per block");
            assertEquals(3, after[0] - before[0], "the second product found them");
            assertThrows(IllegalArgumentException.class, () -> d.multiply(new double[5]));
        }
    }

    /** The HPCG matrix: barrier CG equals the driver-driven CG bit for bit and sparse's single-process Pcg to rounding. */
    @Test
    void cgOnHpcgMatchesSingleProcessPcg() {
        CsrMatrix a = Stencils.hpcg(12, 12, 10);
        double[] ones = new double[a.rows()];
        Arrays.fill(ones, 1);
        double[] b = multiply(a, ones);
        Pcg.Result ref;
        try (Pcg cg = Pcg.create(a, null, Precision.FP64, Devices.jvm(), null)) {
            ref = cg.solve(b, 1e-10, 500, null);
        }
        assertEquals(Pcg.Status.CONVERGED, ref.status());
        try (DistributedCsr d = DistributedCsr.of(sc, a, 4, TaskDevices.fallingBackTo("jvm").localGpus(false))) {
            DistributedCsr.CgResult barrier = d.cgBarrier(b, 1e-10, 500);
            assertTrue(barrier.converged());
            assertEquals(4, barrier.devices().size());
            assertTrue(Math.abs(barrier.iterations() - ref.iterations()) <= 1, barrier.iterations() + " against " + ref.iterations());
            assertEquals(barrier.iterations() + 1, barrier.history().length);
            double err = 0, diff = 0;
            for (int i = 0; i < ones.length; i++) {
                err = Math.max(err, Math.abs(barrier.x()[i] - 1));
                diff = Math.max(diff, Math.abs(barrier.x()[i] - ref.x()[i]));
            }
            assertTrue(err < 1e-8, "x = 1 to 1e-8, max error " + err);
            assertTrue(diff < 1e-10, "x as the single-process Pcg's to 1e-10, max difference " + diff);
            DistributedCsr.CgResult driver = d.cgDriver(b, 1e-10, 500);
            assertEquals(barrier.iterations(), driver.iterations());
            assertArrayEquals(barrier.x(), driver.x(), 0.0, "both variants do the same arithmetic");
            assertArrayEquals(barrier.history(), driver.history(), 0.0);
        }
    }

    /** Spark's allGather for every round (about a second each in Spark 4.2): two iterations, as the other variants. */
    @Test
    void allGatherRoundsGiveTheSameIterates() {
        CsrMatrix a = Stencils.hpcg(5, 4, 4);
        double[] b = new Random(9).doubles(a.rows(), 0, 1).toArray();
        try (DistributedCsr d = DistributedCsr.of(sc, a, 3, TaskDevices.fallingBackTo("jvm").localGpus(false))) {
            DistributedCsr.CgResult gathered = d.cgBarrier(b, 1e-12, 2, BlockExchange.Kind.ALL_GATHER);
            DistributedCsr.CgResult sockets = d.cgBarrier(b, 1e-12, 2, BlockExchange.Kind.SOCKETS);
            DistributedCsr.CgResult driver = d.cgDriver(b, 1e-12, 2);
            assertEquals(2, gathered.iterations());
            assertFalse(gathered.converged());
            assertArrayEquals(driver.x(), gathered.x(), 0.0);
            assertArrayEquals(driver.x(), sockets.x(), 0.0);
            assertArrayEquals(driver.history(), gathered.history(), 0.0);
            assertTrue(gathered.history()[2] < gathered.history()[0], "the residual decreases");
        }
    }

    @Test
    void zeroRightHandSideAndBadInput() {
        CsrMatrix a = Stencils.hpcg(4, 4, 4);
        try (DistributedCsr d = DistributedCsr.of(sc, a, 2, TaskDevices.fallingBackTo("jvm").localGpus(false))) {
            DistributedCsr.CgResult r = d.cgBarrier(new double[a.rows()], 1e-8, 10);
            assertTrue(r.converged());
            assertEquals(0, r.iterations());
            assertArrayEquals(new double[a.rows()], r.x(), 0.0);
            assertThrows(IllegalArgumentException.class, () -> d.cgBarrier(new double[a.rows()], 0, 10));
            assertThrows(IllegalArgumentException.class, () -> d.cgDriver(new double[3], 1e-8, 10));
        }
    }
}
