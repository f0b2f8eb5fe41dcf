package dev.squall.spark;

import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.spark.h2.DistributedH2;
import dev.squall.spark.permanent.DistributedPermanent;
import dev.squall.spark.sparse.DistributedCsr;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.solve.Pcg;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** {@code local-cluster[2,1,1024]}: two executor JVMs of one core each, started by in-process workers. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalClusterTest {
    static JavaSparkContext sc;
    static TaskFaultListener faults;

    @BeforeAll
    static void start() {
        sc = SquallSpark.start(SquallSpark.conf("local-cluster[2,1,1024]", "squall-local-cluster-test"));
        faults = TaskFaultListener.on(sc);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.close();
    }

    @Test
    void executorsAreSeparateJvms() {
        long driver = ProcessHandle.current().pid();
        List<Long> pids = sc.parallelize(List.of(0, 1, 2, 3, 4, 5, 6, 7), 8).map(k -> {
            Thread.sleep(200); // long enough for both executors to take tasks
            return ProcessHandle.current().pid();
        }).collect();
        for (long p : pids) assertNotEquals(driver, p);
        assertEquals(2, new HashSet<>(pids).size(), "two executors: " + pids);
    }

    /** A permanent over executor JVMs equals the single-process value bit for bit, also when a task fails once. */
    @Test
    void permanentAcrossExecutorsBitForBitWithARetry() throws Exception {
        Random r = new Random(22);
        double[] v = new double[22 * 22];
        for (int k = 0; k < v.length; k++) v[k] = r.nextDouble() - 0.25;
        SquareMatrix a = SquareMatrix.of(22, v);
        long want = Double.doubleToLongBits(new ChunkedJvmPermanent(2).dense(RowScaling.of(a).scaled()));
        assertEquals(want, Double.doubleToLongBits(new DistributedPermanent(sc).compute(a).sweepValue()));
        int before = faults.failed.get();
        DistributedPermanent.Result retried = new DistributedPermanent(sc).chunksPerSlot(4).failFirstAttemptOf(3).compute(a);
        sc.sc().listenerBus().waitUntilEmpty();
        assertEquals(1, faults.failed.get() - before, "one task attempt failed and was re-run");
        assertEquals(want, Double.doubleToLongBits(retried.sweepValue()));
    }

    /** Barrier CG with one block per executor: the driver-driven CG bit for bit, the single-process Pcg to rounding. */
    @Test
    void barrierCgAcrossExecutors() {
        CsrMatrix a = Stencils.hpcg(8, 8, 8);
        double[] b = new Random(4).doubles(a.rows(), -1, 1).toArray();
        Pcg.Result ref;
        try (Pcg cg = Pcg.create(a, null, Precision.FP64, Devices.jvm(), null)) {
            ref = cg.solve(b, 1e-10, 500, null);
        }
        try (DistributedCsr d = DistributedCsr.of(sc, a, 2, TaskDevices.fallingBackTo("jvm"))) {
            DistributedCsr.CgResult barrier = d.cgBarrier(b, 1e-10, 500);
            DistributedCsr.CgResult driver = d.cgDriver(b, 1e-10, 500);
            assertTrue(barrier.converged());
            assertArrayEquals(driver.x(), barrier.x(), 0.0);
            assertTrue(Math.abs(barrier.iterations() - ref.iterations()) <= 1, barrier.iterations() + " against " + ref.iterations());
            double diff = 0, scale = Arrays.stream(ref.x()).map(Math::abs).max().orElse(1);
            for (int i = 0; i < b.length; i++) diff = Math.max(diff, Math.abs(barrier.x()[i] - ref.x()[i]));
            assertTrue(diff <= 1e-10 * scale, "max difference " + diff);
        }
    }

    /**
     * An H2 product with its 4 subtrees' tasks over both executors equals the single-process H2Matrix (bit for bit
     * here, both on the JVM; 1e-12 is the contract); with the executor under part 2's rows task halted, the part is
     * rebuilt and its rows recomputed elsewhere: the same y bit for bit. Before the permanent's lost executor.
     */
    @Test
    @Order(Integer.MAX_VALUE - 1)
    void h2ProductAcrossExecutorsAndAfterALostExecutor() throws Exception {
        PointCloud p = PointCloud.perturbedGrid(2500, 3, 6L);
        CovarianceKernel k = CovarianceKernel.exponential(0.3);
        H2Options o = H2Options.defaults().withOrder(3).withLeafSize(32);
        double[] x = new Random(8).doubles(p.size(), -1, 1).toArray();
        double[] want;
        try (H2Matrix single = H2Matrix.build(p, k, o.withDevice(Devices.jvm()))) {
            want = single.multiply(x);
        }
        try (DistributedH2 d = DistributedH2.build(sc, p, k, o, 2, TaskDevices.fallingBackTo("jvm"))) {
            double[] y = d.multiply(x).y();
            double num = 0, den = 0;
            for (int i = 0; i < y.length; i++) {
                num += (y[i] - want[i]) * (y[i] - want[i]);
                den += want[i] * want[i];
            }
            assertTrue(Math.sqrt(num / den) <= 1e-12, "relative difference " + Math.sqrt(num / den));
            int before = faults.failed.get();
            double[] again = d.injectFault(DistributedPermanent.Fault.HALT_EXECUTOR, 2, 2).multiply(x).y();
            sc.sc().listenerBus().waitUntilEmpty();
            assertTrue(faults.failed.get() - before >= 1, "the task on the halted executor failed and was re-run");
            assertArrayEquals(y, again, 0.0);
        }
    }

    /**
     * An executor JVM that dies under a task (Runtime.halt): Spark re-runs the lost chunk on the other executor (its
     * worker starts a new one), and the value is the single-process one bit for bit. Last: the other tests want both
     * executors up.
     */
    @Test
    @Order(Integer.MAX_VALUE) // unannotated tests have Order.DEFAULT (MAX_VALUE / 2): this one runs after them
    void lostExecutorsChunkIsRerunAndTheValueIsUnchanged() throws Exception {
        Random r = new Random(23);
        double[] v = new double[20 * 20];
        for (int k = 0; k < v.length; k++) v[k] = r.nextDouble() * 2 - 1;
        SquareMatrix a = SquareMatrix.of(20, v);
        long want = Double.doubleToLongBits(new ChunkedJvmPermanent(2).dense(RowScaling.of(a).scaled()));
        int before = faults.failed.get();
        DistributedPermanent.Result lost = new DistributedPermanent(sc).chunksPerSlot(4).injectFault(DistributedPermanent.Fault.HALT_EXECUTOR, 1).compute(a);
        sc.sc().listenerBus().waitUntilEmpty();
        assertTrue(faults.failed.get() - before >= 1, "the task on the halted executor failed and was re-run");
        assertEquals(want, Double.doubleToLongBits(lost.sweepValue()));
    }
}
