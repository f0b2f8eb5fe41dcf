package dev.squall.hmatrix.h2;

import static dev.squall.hmatrix.h2.H2MatrixTest.denseProduct;
import static dev.squall.hmatrix.h2.H2MatrixTest.levelKernels;
import static dev.squall.hmatrix.h2.H2MatrixTest.random;
import static dev.squall.hmatrix.h2.H2MatrixTest.relativeError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BlockRowKernelsTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /**
     * Both kernels on random batches against plain Java sums: blocks of 1 to 150 rows (more than one row tile), terms
     * of 0 to 70 columns (not multiples of 4 or 16), blocks with no terms, column- and row-major A, writing and
     * adding, 1 to 40 vectors (the lanes kernel for one, the tensor-core one from 2, column chunks of 32 cut short).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void batchesMatchPlainSums(Device device) {
        for (int nv : new int[] {1, 3, 8, 33}) {
            for (int rowMajor = 0; rowMajor <= 1; rowMajor++) {
                for (int add = 0; add <= 1; add++) {
                    check(device, nv, rowMajor == 1, add == 1, 1000L * nv + 10 * rowMajor + add);
                }
            }
        }
    }

    private static void check(Device device, int nv, boolean rowMajor, boolean add, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int xRows = 300, outRows = 0;
        List<int[]> blocks = new ArrayList<>();        // outRow, rows, first term, end term
        List<long[]> terms = new ArrayList<>();        // aOff, inner, xRow
        long aLen = 0;
        for (int g = 0; g < 9; g++) {
            int rows = g == 0 ? 150 : 1 + rnd.nextInt(70);
            int nt = g == 1 ? 0 : 1 + rnd.nextInt(3);
            int first = terms.size();
            for (int t = 0; t < nt; t++) {
                int inner = t == 0 && g == 2 ? 0 : 1 + rnd.nextInt(70);
                terms.add(new long[] {aLen, inner, rnd.nextInt(xRows - inner + 1)});
                aLen += (long) rows * inner;
            }
            blocks.add(new int[] {outRows, rows, first, terms.size()});
            outRows += rows + rnd.nextInt(3);          // gaps between blocks stay as they were
        }
        double[] a = rnd.doubles(Math.max(1, aLen), -1, 1).toArray();
        double[] x = rnd.doubles((long) xRows * nv, -1, 1).toArray();
        double[] out0 = rnd.doubles((long) outRows * nv, -1, 1).toArray();
        double[] want = out0.clone();
        BlockRowBatch batch = new BlockRowBatch();
        for (int[] b : blocks) {
            batch.block(b[0], b[1]);
            for (int q = b[2]; q < b[3]; q++) batch.term(terms.get(q)[0], (int) terms.get(q)[1], (int) terms.get(q)[2]);
            for (int r = 0; r < b[1]; r++) {
                for (int v = 0; v < nv; v++) {
                    double s = 0;
                    for (int q = b[2]; q < b[3]; q++) {
                        long[] t = terms.get(q);
                        int inner = (int) t[1];
                        for (int c = 0; c < inner; c++) {
                            double av = a[(int) (rowMajor ? t[0] + (long) r * inner + c : t[0] + (long) c * b[1] + r)];
                            s += av * x[(int) ((t[2] + c) * nv + v)];
                        }
                    }
                    int o = (b[0] + r) * nv + v;
                    want[o] = add ? want[o] + s : s;
                }
            }
        }
        DoubleArray da = H2Matrix.doubles(a), dx = H2Matrix.doubles(x), dout = H2Matrix.doubles(out0);
        TaskGraph g = new TaskGraph("block-rows").transferToDevice(DataTransferMode.EVERY_EXECUTION, da, dx, dout);
        batch.append(g, "block-rows", da, dx, dout, nv, rowMajor, add);
        g.transferToHost(DataTransferMode.EVERY_EXECUTION, dout);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(device).execute();
        }
        double[] got = dout.toHeapArray();
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got[i], 1e-12 * (1 + Math.abs(want[i])), "nv " + nv + (rowMajor ? " row" : " column") + "-major"
                    + (add ? " adding" : "") + ": entry " + i);
        }
        device.free(da, dx, dout);
        device.free(batch.arrays().toArray(dev.squall.tasks.api.KernelArray[]::new));
    }

    /**
     * The block-row product against the dense kernel product and against the per-level kernels on the same matrix:
     * 2D (n = 16000, not a multiple of the leaf) and 3D, symmetric and with two point sets, 1, 3 and 32 vectors.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void productsMatchTheDenseProductAndThePerLevelKernels(Device device) {
        CovarianceKernel k2 = CovarianceKernel.exponential(0.1), k3 = CovarianceKernel.exponential(0.2);
        PointCloud big = PointCloud.perturbedGrid(16000, 2, 31L);
        product(device, big, big, k2, H2Options.defaults(), 1, 1e-7);
        PointCloud r3 = PointCloud.uniform(3001, 3, 32L), c3 = PointCloud.perturbedGrid(2500, 3, 33L);
        H2Options o3 = H2Options.defaults().withOrder(4).withAdmissibility(H2Options.Admissibility.BOX_CENTER);
        for (int nv : new int[] {1, 3, 32}) product(device, r3, c3, k3, o3, nv, 5e-3);
        PointCloud r2 = PointCloud.uniform(2999, 2, 34L), c2 = PointCloud.perturbedGrid(3500, 2, 35L);
        product(device, r2, c2, k2, H2Options.defaults().withLeafSize(48), 32, 1e-6);
        product(device, r3, r3, k3, o3.withLeafSize(40), 3, 5e-3);
    }

    private static void product(Device device, PointCloud rows, PointCloud cols, CovarianceKernel k, H2Options o, int nv, double tol) {
        double[] x = random(cols.size() * nv, 40L + nv);
        double[] want = denseProduct(rows, cols, k, x, nv);
        H2Options od = o.withDevice(device);
        try (H2Matrix a = H2Matrix.build(rows, cols, k, od); H2Matrix ref = levelKernels(() -> H2Matrix.build(rows, cols, k, od))) {
            assertFalse(a.usesGemm(nv), "the block-row kernels run no linalg GEMMs");
            double[] y = a.multiply(x, nv);
            double err = relativeError(y, want);
            assertTrue(err < tol, nv + " vectors: relative error " + err + " of " + a);
            double diff = relativeError(y, ref.multiply(x, nv));
            assertTrue(diff < 1e-12, nv + " vectors: block rows and per-level kernels differ by " + diff + " on " + a);
        }
    }
}
