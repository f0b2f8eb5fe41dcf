package dev.squall.linalg.cholesky;

import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.gemm.PipelinedGemmKernelsF64;
import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.testing.Matrices;
import dev.squall.linalg.testing.Residuals;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The look-ahead schedule on two queues ({@code CholeskyRun(..., lookahead = true)}) against the reference
 * Cholesky, the single-queue path and itself on a second execution, on every device present (the JVM and PoCL
 * in CI). Small outer blocks give several look-ahead steps at test sizes.
 */
class LookaheadCholeskyTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    private static double[] factor(Device device, double[] a, int n, int outer, boolean lookahead) {
        try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, outer, true, lookahead)) {
            assertEquals(lookahead, run.lookahead());
            run.execute();
            return Precision.toDoubles(run.factor().l());
        }
    }

    /**
     * Orders and outer blocks: 587 / 128 (five steps, the last of 75 columns), 384 / 128 (three full steps), 203 / 64
     * (four steps, diagonal blocks of one small-kernel launch, the last 11 wide), 250 / 128 (one step: n <= 2 outer).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void equalsReferenceAndSingleQueuePath(Device device) {
        int[][] cases = {{587, 128}, {384, 128}, {203, 64}, {250, 128}};
        for (int[] c : cases) {
            int n = c[0], outer = c[1];
            String where = "n=" + n + " outer=" + outer + " on " + device.id();
            double[] a = Matrices.spd(new SplittableRandom(n), n, 0.5);
            double[] l = factor(device, a, n, outer, true);
            assertTrue(Residuals.upperIsZero(n, l, 0), "upper triangle zero, " + where);
            double res = Residuals.cholesky(n, l, a);
            assertTrue(res < 1e-14, "||LL^T - A||/||A|| = " + res + ", " + where);
            Compare.close("L vs reference, " + where, ReferenceCholesky.factor(n, a), l, 1e-11);
            Compare.close("L vs single-queue path, " + where, factor(device, a, n, outer, false), l, 1e-12);
        }
    }

    /**
     * A persistent trailing update (3 work-groups looping over the tiles of each {@code rest} product) with the panel
     * solves on the update queue, and the split update of the next block column (its diagonal block first, the panel
     * below it with the rest), by the depth-32 tensor-core kernel: 587 / 128 (five steps, the
     * last of 75 columns), 330 / 64 (five steps, the last 10 wide), 459 / 128 (split without a persistent update),
     * against the reference and the single-queue path with the same kernel. Where the kernel's 216 KiB of local memory
     * do not fit, the run is refused.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void persistentRestEqualsReference(Device device) {
        // n, outer block, rest groups, split
        int[][] cases = {{587, 128, 3, 0}, {330, 64, 3, 1}, {587, 128, 3, 1}, {459, 128, 0, 1}};
        for (int[] c : cases) {
            int n = c[0], outer = c[1], groups = c[2];
            boolean split = c[3] == 1;
            GemmKernel kernel = GemmKernel.CHUNK_W8_D32_S3;
            String where = "n=" + n + " outer=" + outer + " " + kernel.cliName() + " rest on " + groups + " groups" + (split ? ", split" : "")
                    + ", on " + device.id();
            double[] a = Matrices.spd(new SplittableRandom(n + 17), n, 0.5);
            if (!PipelinedGemmKernelsF64.fits(device, PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, outer, true, true, kernel, groups, split));
                assertTrue(e.getMessage().contains("216 KiB"), e.getMessage());
                continue;
            }
            double[] l;
            try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, outer, true, true, kernel, groups, split)) {
                run.execute();
                l = Precision.toDoubles(run.factor().l());
            }
            assertTrue(Residuals.upperIsZero(n, l, 0), "upper triangle zero, " + where);
            double res = Residuals.cholesky(n, l, a);
            assertTrue(res < 1e-14, "||LL^T - A||/||A|| = " + res + ", " + where);
            Compare.close("L vs reference, " + where, ReferenceCholesky.factor(n, a), l, 1e-11);
            double[] single;
            try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, outer, true, false, kernel)) {
                run.execute();
                single = Precision.toDoubles(run.factor().l());
            }
            Compare.close("L vs single-queue path, " + where, single, l, 1e-12);
        }
    }

    /** Plans are built once: a second execution of the same run gives the same factor, bit for bit. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void repeatedExecutionsAgree(Device device) {
        int n = 331, outer = 64;
        double[] a = Matrices.spd(new SplittableRandom(3), n, 0.5);
        KernelArray da = Precision.FP64.fromDoubles(a);
        try (CholeskyRun run = new CholeskyRun(device, da, n, outer, true, true)) {
            double ms = run.execute().kernelMillis();
            assertTrue(ms > 0, "device time across both queues: " + ms);
            double[] first = Precision.toDoubles(run.factor().l()).clone();
            run.execute();
            double[] second = Precision.toDoubles(run.factor().l());
            assertArrayEquals(first, second, "second execution on " + device.id());
            Compare.close("L vs reference on " + device.id(), ReferenceCholesky.factor(n, a), second, 1e-11);
        }
    }

    /**
     * A pivot that fails in the first, a middle or the last outer step is named as the reference and the
     * single-queue path name it, and the run can be executed again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void namesTheSameFailingPivot(Device device) {
        int n = 453, outer = 128;
        for (int bad : new int[] {40, 300, 449}) {
            double[] a = Matrices.spd(new SplittableRandom(5), n, 0.5);
            a[bad + bad * n] -= 1000;
            int refPivot = assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, a)).pivot();
            NotPositiveDefiniteException single = assertThrows(NotPositiveDefiniteException.class, () -> factor(device, a, n, outer, false));
            try (CholeskyRun run = new CholeskyRun(device, Precision.FP64.fromDoubles(a), n, outer, true, true)) {
                for (int round = 0; round < 2; round++) {
                    NotPositiveDefiniteException e = assertThrows(NotPositiveDefiniteException.class, run::execute);
                    assertEquals(refPivot, e.pivot(), "pivot " + bad + " round " + round + " on " + device.id());
                    assertEquals(single.pivot(), e.pivot());
                    assertTrue(e.pivotValue() <= 0, "pivot value " + e.pivotValue());
                }
            }
        }
    }
}
