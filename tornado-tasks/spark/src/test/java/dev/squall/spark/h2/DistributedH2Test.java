package dev.squall.spark.h2;

import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import dev.squall.spark.TaskFaultListener;
import dev.squall.spark.permanent.DistributedPermanent.Fault;
import dev.squall.tasks.runtime.Devices;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** Local mode with 4 slots: H2 products over subtrees against the single-process H2Matrix and the dense product. */
class DistributedH2Test {
    static final TaskDevices JVM = TaskDevices.fallingBackTo("jvm").localGpus(false);
    static JavaSparkContext sc;
    static TaskFaultListener faults;

    @BeforeAll
    static void start() {
        sc = SquallSpark.start(SquallSpark.conf("local[4,4]", "squall-h2-test"));
        faults = TaskFaultListener.on(sc);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.close();
    }

    /** The exact kernel sum in plain Java. */
    static double[] dense(PointCloud p, CovarianceKernel k, double[] x) {
        double[] y = new double[p.size()];
        for (int i = 0; i < p.size(); i++) {
            double s = 0;
            for (int j = 0; j < p.size(); j++) s += k.evaluate(p, i, p, j) * x[j];
            y[i] = s;
        }
        return y;
    }

    static double relDiff(double[] got, double[] want) {
        double num = 0, den = 0;
        for (int i = 0; i < want.length; i++) {
            num += (got[i] - want[i]) * (got[i] - want[i]);
            den += want[i] * want[i];
        }
        return Math.sqrt(num / den);
    }

    static double[] single(PointCloud p, CovarianceKernel k, H2Options o, double[] x) {
        try (H2Matrix a = H2Matrix.build(p, k, o.withDevice(Devices.jvm()))) {
            return a.multiply(x);
        }
    }

    /** 2D and 3D, sizes not multiples of the leaf, every cut level from 0 (one task) to the leaves. */
    @Test
    void equalsTheSingleProcessMatrixAtEveryCutLevel() {
        Object[][] cases = {
                {PointCloud.perturbedGrid(3000, 2, 3L), CovarianceKernel.exponential(0.1), H2Options.defaults().withOrder(5).withLeafSize(32)},
                {PointCloud.uniform(2500, 3, 4L), CovarianceKernel.gaussian(0.3), H2Options.defaults().withOrder(3).withLeafSize(40)
                        .withAdmissibility(H2Options.Admissibility.BOX_CENTER)},
        };
        for (Object[] c : cases) {
            PointCloud p = (PointCloud) c[0];
            CovarianceKernel k = (CovarianceKernel) c[1];
            H2Options o = (H2Options) c[2];
            double[] x = new SplittableRandom(7).doubles(p.size(), -1, 1).toArray();
            double[] want = single(p, k, o, x);
            int depth;
            try (DistributedH2 d = DistributedH2.build(sc, p, k, o, 0, JVM)) {
                depth = d.structure().depth();
                assertTrue(depth >= 5, "depth " + depth);
            }
            for (int level : new int[] {0, 1, 2, 3, depth}) {
                try (DistributedH2 d = DistributedH2.build(sc, p, k, o, level, JVM)) {
                    DistributedH2.Product r = d.multiply(x);
                    assertEquals(1 << level, r.devices().size());
                    double diff = relDiff(r.y(), want);
                    assertTrue(diff <= 1e-12, p.dim() + "D, level " + level + ": relative difference " + diff + " from H2Matrix.multiply");
                    if (level > 0) assertTrue(d.haloValues() > 0, "halo at level " + level);
                }
            }
        }
    }

