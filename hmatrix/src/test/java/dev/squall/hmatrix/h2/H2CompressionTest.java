package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class H2CompressionTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Compression at eps changes the product by O(eps), lowers the ranks, and never increases memory. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void productChangesByOrderEpsAndMemoryShrinks(Device device) {
        PointCloud pts = PointCloud.perturbedGrid(2048, 2, 3L);
        CovarianceKernel k = CovarianceKernel.exponential(0.1);
        double[] x = H2MatrixTest.random(pts.size(), 5L);
        double[] exact = H2MatrixTest.denseProduct(pts, pts, k, x, 1);
        double[] change = new double[2];
        double[] eps = {1e-3, 1e-6};
        for (int i = 0; i < 2; i++) {
            try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withDevice(device))) {
                double[] y0 = a.multiply(x);
                H2CompressionReport r = a.compress(eps[i]);
                double[] y1 = a.multiply(x);
                change[i] = H2MatrixTest.relativeError(y1, y0);
                assertTrue(change[i] < 10 * eps[i], "eps " + eps[i] + ": product changed by " + change[i]);
                assertTrue(H2MatrixTest.relativeError(y1, exact) < H2MatrixTest.relativeError(y0, exact) + 10 * eps[i]);
                H2Memory m0 = r.memoryBefore(), m1 = r.memoryAfter();
                assertTrue(m1.total() < m0.total() && m1.bases() <= m0.bases() && m1.transfers() <= m0.transfers()
                        && m1.coupling() < m0.coupling(), m0 + " -> " + m1);
                assertEquals(m0.dense(), m1.dense());
                assertEquals(m1.total(), a.memory().total());
                for (int rank : r.rowRanks()) assertTrue(rank < 64, Arrays.toString(r.rowRanks()));
                assertTrue(r.rowRanks()[a.rowDepth()] > 0, "leaves keep a basis: " + Arrays.toString(r.rowRanks()));
                assertTrue(r.relativeErrorEstimate() > 0 && r.relativeErrorEstimate() < 10 * eps[i], "estimate " + r.relativeErrorEstimate());
                // a second compression at the same tolerance keeps what the first left, to about eps again
                H2CompressionReport again = a.compress(eps[i]);
                assertTrue(again.memoryAfter().total() <= again.memoryBefore().total());
                for (int l = 0; l < r.rowRanks().length; l++) {
                    assertTrue(again.rowRanks()[l] <= r.rowRanks()[l], "level " + l + ": " + Arrays.toString(r.rowRanks()) + " -> "
                            + Arrays.toString(again.rowRanks()));
                }
                assertTrue(H2MatrixTest.relativeError(a.multiply(x), y1) < 10 * eps[i]);
            }
        }
        assertTrue(change[1] < 1e-2 * change[0], "a tighter tolerance changes the product less: " + Arrays.toString(change));
    }

    /**
     * After compression each node keeps its own rank (ranks differ within a level): every coupling block is stored at
     * its two nodes' ranks, so the couplings' memory is the sum of those products; the product stays within O(eps) of
     * the one before and of the dense product, for a shared basis (2D) and two point sets (3D), and a second compression
     * (blocks padded back to the levels' ranks first) keeps it there.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void ranksVaryWithinLevelsAndCouplingsShrinkToThem(Device device) {
        for (int c = 0; c < 2; c++) {
            PointCloud rp = c == 0 ? PointCloud.perturbedGrid(3000, 2, 41L) : PointCloud.uniform(1400, 3, 42L);
            PointCloud cp = c == 0 ? rp : PointCloud.uniform(1100, 3, 43L);
            CovarianceKernel k = c == 0 ? CovarianceKernel.exponential(0.1) : CovarianceKernel.gaussian(0.4);
            H2Options o = H2Options.defaults().withLeafSize(c == 0 ? 48 : 40).withOrder(c == 0 ? 7 : 4).withDevice(device);
            double eps = c == 0 ? 1e-4 : 1e-3;
            double[] x = H2MatrixTest.random(cp.size(), 44L + c);
            double[] exact = H2MatrixTest.denseProduct(rp, cp, k, x, 1);
            try (H2Matrix a = c == 0 ? H2Matrix.build(rp, k, o) : H2Matrix.build(rp, cp, k, o)) {
                double[] y0 = a.multiply(x);
                H2CompressionReport r = a.compress(eps);
                String what = (c == 0 ? "2D shared" : "3D two sets") + " on " + device.id();
                int[] rowRank = a.rowNodeRanks(), colRank = a.colNodeRanks();
                boolean varies = false;
                for (int t = 1; t < rowRank.length; t++) {
                    int l = ClusterTree.level(t);
                    assertTrue(rowRank[t] <= r.rowRanks()[l], what + ": node " + t + " rank " + rowRank[t] + " above its level's");
                    if (ClusterTree.level(t - 1) == l && rowRank[t] != rowRank[t - 1]) varies = true;
                }
                assertTrue(varies, what + ": every level kept one rank " + Arrays.toString(r.rowRanks()));
                long values = 0;
                for (int b = 0; b < a.couplingBlocks(); b++) values += (long) rowRank[a.couplingRow(b)] * colRank[a.couplingCol(b)];
                assertEquals(8 * values, r.memoryAfter().coupling(), what);
                assertTrue(r.memoryAfter().total() < r.memoryBefore().total(), what);
                double[] y1 = a.multiply(x);
                assertTrue(H2MatrixTest.relativeError(y1, y0) < 10 * eps, what + ": product changed by " + H2MatrixTest.relativeError(y1, y0));
                assertTrue(H2MatrixTest.relativeError(y1, exact) < H2MatrixTest.relativeError(y0, exact) + 10 * eps, what);
                H2CompressionReport again = a.compress(eps);
                assertTrue(again.memoryAfter().total() <= r.memoryAfter().total() * 1.001, what + ": " + r.memoryAfter() + " -> " + again.memoryAfter());
                assertTrue(H2MatrixTest.relativeError(a.multiply(x), y1) < 10 * eps, what);
            }
        }
    }

    /**
     * The coupling projections run as linalg batched GEMMs, or as the 64-bit-offset kernels where offsets exceed
     * the GEMM's int range (forced here), each with the intermediate products formed all at once or a few blocks at a
     * time, and the GEMMs on runs of blocks copied to and from chunk-sized arrays, or as one launch of the fused
     * per-block kernel (the default): all give the same compressed product, and it is within O(eps) of the dense
     * product; the report counts the projection flops and their device time.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void gemmAndKernelProjectionsAgree(Device device) {
        PointCloud rows = PointCloud.uniform(1300, 2, 40L);
        PointCloud cols = PointCloud.perturbedGrid(800, 2, 41L);
        CovarianceKernel k = CovarianceKernel.matern52(0.2);
        double[] x = H2MatrixTest.random(cols.size(), 42L);
        double[] exact = H2MatrixTest.denseProduct(rows, cols, k, x, 1);
        double[][] y = new double[6][];
        long chunk = CouplingProjection.chunkValues;
        for (int i = 0; i < 6; i++) {
            CouplingProjection.fused = i == 5;
            CouplingProjection.forceKernels = i % 2 == 1 && i < 5;
            CouplingProjection.forceCopy = i == 4; // runs of blocks copied in and out, as past the int offsets
            CouplingProjection.chunkValues = i < 2 ? chunk : 7000; // ~2 to 5 blocks of W at a time
            try (H2Matrix a = H2Matrix.build(rows, cols, k, H2Options.defaults().withLeafSize(50).withOrder(6).withDevice(device))) {
                double before = H2MatrixTest.relativeError(a.multiply(x), exact);
                H2CompressionReport r = a.compress(1e-6);
                assertEquals(i % 2 == 0 && i < 5, r.projectionGemm());
                assertTrue(r.projectionFlops() > 0 && r.projectionGflops() > 0, r.toString());
                assertTrue(r.stepMillis().keySet().containsAll(List.of("orthogonalise", "project-orthogonal", "truncate", "project-truncated")));
                y[i] = a.multiply(x);
                assertTrue(H2MatrixTest.relativeError(y[i], exact) < before + 1e-5);
            } finally {
                CouplingProjection.fused = true;
                CouplingProjection.forceKernels = false;
                CouplingProjection.forceCopy = false;
                CouplingProjection.chunkValues = chunk;
            }
        }
        for (int i = 1; i < 6; i++) {
            assertTrue(H2MatrixTest.relativeError(y[i], y[0]) < 1e-12, "projection " + i + " differs from the GEMM one by "
                    + H2MatrixTest.relativeError(y[i], y[0]));
        }
    }

    /**
     * Compression with every batch on the device (batched QRs, Gram matrices, batched SVDs) gives what the host's
     * per-node factorisations of the stacked weights give: the same ranks per level and memory, the same error
     * estimate to 1%, and the same compressed product to well within the tolerance; a shared basis (2D, leaves of
     * uneven size) and two point sets (3D, separate row and column bases), two tolerances.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void deviceFactorisationsMatchTheHostOnes(Device device) {
        PointCloud grid = PointCloud.perturbedGrid(1900, 2, 21L);
        PointCloud rows = PointCloud.uniform(1200, 3, 22L), cols = PointCloud.uniform(900, 3, 23L);
        double[] eps = {1e-3, 1e-7};
        for (int c = 0; c < 2; c++) {
            PointCloud rp = c == 0 ? grid : rows, cp = c == 0 ? grid : cols;
            CovarianceKernel k = c == 0 ? CovarianceKernel.exponential(0.1) : CovarianceKernel.gaussian(0.3);
            H2Options o = H2Options.defaults().withLeafSize(c == 0 ? 45 : 40).withOrder(c == 0 ? 7 : 4).withDevice(device);
            double[] x = H2MatrixTest.random(cp.size(), 24L + c);
            H2CompressionReport[] r = new H2CompressionReport[2];
            double[][] y = new double[2][];
            long weightBatch = H2Compression.weightBatchValues;
            for (int h = 0; h < 2; h++) {
                H2Matrix.hostFactorisations = h == 1;
                if (c == 1) H2Compression.weightBatchValues = 60_000; // the weights' QRs in several batches
                try (H2Matrix a = c == 0 ? H2Matrix.build(rp, k, o) : H2Matrix.build(rp, cp, k, o)) {
                    r[h] = a.compress(eps[c]);
                    y[h] = a.multiply(x);
                } finally {
                    H2Matrix.hostFactorisations = false;
                    H2Compression.weightBatchValues = weightBatch;
                }
            }
            String what = (c == 0 ? "shared 2D" : "two 3D sets") + " at " + eps[c] + " on " + device.id();
            assertTrue(Arrays.stream(r[0].rowRanks()).max().getAsInt() < (c == 0 ? 49 : 64), what + ": ranks fell " + Arrays.toString(r[0].rowRanks()));
            assertEquals(Arrays.toString(r[1].rowRanks()), Arrays.toString(r[0].rowRanks()), what);
            assertEquals(Arrays.toString(r[1].colRanks()), Arrays.toString(r[0].colRanks()), what);
            assertEquals(r[1].memoryAfter().total(), r[0].memoryAfter().total(), what);
            assertTrue(r[0].memoryAfter().total() <= r[0].memoryBefore().total(), what);
            // the device works through Gram matrices, whose rounding blurs singular values below ~1e-8 of a node's largest
            assertEquals(r[1].relativeErrorEstimate(), r[0].relativeErrorEstimate(), 1e-2 * r[1].relativeErrorEstimate() + 1e-14, what);
            double diff = H2MatrixTest.relativeError(y[0], y[1]);
            assertTrue(diff < 0.1 * eps[c], what + ": device and host compressions differ by " + diff);
        }
    }

    /**
     * The Gram matrices of the block rows as batched GEMMs (a shared basis counting its row part twice, the symmetric
     * matrix's column part being the same), as the per-entry kernel over block rows and columns, and as the kernel
     * staging each block in local memory give the same ranks, estimate and compressed product.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void gramGemmAndKernelAgree(Device device) {
        PointCloud pts = PointCloud.uniform(1500, 3, 31L);
        CovarianceKernel k = CovarianceKernel.matern32(0.3);
        double[] x = H2MatrixTest.random(pts.size(), 32L);
        double[][] y = new double[3][];
        H2CompressionReport[] r = new H2CompressionReport[3];
        for (int i = 0; i < 3; i++) {
            DeviceCompression.gramByGemm = i == 0;
            DeviceCompression.gramLocal = i == 2;
            try (H2Matrix a = H2Matrix.build(pts, k, H2Options.defaults().withLeafSize(30).withOrder(4).withDevice(device))) {
                r[i] = a.compress(1e-5);
                y[i] = a.multiply(x);
            } finally {
                DeviceCompression.gramByGemm = true;
                DeviceCompression.gramLocal = true;
            }
        }
        assertEquals(Arrays.toString(r[1].rowRanks()), Arrays.toString(r[0].rowRanks()));
        assertEquals(Arrays.toString(r[2].rowRanks()), Arrays.toString(r[0].rowRanks()));
        assertEquals(r[2].relativeErrorEstimate(), r[0].relativeErrorEstimate(), 1e-5 * r[0].relativeErrorEstimate());
        assertTrue(H2MatrixTest.relativeError(y[0], y[2]) < 1e-10, "local kernel differs by " + H2MatrixTest.relativeError(y[0], y[2]));
        // the estimate sums discarded eigenvalues near eps^2 of a node's largest, which carry the Gram matrices' rounding
        // (about 1e-16 of the largest): relative differences of about 1e-16 / eps^2 = 1e-6 between the two sums
        assertEquals(r[1].relativeErrorEstimate(), r[0].relativeErrorEstimate(), 1e-5 * r[1].relativeErrorEstimate());
        assertTrue(H2MatrixTest.relativeError(y[0], y[1]) < 1e-10, "differ by " + H2MatrixTest.relativeError(y[0], y[1]));
    }

    /** Separate row and column bases (two point sets) compress each on its own weights. */
    @Test
    void twoPointSetsCompress() {
        PointCloud rows = PointCloud.uniform(1500, 2, 10L);
        PointCloud cols = PointCloud.perturbedGrid(700, 2, 11L);
        CovarianceKernel k = CovarianceKernel.matern32(0.15);
        double[] x = H2MatrixTest.random(cols.size(), 12L);
        double[] exact = H2MatrixTest.denseProduct(rows, cols, k, x, 1);
        try (H2Matrix a = H2Matrix.build(rows, cols, k, H2Options.defaults().withLeafSize(40).withDevice(Devices.jvm()))) {
            double before = H2MatrixTest.relativeError(a.multiply(x), exact);
            H2CompressionReport r = a.compress(1e-5);
            double after = H2MatrixTest.relativeError(a.multiply(x), exact);
            assertTrue(after < before + 1e-4, before + " -> " + after);
            assertEquals(a.rowDepth() + 1, r.rowRanks().length);
            assertEquals(a.colDepth() + 1, r.colRanks().length);
            assertTrue(r.memoryAfter().total() < r.memoryBefore().total());
        }
    }

    @Test
    void rejectsBadTolerance() {
        try (H2Matrix a = H2Matrix.build(PointCloud.uniform(300, 2, 1L), CovarianceKernel.exponential(0.1),
                H2Options.defaults().withDevice(Devices.jvm()))) {
            assertThrows(IllegalArgumentException.class, () -> a.compress(0));
            assertThrows(IllegalArgumentException.class, () -> a.compress(1));
            assertThrows(IllegalArgumentException.class, () -> a.compress(Double.NaN));
        }
    }
}
