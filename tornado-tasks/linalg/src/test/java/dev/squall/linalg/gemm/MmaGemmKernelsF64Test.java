package dev.squall.linalg.gemm;

import dev.squall.linalg.reference.ReferenceGemm;
import dev.squall.linalg.testing.Matrices;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link MmaGemmKernelsF64#gemmMmaAsync} (asyncCopy-staged, double-buffered panels) against the plain Java product,
 * with the cases {@code BatchedGemmTest} runs for {@link MmaGemmKernelsF64#gemmMma}: every transpose with edges that
 * are multiples of neither the tile nor the panel depth, lower-only C, and upper-triangular op(B) with NaN past the
 * tiles' reach. The kernel is launched here directly (it is not one that BatchedGemm picks).
 */
class MmaGemmKernelsF64Test {
    static List<Device> devices() {
        return TestDevices.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncKernelAllTransposes(Device device) {
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                int m = 150, n = 131, k = 37, batch = 2;
                double alpha = -1.25, beta = ta == tb ? 0 : 0.5;
                SplittableRandom rnd = new SplittableRandom(11 + m * 31L + (ta ? 7 : 0) + (tb ? 1 : 0));
                int lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 1, ldc = m + 2;
                int sa = lda * (ta ? m : k) + 5, sb = ldb * (tb ? k : n) + 2, sc = ldc * n + 7;
                double[] a = Matrices.random(rnd, sa * batch), b = Matrices.random(rnd, sb * batch), c0 = Matrices.random(rnd, sc * batch);
                if (beta == 0) java.util.Arrays.fill(c0, Double.NaN); // beta = 0 must not read C
                double[] expected = c0.clone();
                for (int e = 0; e < batch; e++) {
                    ReferenceGemm.gemm(ta, tb, m, n, k, alpha, a, e * sa, lda, b, e * sb, ldb, beta, expected, e * sc, ldc);
                }
                double[] got = run(device, ta, tb, alpha, a, b, beta, c0, BatchDescriptor.stridedWithLd(batch, m, n, k, sa, lda, sb, ldb, sc, ldc), 0);
                // padding between entries must be untouched; with beta = 0 it is NaN in both
                for (int i = 0; i < got.length; i++) if (Double.isNaN(expected[i]) && Double.isNaN(got[i])) got[i] = expected[i] = 0;
                Compare.close("gemmMmaAsync " + (ta ? "T" : "N") + (tb ? "T" : "N") + " on " + device.id(), expected, got, 1e-13 * k);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncKernelLowerOnly(Device device) {
        int n = 260, k = 20;
        SplittableRandom rnd = new SplittableRandom(5);
        double[] a = Matrices.random(rnd, n * k), c0 = Matrices.random(rnd, n * n);
        double[] expected = c0.clone();
        ReferenceGemm.gemm(false, true, n, n, k, -1, a, 0, n, a, 0, n, 1, expected, 0, n);
        double[] got = run(device, false, true, -1, a, a, 1, c0, BatchDescriptor.stridedWithLd(1, n, n, k, 0, n, 0, n, 0, n),
                MmaGemmKernelsF64.LOWER_C);
        // tiles entirely above the diagonal (rows 0..127, columns 256..259) are skipped: C keeps its input there
        assertEquals(c0[5 + 258 * n], got[5 + 258 * n], "a skipped tile is not written");
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < j; i++) expected[i + j * n] = got[i + j * n] = 0; // above the diagonal: scratch
        }
        Compare.close("lower-only gemmMmaAsync on " + device.id(), expected, got, 1e-13 * k);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncKernelUpperTriangularB(Device device) {
        int m = 40, n = 260, tile = MmaGemmKernelsF64.TILE;
        SplittableRandom rnd = new SplittableRandom(9);
        double[] a = Matrices.random(rnd, m * n), b = Matrices.random(rnd, n * n), c0 = Matrices.random(rnd, m * n);
        for (int col = 0; col < n; col++) {
            for (int p = col + 1; p < n; p++) b[col + p * n] = 0; // op(B)(p, col) = B(col, p)
        }
        double[] expected = c0.clone();
        ReferenceGemm.gemm(false, true, m, n, n, 0.5, a, 0, m, b, 0, n, -1, expected, 0, m);
        // NaN past the reach of each column block: the sum of a tile must stop at its last column
        double[] bt = b.clone();
        for (int col = 0; col < n; col++) {
            for (int p = (col / tile + 1) * tile; p < n; p++) bt[col + p * n] = Double.NaN;
        }
        double[] got = run(device, false, true, 0.5, a, bt, -1, c0, BatchDescriptor.stridedWithLd(1, m, n, n, 0, m, 0, n, 0, m),
                MmaGemmKernelsF64.UPPER_B);
        Compare.close("upper-B gemmMmaAsync on " + device.id(), expected, got, 1e-13 * n);
    }

    /** Runs gemmMmaAsync on {@code device} over its grid (a group of THREADS per tile of C per entry); returns C. */
    private static double[] run(Device device, boolean ta, boolean tb, double alpha, double[] a, double[] b, double beta, double[] c,
                                BatchDescriptor d, int shape) {
        int tile = MmaGemmKernelsF64.TILE;
        int tilesM = (d.maxM() + tile - 1) / tile, tilesN = (d.maxN() + tile - 1) / tile;
        DoubleArray da = DoubleArray.fromArray(a), db = DoubleArray.fromArray(b), dc = DoubleArray.fromArray(c);
        IntArray desc = d.toIntArray();
        TaskGraph g = new TaskGraph("mmaAsync").transferToDevice(DataTransferMode.EVERY_EXECUTION, da, db, dc, desc)
                .task("gemm", MmaGemmKernelsF64::gemmMmaAsync, new KernelContext(), da, db, dc, desc, alpha, beta, ta ? 1 : 0, tb ? 1 : 0,
                        shape, tilesM, tilesN)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, dc);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            plan.withGrid("gemm", WorkerGrid.of((long) d.count() * tilesM * tilesN * MmaGemmKernelsF64.THREADS)
                    .withLocal(MmaGemmKernelsF64.THREADS)).execute();
        }
        return dc.toHeapArray();
    }
}
