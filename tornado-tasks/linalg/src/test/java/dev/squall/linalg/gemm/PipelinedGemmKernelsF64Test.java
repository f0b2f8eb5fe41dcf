package dev.squall.linalg.gemm;

import dev.squall.linalg.reference.ReferenceGemm;
import dev.squall.linalg.testing.Matrices;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.KernelFunctions;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link PipelinedGemmKernelsF64} (both warp layouts, 2 to 4 stages) against the plain Java product: every transpose
 * with sizes that are multiples of neither the tile, the panel depth nor the 16-byte chunk (odd leading dimensions and
 * offsets take the element-wise copy, even ones the chunked copy), more panels than stages and fewer, lower-only C,
 * upper-triangular op(B) with NaN past the tiles' reach, and the {@link BatchedGemm} launch of each CLI variant.
 */
class PipelinedGemmKernelsF64Test {
    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            // devices with less local memory are refused by BatchedGemm (batchedGemmLaunchesEachVariant checks that)
            if (!PipelinedGemmKernelsF64.fits(d)) continue;
            out.add(Arguments.of(d, 8, 3, "pipe"));
            out.add(Arguments.of(d, 16, 4, "pipe"));
            out.add(Arguments.of(d, 8, 2, "pipe"));
            out.add(Arguments.of(d, 8, 3, "chunk"));
            out.add(Arguments.of(d, 16, 2, "chunk"));
            if (PipelinedGemmKernelsF64.fits(d, PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) {
                out.add(Arguments.of(d, 16, 3, "deep"));
                out.add(Arguments.of(d, 8, 3, "deep"));
                out.add(Arguments.of(d, 8, 2, "deep"));
                // 3 groups looping over every tile (a persistent launch)
                out.add(Arguments.of(d, 8, 3, "deep-grid3"));
                out.add(Arguments.of(d, 8, 2, "deep-grid3"));
            }
        }
        return out;
    }

    static List<Device> devices() {
        return TestDevices.all();
    }

    @ParameterizedTest(name = "{0} {3} warps={1} stages={2}")
    @MethodSource("cases")
    void allTransposesWithRaggedEdges(Device device, int warps, int stages, String kind) {
        // k = 37: 3 panels (the last one 5 deep); k = 70: 5 panels, more than any pipeline holds
        for (int k : new int[] {37, 70}) {
            for (boolean ta : new boolean[] {false, true}) {
                for (boolean tb : new boolean[] {false, true}) {
                    int m = 150, n = 131, batch = 2;
                    double alpha = -1.25, beta = ta == tb ? 0 : 0.5;
                    // even padding (16-byte aligned runs) for k = 70, odd for k = 37
                    int pad = k == 70 ? 2 : 3;
                    SplittableRandom rnd = new SplittableRandom(11 + m * 31L + k + (ta ? 7 : 0) + (tb ? 1 : 0));
                    int lda = (ta ? k : m) + pad, ldb = (tb ? n : k) + pad, ldc = m + 2;
                    int sa = lda * (ta ? m : k) + pad * 2, sb = ldb * (tb ? k : n) + pad, sc = ldc * n + 7;
                    double[] a = Matrices.random(rnd, sa * batch), b = Matrices.random(rnd, sb * batch), c0 = Matrices.random(rnd, sc * batch);
                    if (beta == 0) Arrays.fill(c0, Double.NaN); // beta = 0 must not read C
                    double[] expected = c0.clone();
                    for (int e = 0; e < batch; e++) {
                        ReferenceGemm.gemm(ta, tb, m, n, k, alpha, a, e * sa, lda, b, e * sb, ldb, beta, expected, e * sc, ldc);
                    }
                    double[] got = run(device, warps, stages, kind, ta, tb, alpha, a, b, beta, c0,
                            BatchDescriptor.stridedWithLd(batch, m, n, k, sa, lda, sb, ldb, sc, ldc), 0);
                    for (int i = 0; i < got.length; i++) if (Double.isNaN(expected[i]) && Double.isNaN(got[i])) got[i] = expected[i] = 0;
                    Compare.close(kind + " w" + warps + " s" + stages + " " + (ta ? "T" : "N") + (tb ? "T" : "N") + " k=" + k + " on " + device.id(),
                            expected, got, 1e-13 * k);
                }
            }
        }
    }

    /**
     * Even offsets and leading dimensions (every chunk 16-byte aligned, so the chunked kernels copy by chunks
     * throughout) with odd m and n (half-filled chunks at the tile edges) and k not a multiple of the panel: every
     * transpose, signs and magnitudes mixed, against the plain product.
     */
    @ParameterizedTest(name = "{0} {3} warps={1} stages={2}")
    @MethodSource("cases")
    void alignedOperandsWithOddEdges(Device device, int warps, int stages, String kind) {
        for (int k : new int[] {45, 81}) {
            for (boolean ta : new boolean[] {false, true}) {
                for (boolean tb : new boolean[] {false, true}) {
                    int m = 151, n = 133, batch = 2;
                    double alpha = 0.75, beta = ta ? -2 : 0;
                    SplittableRandom rnd = new SplittableRandom(3 + k * 17L + (ta ? 5 : 0) + (tb ? 2 : 0));
                    int lda = even(ta ? k : m), ldb = even(tb ? n : k), ldc = m;
                    int sa = even(lda * (ta ? m : k) + 3), sb = even(ldb * (tb ? k : n) + 1), sc = ldc * n + 1;
                    double[] a = Matrices.random(rnd, sa * batch), b = Matrices.random(rnd, sb * batch), c0 = Matrices.random(rnd, sc * batch);
                    for (int i = 0; i < a.length; i += 7) a[i] *= -1e3; // mixed signs and magnitudes
                    double[] expected = c0.clone();
                    for (int e = 0; e < batch; e++) {
                        ReferenceGemm.gemm(ta, tb, m, n, k, alpha, a, e * sa, lda, b, e * sb, ldb, beta, expected, e * sc, ldc);
                    }
                    double[] got = run(device, warps, stages, kind, ta, tb, alpha, a, b, beta, c0,
                            BatchDescriptor.stridedWithLd(batch, m, n, k, sa, lda, sb, ldb, sc, ldc), 0);
                    Compare.close(kind + " w" + warps + " s" + stages + " aligned " + (ta ? "T" : "N") + (tb ? "T" : "N")
                            + " k=" + k + " on " + device.id(), expected, got, 1e-10 * k);
                }
            }
        }
    }

    private static int even(int x) {
        return x + (x & 1);
    }

    /**
     * Entries of different m, n and k in one launch, NN, operands and results at offsets inside shared arrays (the shape
     * of the triangular inverse's rounds): groups past an entry's own tiles must do nothing, each entry its own edges.
     */
    @ParameterizedTest(name = "{0} {3} warps={1} stages={2}")
    @MethodSource("cases")
    void entriesOfDifferentSizes(Device device, int warps, int stages, String kind) {
        int[] m = {130, 40, 257}, n = {129, 200, 3}, k = {70, 33, 96};
        int[] aOff = new int[3], lda = new int[3], bOff = new int[3], ldb = new int[3], cOff = new int[3], ldc = new int[3];
        int sa = 0, sb = 0, sc = 0;
        for (int e = 0; e < 3; e++) {
            lda[e] = m[e] + 2 * e;
            ldb[e] = k[e] + 1;
            ldc[e] = m[e] + 4;
            aOff[e] = sa;
            bOff[e] = sb;
            cOff[e] = sc;
            sa += lda[e] * k[e] + 3;
            sb += ldb[e] * n[e] + 2;
            sc += ldc[e] * n[e] + 5;
        }
        SplittableRandom rnd = new SplittableRandom(21);
        double[] a = Matrices.random(rnd, sa), b = Matrices.random(rnd, sb), c0 = Matrices.random(rnd, sc);
        double[] expected = c0.clone();
        for (int e = 0; e < 3; e++) {
            ReferenceGemm.gemm(false, false, m[e], n[e], k[e], -1, a, aOff[e], lda[e], b, bOff[e], ldb[e], 0.25, expected, cOff[e], ldc[e]);
        }
        double[] got = run(device, warps, stages, kind, false, false, -1, a, b, 0.25, c0, BatchDescriptor.variable(m, n, k, aOff, lda, bOff, ldb, cOff, ldc), 0);
        Compare.close(kind + " w" + warps + " s" + stages + " variable entries on " + device.id(), expected, got, 1e-13 * 96);
    }

    @ParameterizedTest(name = "{0} {3} warps={1} stages={2}")
    @MethodSource("cases")
    void lowerOnly(Device device, int warps, int stages, String kind) {
        int n = 260, k = 20;
        SplittableRandom rnd = new SplittableRandom(5);
        double[] a = Matrices.random(rnd, n * k), c0 = Matrices.random(rnd, n * n);
        double[] expected = c0.clone();
        ReferenceGemm.gemm(false, true, n, n, k, -1, a, 0, n, a, 0, n, 1, expected, 0, n);
        double[] got = run(device, warps, stages, kind, false, true, -1, a, a, 1, c0, BatchDescriptor.stridedWithLd(1, n, n, k, 0, n, 0, n, 0, n),
                MmaGemmKernelsF64.LOWER_C);
        assertEquals(c0[5 + 258 * n], got[5 + 258 * n], "a skipped tile is not written");
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < j; i++) expected[i + j * n] = got[i + j * n] = 0; // above the diagonal: scratch
        }
        Compare.close("lower-only pipelined on " + device.id(), expected, got, 1e-13 * k);
    }

    @ParameterizedTest(name = "{0} {3} warps={1} stages={2}")
    @MethodSource("cases")
    void upperTriangularB(Device device, int warps, int stages, String kind) {
        int m = 40, n = 260, tile = PipelinedGemmKernelsF64.TILE;
        SplittableRandom rnd = new SplittableRandom(9);
        double[] a = Matrices.random(rnd, m * n), b = Matrices.random(rnd, n * n), c0 = Matrices.random(rnd, m * n);
        for (int col = 0; col < n; col++) {
            for (int p = col + 1; p < n; p++) b[col + p * n] = 0; // op(B)(p, col) = B(col, p)
        }
        double[] expected = c0.clone();
        ReferenceGemm.gemm(false, true, m, n, n, 0.5, a, 0, m, b, 0, n, -1, expected, 0, m);
        double[] bt = b.clone();
        for (int col = 0; col < n; col++) {
            for (int p = (col / tile + 1) * tile; p < n; p++) bt[col + p * n] = Double.NaN;
        }
        double[] got = run(device, warps, stages, kind, false, true, 0.5, a, bt, -1, c0, BatchDescriptor.stridedWithLd(1, m, n, n, 0, m, 0, n, 0, m),
                MmaGemmKernelsF64.UPPER_B);
        Compare.close("upper-B pipelined on " + device.id(), expected, got, 1e-13 * n);
    }

    /**
     * The depth-split last wave ({@link BatchedGemm#appendPipelined} with a unit count): 300 x 260 x 700 on 8 units (9
     * tiles: the last, ragged one in 2 slices) and 390 x 390 x 1100 on 14 units (16 tiles: the last 2 in 4 slices, the
     * last slice shorter), every transpose, odd leading dimensions, alpha and beta (beta = 0 with NaN in C: not read),
     * against the plain product; the split is asserted to happen.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void splitLastWave(Device device) {
        if (!PipelinedGemmKernelsF64.fits(device, PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) {
            DoubleArray x = new DoubleArray(300 * 700);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BatchedGemm.appendPipelined(
                    new dev.squall.linalg.plan.LaunchSequence("split", device), Transpose.N, Transpose.N, 1, x, x, 0, x,
                    BatchDescriptor.stridedWithLd(1, 300, 300, 300, 0, 300, 0, 300, 0, 300), false, false, GemmKernel.CHUNK_W8_D32_S3, 0, 8));
            assertTrue(e.getMessage().contains("need 216 KiB of local memory"), e.getMessage());
            return;
        }
        int[][] shapes = {{300, 260, 700, 8, 2}, {390, 390, 1100, 14, 4}};
        for (int[] sh : shapes) {
            int m = sh[0], n = sh[1], k = sh[2], units = sh[3];
            int tiles = ((m + 127) / 128) * ((n + 127) / 128);
            assertEquals(sh[4], BatchedGemm.tailSlices(tiles, k, units), "slices of " + m + "x" + n + "x" + k + " on " + units + " units");
            for (boolean ta : new boolean[] {false, true}) {
                for (boolean tb : new boolean[] {false, true}) {
                    GemmKernel kernel = GemmKernel.CHUNK_W8_D32_S3;
                    double alpha = ta ? -0.5 : 1.5, beta = tb ? 0.25 : 0;
                    int lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 1, ldc = m + 5;
                    SplittableRandom rnd = new SplittableRandom(m * 7L + k + (ta ? 1 : 0) + (tb ? 2 : 0));
                    double[] a = Matrices.random(rnd, lda * (ta ? m : k)), b = Matrices.random(rnd, ldb * (tb ? k : n)), c0 = Matrices.random(rnd, ldc * n);
                    for (int i = 0; i < a.length; i += 5) a[i] *= -1e2; // mixed signs and magnitudes
                    if (beta == 0) Arrays.fill(c0, Double.NaN);
                    double[] expected = c0.clone();
                    ReferenceGemm.gemm(ta, tb, m, n, k, alpha, a, 0, lda, b, 0, ldb, beta, expected, 0, ldc);
                    DoubleArray da = DoubleArray.fromArray(a), db = DoubleArray.fromArray(b), dc = DoubleArray.fromArray(c0);
                    dev.squall.linalg.plan.LaunchSequence seq = new dev.squall.linalg.plan.LaunchSequence("split", device);
                    seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, da, db, dc);
                    BatchedGemm.appendPipelined(seq, ta ? Transpose.T : Transpose.N, tb ? Transpose.T : Transpose.N, alpha, da, db, beta, dc,
                            BatchDescriptor.stridedWithLd(1, m, n, k, 0, lda, 0, ldb, 0, ldc), false, false, kernel, 0, units);
                    try (ExecutionPlan plan = seq.plan(device)) {
                        plan.execute().transferToHost(dc);
                    }
                    double[] got = dc.toHeapArray();
                    for (int i = 0; i < got.length; i++) if (Double.isNaN(expected[i]) && Double.isNaN(got[i])) got[i] = expected[i] = 0;
                    Compare.close(kernel.cliName() + " split " + (ta ? "T" : "N") + (tb ? "T" : "N") + " " + m + "x" + n + "x" + k + " on " + device.id(),
                            expected, got, 1e-11 * k);
                }
            }
        }
        assertEquals(0, BatchedGemm.tailSlices(4096, 8192, 4096), "whole waves: no split");
        assertEquals(32, BatchedGemm.tailSlices(4096, 8192, 132), "8192^3 on 132 units: the last 4 tiles in 32 slices");
        assertEquals(0, BatchedGemm.tailSlices(100, 8192, 132), "fewer tiles than units: no split");
        assertEquals(0, BatchedGemm.tailSlices(4096 + 60, 8192, 132), "a last wave over a quarter of the units: no split");
    }

    /**
     * Every pipelined CLI variant through {@link BatchedGemm#append}, NN and NT, against the plain product; on a device
     * without the local memory (NVIDIA's OpenCL: 48 KiB) the append is refused with the sizes named.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void batchedGemmLaunchesEachVariant(Device device) {
        int m = 136, n = 129, k = 50;
        if (!PipelinedGemmKernelsF64.fits(device)) {
            DoubleArray x = new DoubleArray(m * m); // room for the m x m operands, so only the local-memory check can refuse
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BatchedGemm.append(
                    new dev.squall.linalg.plan.LaunchSequence("pipe", device), Transpose.N, Transpose.N, 1, x, x, 0, x,
                    BatchDescriptor.stridedWithLd(1, m, m, m, 0, m, 0, m, 0, m), false, false, GemmKernel.PIPE_W8_S3));
            assertTrue(e.getMessage().contains("need 160 KiB of local memory; " + device.id() + " has"), e.getMessage());
            return;
        }
        for (GemmKernel kernel : GemmKernel.values()) {
            if (!kernel.pipelined()) continue;
            if (kernel.deep() && !PipelinedGemmKernelsF64.fits(device, PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) {
                DoubleArray x = new DoubleArray(m * m); // room for the m x m operands, so only the local-memory check can refuse
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BatchedGemm.append(
                        new dev.squall.linalg.plan.LaunchSequence("pipe", device), Transpose.N, Transpose.N, 1, x, x, 0, x,
                        BatchDescriptor.stridedWithLd(1, m, m, m, 0, m, 0, m, 0, m), false, false, kernel));
                assertTrue(e.getMessage().contains("need 216 KiB of local memory"), e.getMessage());
                continue;
            }
            for (boolean tb : new boolean[] {false, true}) {
                SplittableRandom rnd = new SplittableRandom(kernel.ordinal() * 2L + (tb ? 1 : 0));
                int ldb = tb ? n : k;
                double[] a = Matrices.random(rnd, m * k), b = Matrices.random(rnd, k * n);
                double[] expected = new double[m * n];
                ReferenceGemm.gemm(false, tb, m, n, k, 1, a, 0, m, b, 0, ldb, 0, expected, 0, m);
                DoubleArray da = DoubleArray.fromArray(a), db = DoubleArray.fromArray(b), dc = new DoubleArray(m * n);
                dev.squall.linalg.plan.LaunchSequence seq = new dev.squall.linalg.plan.LaunchSequence("pipe", device);
                seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, da, db);
                BatchedGemm.append(seq, Transpose.N, tb ? Transpose.T : Transpose.N, 1, da, db, 0, dc,
                        BatchDescriptor.stridedWithLd(1, m, n, k, 0, m, 0, ldb, 0, m), false, false, kernel);
                try (ExecutionPlan plan = seq.plan(device)) {
                    plan.execute().transferToHost(dc);
                }
                Compare.close(kernel.cliName() + (tb ? " NT" : " NN") + " on " + device.id(), expected, dc.toHeapArray(), 1e-13 * k);
            }
        }
    }

    private static double[] run(Device device, int warps, int stages, String kind, boolean ta, boolean tb, double alpha, double[] a, double[] b, double beta,
                                double[] c, BatchDescriptor d, int shape) {
        int tile = PipelinedGemmKernelsF64.TILE;
        int threads = warps == 16 ? PipelinedGemmKernelsF64.THREADS16 : PipelinedGemmKernelsF64.THREADS;
        int tilesM = (d.maxM() + tile - 1) / tile, tilesN = (d.maxN() + tile - 1) / tile;
        DoubleArray da = DoubleArray.fromArray(a), db = DoubleArray.fromArray(b), dc = DoubleArray.fromArray(c);
        IntArray desc = d.toIntArray();
        TaskGraph g = new TaskGraph("pipelined").transferToDevice(DataTransferMode.EVERY_EXECUTION, da, db, dc, desc);
        long slots = (long) d.count() * tilesM * tilesN, groups = slots;
        if (kind.startsWith("deep") && warps == 8) {
            // the 8-warp depth-32 kernels take the slot count; "-gridN": N groups loop over the tiles
            if (kind.contains("-grid")) groups = Math.min(slots, Integer.parseInt(kind.substring(kind.indexOf("-grid") + 5)));
            KernelFunctions.Task14<KernelContext, DoubleArray, DoubleArray, DoubleArray, IntArray, Double, Double, Integer, Integer, Integer, Integer, Integer, Integer, Integer> k =
                    PipelinedGemmKernelsF64::gemmChunkedDeep;
            g.task("gemm", k, new KernelContext(), da, db, dc, desc, alpha, beta, ta ? 1 : 0, tb ? 1 : 0, shape, tilesM, tilesN, stages, (int) slots);
        } else {
            KernelFunctions.Task13<KernelContext, DoubleArray, DoubleArray, DoubleArray, IntArray, Double, Double, Integer, Integer, Integer, Integer, Integer, Integer> k =
                    kind.equals("deep") ? PipelinedGemmKernelsF64::gemmChunkedDeep16
                            : kind.equals("chunk") ? (warps == 16 ? PipelinedGemmKernelsF64::gemmChunked16 : PipelinedGemmKernelsF64::gemmChunked)
                            : warps == 16 ? PipelinedGemmKernelsF64::gemmPipelined16 : PipelinedGemmKernelsF64::gemmPipelined;
            g.task("gemm", k, new KernelContext(), da, db, dc, desc, alpha, beta, ta ? 1 : 0, tb ? 1 : 0, shape, tilesM, tilesN, stages);
        }
        g.transferToHost(DataTransferMode.EVERY_EXECUTION, dc);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            plan.withGrid("gemm", WorkerGrid.of(groups * threads).withLocal(threads)).execute();
        }
        return dc.toHeapArray();
    }
}