    /** Tasks on OpenCL (PoCL on CI) against the single-process matrix on the same device and on the JVM. */
    @Test
    void openClTasksEqualTheSingleProcessMatrix() {
        boolean opencl = Devices.all().stream().anyMatch(d -> d.id().startsWith("opencl:"));
        if (!opencl) {
            assertNull(System.getenv("SQUALL_REQUIRE_OPENCL"), "SQUALL_REQUIRE_OPENCL is set but no OpenCL device is present");
            return;
        }
        String id = Devices.all().stream().filter(d -> d.id().startsWith("opencl:")).findFirst().orElseThrow().id();
        PointCloud p = PointCloud.perturbedGrid(1800, 3, 21L);
        CovarianceKernel k = CovarianceKernel.matern52(0.25);
        H2Options o = H2Options.defaults().withOrder(3).withLeafSize(30);
        double[] x = new SplittableRandom(2).doubles(p.size(), -1, 1).toArray();
        double[] onDevice;
        try (H2Matrix a = H2Matrix.build(p, k, o.withDevice(Devices.get(id)))) {
            onDevice = a.multiply(x);
        }
        double[] onJvm = single(p, k, o, x);
        try (DistributedH2 d = DistributedH2.build(sc, p, k, o, 2, TaskDevices.fallingBackTo(id).localGpus(false))) {
            DistributedH2.Product r = d.multiply(x);
            assertTrue(r.devices().stream().allMatch(id::equals), r.devices().toString());
            assertTrue(relDiff(r.y(), onDevice) <= 1e-12, "relative difference " + relDiff(r.y(), onDevice) + " from H2Matrix on " + id);
            assertTrue(relDiff(r.y(), onJvm) <= 1e-12, "relative difference " + relDiff(r.y(), onJvm) + " from H2Matrix on the JVM");
        }
    }

    @Test
    void matchesTheDenseProductToInterpolationAccuracyAndRepeatsBitForBit() {
        PointCloud p = PointCloud.perturbedGrid(2048, 2, 11L);
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        double[] x = new SplittableRandom(3).doubles(p.size(), -2, 1).toArray();
        double[] want = dense(p, k, x);
        try (DistributedH2 d = DistributedH2.build(sc, p, k, H2Options.defaults(), 2, JVM)) {
            double[] y = d.multiply(x).y();
            double err = relDiff(y, want);
            assertTrue(err < 1e-7, "relative error " + err + " against the dense product");
            assertArrayEquals(y, d.multiply(x).y(), 0.0, "a second product (cached device copies) is the same bit for bit");
            assertThrows(IllegalArgumentException.class, () -> d.multiply(new double[5]));
        }
        assertThrows(IllegalArgumentException.class, () -> DistributedH2.build(sc, p, k, H2Options.defaults(), 40, JVM));
    }

    /** A failed task and a task killed while it runs, in either job, are re-run: y unchanged bit for bit. */
    @Test
    void failedAndKilledTasksAreRerunAndTheProductIsUnchanged() throws Exception {
        PointCloud p = PointCloud.uniform(1500, 3, 9L);
        // THROW strikes part 1 in the second job (rows), the kill part 3 in the first (upsweep)
        CovarianceKernel k = CovarianceKernel.matern32(0.2);
        H2Options o = H2Options.defaults().withOrder(3).withLeafSize(24);
        double[] x = new SplittableRandom(5).doubles(p.size(), -1, 1).toArray();
        try (DistributedH2 d = DistributedH2.build(sc, p, k, o, 2, JVM)) {
            double[] clean = d.multiply(x).y();
            sc.sc().listenerBus().waitUntilEmpty();
            int failedBefore = faults.failed.get();
            assertArrayEquals(clean, d.injectFault(Fault.THROW, 1, 1).multiply(x).y(), 0.0);
            sc.sc().listenerBus().waitUntilEmpty();
            assertEquals(1, faults.failed.get() - failedBefore, "one failed attempt");
            int killedBefore = faults.killed.get();
            faults.killFirstAttemptOf(3);
            try {
                assertArrayEquals(clean, d.injectFault(Fault.WAIT_FOR_KILL, 3, 1).multiply(x).y(), 0.0);
                sc.sc().listenerBus().waitUntilEmpty();
            } finally {
                faults.killFirstAttemptOf(-1);
            }
            assertEquals(1, faults.killed.get() - killedBefore, "one task attempt was killed and re-run");
        }
    }
}
