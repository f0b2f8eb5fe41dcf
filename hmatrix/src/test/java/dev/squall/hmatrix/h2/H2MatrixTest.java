package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class H2MatrixTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** The exact kernel sum y_i = sum_j k(rows_i, cols_j) x_j (nv vectors, row-major), in plain Java. */
    static double[] denseProduct(PointCloud rows, PointCloud cols, CovarianceKernel k, double[] x, int nv) {
        int n = rows.size(), m = cols.size();
        double[] y = new double[n * nv];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                double a = k.evaluate(rows, i, cols, j);
                for (int v = 0; v < nv; v++) y[i * nv + v] += a * x[j * nv + v];
            }
        }
        return y;
    }

    static double relativeError(double[] got, double[] want) {
        double num = 0, den = 0;
        for (int i = 0; i < want.length; i++) {
            double d = got[i] - want[i];
            num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
            den += want[i] * want[i];
        }
        return Math.sqrt(num / den);
    }

    /** A matrix built while {@link H2Matrix#productKernels} is {@code LEVELS}: its products use the per-level kernels. */
    static H2Matrix levelKernels(java.util.function.Supplier<H2Matrix> build) {
        H2Matrix.ProductKernels was = H2Matrix.productKernels;
        H2Matrix.productKernels = H2Matrix.ProductKernels.LEVELS;
        try {
            return build.get();
        } finally {
            H2Matrix.productKernels = was;
        }
    }

    static double[] random(int n, long seed) {
        return new SplittableRandom(seed).doubles(n, -1, 1).toArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void exponential2dMatchesTheDenseProductToInterpolationAccuracy(Device device) {
        PointCloud pts = PointCloud.perturbedGrid(4096, 2, 3L);
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        double[] x = random(4096, 5L);
        double[] want = denseProduct(pts, pts, k, x, 1);
        try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withDevice(device))) {
            assertTrue(a.couplingBlocks() > 0 && a.denseBlocks() > 0, a.toString());
            double err = relativeError(a.multiply(x), want);
            assertTrue(err < 1e-7, "relative error " + err + " of " + a);
            // a second product reuses the plan and gives the same result
            double err2 = relativeError(a.multiply(x), want);
            assertEquals(err, err2, 1e-15);
        }
    }

    /**
     * The box-center admissibility (H2Opus's) keeps fewer dense blocks and less memory than the box-distance one at
     * eta = 1: in 2D (exponential, l = 0.1, order 8) at eta = 0.7 with an error below 1e-6, in 3D (l = 0.2, order 4)
     * at eta = 1 with an error below 5e-3.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void boxCenterAdmissibilityIsSmallerAndStillAccurate(Device device) {
        for (int dim = 2; dim <= 3; dim++) {
            PointCloud pts = PointCloud.perturbedGrid(4096, dim, 60L + dim);
            CovarianceKernel k = CovarianceKernel.exponential(dim == 2 ? 0.1 : 0.2);
            double[] x = random(pts.size(), 61L);
            double[] want = denseProduct(pts, pts, k, x, 1);
            H2Options o = H2Options.defaults().withOrder(dim == 2 ? 8 : 4).withDevice(device);
            try (H2Matrix box = H2Matrix.build(pts, k, o);
                    H2Matrix center = H2Matrix.build(pts, k, o.withAdmissibility(H2Options.Admissibility.BOX_CENTER).withEta(dim == 2 ? 0.7 : 1.0))) {
                assertTrue(center.denseBlocks() < box.denseBlocks() && center.memory().total() < box.memory().total(), center + " vs " + box);
                double err = relativeError(center.multiply(x), want);
                assertTrue(err < (dim == 2 ? 1e-6 : 5e-3), dim + "D: relative error " + err + " of " + center);
            }
        }
    }

    /** Interpolation error falls as the Chebyshev order rises (2, 4, 6, 8), by orders of magnitude overall. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void errorFallsAsTheOrderRises(Device device) {
        PointCloud pts = PointCloud.perturbedGrid(1500, 2, 4L);
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        double[] x = random(pts.size(), 6L);
        double[] want = denseProduct(pts, pts, k, x, 1);
        double[] err = new double[4];
        for (int i = 0; i < 4; i++) {
            try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withLeafSize(32).withOrder(2 + 2 * i).withDevice(device))) {
                err[i] = relativeError(a.multiply(x), want);
            }
        }
        for (int i = 1; i < 4; i++) assertTrue(err[i] < 0.5 * err[i - 1], "errors by order 2, 4, 6, 8: " + java.util.Arrays.toString(err));
        assertTrue(err[3] < 1e-3 * err[0], "errors by order 2, 4, 6, 8: " + java.util.Arrays.toString(err));
    }

    /** Several vectors at once give, column by column, the dense product. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void manyVectorsMatchTheDenseProduct(Device device) {
        PointCloud pts = PointCloud.uniform(1200, 3, 8L);
        CovarianceKernel k = CovarianceKernel.matern52(0.3);
        int nv = 3;
        double[] x = random(pts.size() * nv, 9L);
        double[] want = denseProduct(pts, pts, k, x, nv);
        try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withLeafSize(48).withOrder(4).withDevice(device))) {
            double err = relativeError(a.multiply(x, nv), want);
            assertTrue(err < 1e-4, "relative error " + err + " of " + a);
            // each column alone gives the same as within the block
            double[] many = a.multiply(x, nv);
            double[] x1 = new double[pts.size()];
            for (int j = 0; j < x1.length; j++) x1[j] = x[j * nv + 1];
            double[] one = a.multiply(x1);
            for (int i = 0; i < one.length; i++) assertEquals(one[i], many[i * nv + 1], 1e-12 * (1 + Math.abs(one[i])));
        }
    }

    /**
     * With the per-level kernels, from {@link H2Matrix#GEMM_MIN_VECTORS} vectors on, the dense and coupling phases are batched GEMMs: the result
     * matches the dense product and, column by column, the single-vector kernels; also for two point sets (blocks
     * between nodes of different levels and sizes) and after compression (ranks that differ between levels).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void manyVectorsThroughBatchedGemmsMatchTheDenseProduct(Device device) {
        PointCloud rows = PointCloud.uniform(1100, 2, 20L);
        PointCloud cols = PointCloud.perturbedGrid(700, 2, 21L);
        CovarianceKernel k = CovarianceKernel.exponential(0.2);
        for (int nv : new int[] {H2Matrix.GEMM_MIN_VECTORS, 19}) {
            double[] x = random(cols.size() * nv, 22L + nv);
            double[] want = denseProduct(rows, cols, k, x, nv);
            try (H2Matrix a = levelKernels(() -> H2Matrix.build(rows, cols, k, H2Options.defaults().withLeafSize(40).withOrder(6).withDevice(device)))) {
                assertTrue(a.usesGemm(nv) && !a.usesGemm(1));
                double[] y = a.multiply(x, nv);
                double err = relativeError(y, want);
                assertTrue(err < 1e-5, "nv " + nv + ": relative error " + err + " of " + a);
                for (int c : new int[] {0, nv - 1}) {
                    double[] x1 = new double[cols.size()];
                    for (int j = 0; j < x1.length; j++) x1[j] = x[j * nv + c];
                    double[] one = a.multiply(x1);
                    for (int i = 0; i < one.length; i++) assertEquals(one[i], y[i * nv + c], 1e-11 * (1 + Math.abs(one[i])), "row " + i);
                }
                a.compress(1e-6);
                assertTrue(relativeError(a.multiply(x, nv), want) < err + 1e-5);
            }
        }
    }

    /** The timed product (dense part on the side queue, no host transfers) runs and reports a positive device time. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void overlappedProductIsTimedAndLeavesTheResultRight(Device device) {
        PointCloud pts = PointCloud.perturbedGrid(2500, 2, 30L);
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        double[] x = random(pts.size(), 31L);
        double[] want = denseProduct(pts, pts, k, x, 1);
        try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withDevice(device))) {
            double ms = a.productMillis(1, 3);
            assertTrue(ms > 0 && Double.isFinite(ms), "product time " + ms);
            for (int r = 0; r < 3; r++) assertTrue(relativeError(a.multiply(x), want) < 1e-7);
        }
    }

    /** Two point sets of different sizes (rectangular, separate row and column trees) against the dense product. */
    /**
     * Bases, transfers, couplings, dense blocks and the product's workspace live on the device only: no host memory on
     * OpenCL and CUDA (the JVM's device memory is the host's), while the product still matches the dense one; one and
     * many vectors (the tensor-core block-row kernel), two point sets.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void constructionAndProductKeepTheirArraysOnTheDeviceOnly(Device device) {
        PointCloud rows = PointCloud.uniform(1500, 3, 11L), cols = PointCloud.uniform(1100, 3, 12L);
        CovarianceKernel k = CovarianceKernel.exponential(0.3);
        double[] x = random(1100 * 16, 13L);
        double[] want = denseProduct(rows, cols, k, x, 16);
        try (H2Matrix a = H2Matrix.build(rows, cols, k, H2Options.defaults().withOrder(4).withLeafSize(32).withDevice(device))) {
            double[] x1 = new double[1100];
            for (int j = 0; j < x1.length; j++) x1[j] = x[j * 16];
            double[] want1 = denseProduct(rows, cols, k, x1, 1);
            double err1 = relativeError(a.multiply(x1), want1), err16 = relativeError(a.multiply(x, 16), want);
            assertTrue(err1 < 1e-3 && err16 < 1e-3, "relative errors " + err1 + ", " + err16 + " of " + a);
            boolean jvm = device.info().backend().equals("jvm");
            List<dev.squall.tasks.api.KernelArray> arrays = a.deviceComputedArrays();
            assertEquals(6 + 2 * 4, arrays.size());
            for (dev.squall.tasks.api.KernelArray arr : arrays) {
                assertTrue(arr.isDeviceOnly() && device.holds(arr), arr + " on " + device.id());
                assertEquals(jvm, arr.hasHostMemory(), arr + " host memory on " + device.id());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void twoPointSetsMatchTheDenseProduct(Device device) {
        PointCloud rows = PointCloud.uniform(2100, 2, 10L);
        PointCloud cols = PointCloud.perturbedGrid(900, 2, 11L);
        CovarianceKernel k = CovarianceKernel.gaussian(0.2);
        double[] x = random(cols.size(), 12L);
        double[] want = denseProduct(rows, cols, k, x, 1);
        try (H2Matrix a = H2Matrix.build(rows, cols, k, H2Options.defaults().withOrder(7).withLeafSize(40).withDevice(device))) {
            assertEquals(2100, a.rows());
            assertEquals(900, a.cols());
            assertTrue(a.rowDepth() != a.colDepth(), "trees of different depth: " + a.rowDepth() + ", " + a.colDepth());
            double[] y = a.multiply(x);
            assertEquals(2100, y.length);
            double err = relativeError(y, want);
            assertTrue(err < 1e-6, "relative error " + err + " of " + a);
        }
    }

    /**
     * Duplicate points, points on a line, fewer points than a leaf, and n not a multiple of the leaf size, with one
     * vector and with 16 vectors (the tensor-core block-row kernel).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void degeneratePointSetsWork(Device device) {
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        PointCloud grid = PointCloud.perturbedGrid(700, 2, 13L);
        double[] c = grid.coordinates();
        double[] twice = new double[2 * c.length];
        System.arraycopy(c, 0, twice, 0, c.length);
        System.arraycopy(c, 0, twice, c.length, c.length);
        double[] line = new double[2 * 900];
        for (int i = 0; i < 900; i++) line[2 * i] = (i * 7919 % 900) / 900.0;     // all y = 0, shuffled along x
        double[] same = new double[3 * 100];
        java.util.Arrays.fill(same, 0.25);                                          // 100 copies of one point
        PointCloud[] clouds = {PointCloud.of(2, twice), PointCloud.of(2, line), PointCloud.uniform(10, 3, 14L),
                PointCloud.uniform(1000, 2, 15L), PointCloud.of(3, same), PointCloud.uniform(1, 2, 16L)};
        for (PointCloud pts : clouds) {
            double[] x = random(pts.size(), 17L);
            double[] want = denseProduct(pts, pts, k, x, 1);
            int nv = H2Matrix.GEMM_MIN_VECTORS;
            double[] xs = random(pts.size() * nv, 18L);
            double[] wants = denseProduct(pts, pts, k, xs, nv);
            try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withDevice(device))) {
                double err = relativeError(a.multiply(x), want);
                assertTrue(err < 1e-7, "relative error " + err + " of " + a + " on " + pts);
                double errs = relativeError(a.multiply(xs, nv), wants);
                assertTrue(errs < 1e-7, nv + " vectors: relative error " + errs + " of " + a + " on " + pts);
            }
        }
    }

    @Test
    void badInputIsReportedClearly() {
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        H2Options o = H2Options.defaults().withDevice(Devices.jvm());
        PointCloud p2 = PointCloud.uniform(100, 2, 1L);
        message("no points", () -> H2Matrix.build(PointCloud.uniform(0, 2, 1L), k, o));
        message("leaf size must be between 2 and 4096", () -> H2Options.defaults().withLeafSize(1));
        message("leaf size must be between 2 and 4096", () -> H2Options.defaults().withLeafSize(5000));
        message("point 1 has a non-finite coordinate NaN", () -> H2Matrix.build(PointCloud.of(2, 0, 0, Double.NaN, 1), k, o));
        message("order must be at least 1", () -> H2Options.defaults().withOrder(0));
        message("eta must be positive", () -> H2Options.defaults().withEta(0));
        message("rank 4096", () -> H2Matrix.build(PointCloud.uniform(100, 3, 1L), k, o.withOrder(16)));
        message("dimensional", () -> H2Matrix.build(p2, PointCloud.uniform(10, 3, 1L), k, o));
        try (H2Matrix a = H2Matrix.build(p2, k, o)) {
            message("needs 100", () -> a.multiply(new double[99]));
            message("needs 200", () -> a.multiply(new double[100], 2));
            message("at least 1", () -> a.multiply(new double[0], 0));
            a.close();
            assertThrows(IllegalStateException.class, () -> a.multiply(new double[100]));
        }
    }

    private static void message(String part, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }

    @Test
    void memoryReportAddsUpItsParts() {
        PointCloud pts = PointCloud.perturbedGrid(2000, 2, 2L);
        try (H2Matrix a = H2Matrix.build(pts, CovarianceKernel.exponential(0.1), H2Options.defaults().withDevice(Devices.jvm()))) {
            H2Memory m = a.memory();
            assertEquals((long) a.couplingBlocks() * 64 * 64 * 8, m.coupling());
            assertEquals(2000L * 64 * 8, m.bases(), "one shared basis: 2000 points x rank 64");
            assertEquals((2L << a.rowDepth()) - 2, m.transfers() / (64 * 64 * 8), "one transfer matrix per node but the root");
            assertEquals(m.dense() + m.coupling() + m.bases() + m.transfers(), m.streamedBytes());
            assertTrue(m.dense() > 0 && m.structure() > 0 && m.workspacePerVector() > 0);
            assertEquals(m.streamedBytes() + m.structure() + m.workspacePerVector(), m.total());
            assertTrue(a.buildMillis() >= a.hostBuildMillis());
        }
    }
}
