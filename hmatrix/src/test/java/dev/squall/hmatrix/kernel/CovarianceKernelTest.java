package dev.squall.hmatrix.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class CovarianceKernelTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Closed forms at r = l and r = 0 (every kernel is 1 at r = 0). */
    @Test
    void closedForms() {
        double e = Math.exp(-1);
        assertEquals(e, CovarianceKernel.exponential(0.3).evaluate(0.3), 1e-15);
        assertEquals(Math.exp(-0.5), CovarianceKernel.gaussian(0.3).evaluate(0.3), 1e-15);
        assertEquals(e, CovarianceKernel.matern12(0.3).evaluate(0.3), 1e-15);
        double s3 = Math.sqrt(3), s5 = Math.sqrt(5);
        assertEquals((1 + s3) * Math.exp(-s3), CovarianceKernel.matern32(0.3).evaluate(0.3), 1e-15);
        assertEquals((1 + s5 + 5.0 / 3) * Math.exp(-s5), CovarianceKernel.matern52(0.3).evaluate(0.3), 1e-15);
        assertEquals(1 / Math.sqrt(2), CovarianceKernel.inverseMultiquadric(0.3).evaluate(0.3), 1e-15);
        for (String k : new String[] {"exp", "gauss", "matern12", "matern32", "matern52", "imq"}) {
            CovarianceKernel c = CovarianceKernel.parse(k + ":0.7");
            assertEquals(1.0, c.evaluate(0.0), 0.0, k);
            assertEquals(0.7, c.lengthScale());
            assertTrue(c.evaluate(0.5) > c.evaluate(1.0), k + " decreases with distance");
        }
    }

    @Test
    void gaussianAgreesWithTheDenseReferenceKernel() {
        GaussianKernel g = new GaussianKernel(0.4);
        CovarianceKernel c = CovarianceKernel.gaussian(0.4);
        for (double r = 0; r < 2; r += 0.1) assertEquals(g.ofSquaredDistance(r * r), c.evaluate(r), 1e-15);
    }

    @Test
    void parseRejectsBadSpecs() {
        assertThrows(IllegalArgumentException.class, () -> CovarianceKernel.parse("exp"));
        assertThrows(IllegalArgumentException.class, () -> CovarianceKernel.parse("exp:x"));
        assertThrows(IllegalArgumentException.class, () -> CovarianceKernel.parse("exp:-1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CovarianceKernel.parse("cosine:1"));
        assertTrue(e.getMessage().contains("cosine"), e.getMessage());
    }

    /** Each kernel's device map turns distances into the values the host function gives. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void deviceMapsMatchTheHostFunctions(Device device) {
        int n = 1000;
        for (String k : new String[] {"exp", "gauss", "matern12", "matern32", "matern52", "imq"}) {
            CovarianceKernel c = CovarianceKernel.parse(k + ":0.25");
            checkMap(device, c, n);
        }
        checkMap(device, CovarianceKernel.of("cauchy", 0.5, UserKernels::cauchy, UserKernels::applyCauchy), n);
    }

    private static void checkMap(Device device, CovarianceKernel c, int n) {
        DoubleArray v = new DoubleArray(n + 1);
        for (int i = 0; i < n; i++) v.set(i, i * 0.003);
        v.set(n, -5.0); // past the count: left alone
        TaskGraph g = new TaskGraph("cov").transferToDevice(dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION, v);
        c.addEvaluation(g, "k", v, n).transferToHost(dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION, v);
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            p.execute();
        }
        for (int i = 0; i < n; i++) assertEquals(c.evaluate(i * 0.003), v.get(i), 1e-14, c + " at " + i);
        assertEquals(-5.0, v.get(n), 0.0);
    }
}
