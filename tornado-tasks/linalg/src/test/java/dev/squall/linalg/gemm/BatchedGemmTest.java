package dev.squall.linalg.gemm;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.ReferenceGemm;
import dev.squall.linalg.testing.Matrices;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class BatchedGemmTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Uniform batch with gaps between entries, every transpose combination, alpha and beta. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void uniformBatchAllTransposesFp64(Device device) {
        int m = 67, n = 29, k = 41, batch = 3;
        for (Transpose ta : Transpose.values()) {
            for (Transpose tb : Transpose.values()) {
                checkUniform(device, Precision.FP64, ta, tb, m, n, k, batch, 0.75, -0.5, 1e-13);
            }
        }
    }

    /** Products large enough for the 128 x 128 register-tiled kernel, edges not multiples of 128 or of the depth 8. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void largeTilesAllTransposes(Device device) {
        int m = 300, n = 259, k = 37;
        assertTrue(BatchedGemm.usesLargeTiles(BatchDescriptor.strided(1, m, n, k, 0, 0, 0)));
        for (Transpose ta : Transpose.values()) {
            for (Transpose tb : Transpose.values()) {
                checkUniform(device, Precision.FP64, ta, tb, m, n, k, 2, -1.25, ta == tb ? 0 : 0.5, 1e-13);
            }
        }
        checkUniform(device, Precision.FP32, Transpose.N, Transpose.T, 257, 270, 131, 1, 1, 1, 2e-5);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void uniformBatchFp32(Device device) {
        checkUniform(device, Precision.FP32, Transpose.N, Transpose.T, 70, 33, 50, 2, 1.5, 0.25, 2e-5);
        checkUniform(device, Precision.FP32, Transpose.T, Transpose.N, 19, 66, 17, 2, -1, 0, 2e-5);
    }

    /** The FP64 tensor-core kernel (emulated off CUDA): edges not multiples of the 128 tile or the depth 16, every transpose. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void mmaKernelAllTransposes(Device device) {
        for (int tile : new int[] {MmaGemmKernelsF64.TILE, MmaGemmKernelsF64.TILE64}) {
            for (Transpose ta : Transpose.values()) {
                for (Transpose tb : Transpose.values()) {
                    checkUniform(device, Precision.FP64, ta, tb, 150, 131, 37, 2, -1.25, ta == tb ? 0 : 0.5, 1e-13, GemmKernel.MMA, tile);
                }
            }
        }
    }

    /** The MMA kernel's banded group order visits every tile exactly once, including a last band of fewer rows. */
    @Test
    void mmaGroupOrderCoversEveryTileOnce() {
        for (int[] grid : new int[][] {{1, 1}, {8, 3}, {9, 5}, {17, 17}, {130, 7}, {3, 40}}) {
            int tilesM = grid[0], tilesN = grid[1];
            int[] seen = new int[tilesM * tilesN];
            for (int t = 0; t < tilesM * tilesN; t++) {
                int r = MmaGemmKernelsF64.bandedRow(t, tilesM, tilesN), c = MmaGemmKernelsF64.bandedCol(t, tilesM, tilesN);
                assertTrue(r >= 0 && r < tilesM && c >= 0 && c < tilesN, "tile (" + r + ", " + c + ") of group " + t + " outside " + tilesM + " x " + tilesN);
                seen[r + c * tilesM]++;
            }
            for (int i = 0; i < seen.length; i++) assertEquals(1, seen[i], "tile " + i + " of " + tilesM + " x " + tilesN);
            if (tilesM >= 16) {
                assertEquals(7, MmaGemmKernelsF64.bandedRow(7, tilesM, tilesN), "a band walks 8 rows first");
                assertEquals(1, MmaGemmKernelsF64.bandedCol(8, tilesM, tilesN), "then the next column");
            }
        }
    }

    /** With lowerOnly the MMA kernels (both tile sizes) skip tiles above the diagonal and still get every entry on or below it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void mmaKernelLowerOnly(Device device) {
        int n = 260, k = 20;
        SplittableRandom rnd = new SplittableRandom(5);
        double[] a = Matrices.random(rnd, n * k), c0 = Matrices.random(rnd, n * n);
        double[] expected = c0.clone();
        ReferenceGemm.gemm(false, true, n, n, k, -1, a, 0, n, a, 0, n, 1, expected, 0, n);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < j; i++) expected[i + j * n] = 0; // above the diagonal: scratch
        }
        for (int tile : new int[] {MmaGemmKernelsF64.TILE, MmaGemmKernelsF64.TILE64}) {
            KernelArray da = Precision.FP64.fromDoubles(a), dc = Precision.FP64.fromDoubles(c0);
            LaunchSequence seq = new LaunchSequence("syrk");
            seq.graph().transferToDevice(dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION, da, dc);
            BatchedGemm.appendMma(seq, Transpose.N, Transpose.T, -1, da, da, 1, dc, BatchDescriptor.stridedWithLd(1, n, n, k, 0, n, 0, n, 0, n),
                    true, false, tile);
            seq.graph().transferToHost(dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION, dc);
            try (var plan = seq.plan(device)) {
                plan.execute();
            }
            double[] got = Precision.toDoubles(dc);
            // tiles entirely above the diagonal (rows 0..63, columns 256..259) are skipped: C keeps its input there
            assertEquals(c0[5 + 258 * n], got[5 + 258 * n], "a skipped tile is not written, tile " + tile);
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < j; i++) got[i + j * n] = 0;
            }
            Compare.close("lower-only mma gemm, tile " + tile + ", on " + device.id(), expected, got, 1e-13 * k);
        }
    }

    /**
     * With upperB the MMA kernels (both tile sizes) stop each tile's sum at the tile's last column: op(B) = B^T holds
     * zeros below its diagonal within a tile's reach and NaN past it, which must never be read.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void mmaKernelUpperTriangularB(Device device) {
        int m = 40, n = 260;
        SplittableRandom rnd = new SplittableRandom(9);
        double[] a = Matrices.random(rnd, m * n), b = Matrices.random(rnd, n * n), c0 = Matrices.random(rnd, m * n);
        double[] bZero = b.clone();
        for (int col = 0; col < n; col++) {
            for (int p = col + 1; p < n; p++) bZero[col + p * n] = b[col + p * n] = 0; // op(B)(p, col) = B(col, p)
        }
        double[] expected = c0.clone();
        ReferenceGemm.gemm(false, true, m, n, n, 0.5, a, 0, m, bZero, 0, n, -1, expected, 0, m);
        for (int tile : new int[] {MmaGemmKernelsF64.TILE, MmaGemmKernelsF64.TILE64}) {
            // NaN past the reach of this tile size's column blocks
            double[] bt = b.clone();
            for (int col = 0; col < n; col++) {
                for (int p = (col / tile + 1) * tile; p < n; p++) bt[col + p * n] = Double.NaN;
            }
            KernelArray da = Precision.FP64.fromDoubles(a), db = Precision.FP64.fromDoubles(bt), dc = Precision.FP64.fromDoubles(c0);
            runMma(device, Transpose.N, Transpose.T, 0.5, da, db, -1, dc, BatchDescriptor.stridedWithLd(1, m, n, n, 0, m, 0, n, 0, m), false, true, tile);
            Compare.close("upper-B mma gemm, tile " + tile + ", on " + device.id(), expected, Precision.toDoubles(dc), 1e-13 * n);
        }
    }

    private static void runMma(Device device, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b, double beta, KernelArray c,
                               BatchDescriptor d, boolean lowerOnly, boolean upperB, int tile) {
        LaunchSequence seq = new LaunchSequence("mma");
        seq.graph().transferToDevice(dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION, a, b, c);
        BatchedGemm.appendMma(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, tile);
        seq.graph().transferToHost(dev.squall.tasks.runtime.DataTransferMode.EVERY_EXECUTION, c);
        try (var plan = seq.plan(device)) {
            plan.execute();
        }
    }

    private static void checkUniform(Device device, Precision p, Transpose ta, Transpose tb, int m, int n, int k, int batch,
                                     double alpha, double beta, double tol) {
        checkUniform(device, p, ta, tb, m, n, k, batch, alpha, beta, tol, null);
    }

    private static void checkUniform(Device device, Precision p, Transpose ta, Transpose tb, int m, int n, int k, int batch,
                                     double alpha, double beta, double tol, GemmKernel kernel) {
        checkUniform(device, p, ta, tb, m, n, k, batch, alpha, beta, tol, kernel, 0);
    }

    /** With {@code mmaTile > 0} the tensor-core kernel of that tile runs whatever the size. */
    private static void checkUniform(Device device, Precision p, Transpose ta, Transpose tb, int m, int n, int k, int batch,
                                     double alpha, double beta, double tol, GemmKernel kernel, int mmaTile) {
        SplittableRandom rnd = new SplittableRandom(11 + m * 31L + ta.ordinal() * 7L + tb.ordinal());
        int lda = (ta == Transpose.N ? m : k) + 3, ldb = (tb == Transpose.N ? k : n) + 1, ldc = m + 2;
        int sa = lda * (ta == Transpose.N ? k : m) + 5, sb = ldb * (tb == Transpose.N ? n : k) + 2, sc = ldc * n + 7;
        double[] a = Matrices.random(rnd, sa * batch), b = Matrices.random(rnd, sb * batch), c0 = Matrices.random(rnd, sc * batch);
        if (beta == 0) java.util.Arrays.fill(c0, Double.NaN); // beta = 0 must not read C
        double[] expected = c0.clone();
        for (int e = 0; e < batch; e++) {
            ReferenceGemm.gemm(ta == Transpose.T, tb == Transpose.T, m, n, k, alpha, a, e * sa, lda, b, e * sb, ldb, beta, expected, e * sc, ldc);
        }
        KernelArray da = p.fromDoubles(a), db = p.fromDoubles(b), dc = p.fromDoubles(c0);
        BatchDescriptor d = BatchDescriptor.stridedWithLd(batch, m, n, k, sa, lda, sb, ldb, sc, ldc);
        if (mmaTile > 0) runMma(device, ta, tb, alpha, da, db, beta, dc, d, false, false, mmaTile);
        else if (kernel == null) BatchedGemm.run(device, ta, tb, alpha, da, db, beta, dc, d);
        else BatchedGemm.run(device, ta, tb, alpha, da, db, beta, dc, d, kernel);
        double[] got = Precision.toDoubles(dc);
        // padding between entries must be untouched; with beta = 0 it is NaN in both
        for (int i = 0; i < got.length; i++) if (Double.isNaN(expected[i]) && Double.isNaN(got[i])) got[i] = expected[i] = 0;
        Compare.close("gemm " + p + " " + ta + tb + " on " + device.id(), expected, got, tol * k);
    }

    /** Per-entry sizes differ (H2 ranks per level), including an empty entry and k = 0 (C = beta C). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void variableSizeBatch(Device device) {
        int[] m = {5, 70, 1, 0, 33, 12}, n = {9, 3, 65, 4, 33, 8}, k = {130, 7, 2, 3, 0, 1};
        int b = m.length;
        int[] ao = new int[b], bo = new int[b], co = new int[b], lda = new int[b], ldb = new int[b], ldc = new int[b];
        int na = 0, nb = 0, nc = 0;
        for (int e = 0; e < b; e++) {
            lda[e] = Math.max(1, k[e]);  // A transposed: stored k x m
            ldb[e] = Math.max(1, k[e]);
            ldc[e] = Math.max(1, m[e]);
            ao[e] = na;
            bo[e] = nb;
            co[e] = nc;
            na += k[e] * m[e] + 1;
            nb += k[e] * n[e] + 1;
            nc += m[e] * n[e] + 1;
        }
        SplittableRandom rnd = new SplittableRandom(5);
        double[] a = Matrices.random(rnd, na), bb = Matrices.random(rnd, nb), c = Matrices.random(rnd, nc);
        double[] expected = c.clone();
        for (int e = 0; e < b; e++) {
            ReferenceGemm.gemm(true, false, m[e], n[e], k[e], 2.0, a, ao[e], lda[e], bb, bo[e], ldb[e], 0.5, expected, co[e], ldc[e]);
        }
        KernelArray da = Precision.FP64.fromDoubles(a), db = Precision.FP64.fromDoubles(bb), dc = Precision.FP64.fromDoubles(c);
        BatchedGemm.run(device, Transpose.T, Transpose.N, 2.0, da, db, 0.5, dc,
                BatchDescriptor.variable(m, n, k, ao, lda, bo, ldb, co, ldc));
        Compare.close("variable gemm on " + device.id(), expected, Precision.toDoubles(dc), 1e-13 * 130);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void gemvBothTransposes(Device device) {
        int[] rows = {70, 3, 129}, cols = {5, 66, 17};
        int b = rows.length;
        int[] ao = new int[b], lda = new int[b], xo = new int[b], yo = new int[b];
        int na = 0, nx = 0, ny = 0;
        for (int e = 0; e < b; e++) {
            lda[e] = rows[e] + 1;
            ao[e] = na;
            na += lda[e] * cols[e];
            xo[e] = nx;
            yo[e] = ny;
            nx += Math.max(rows[e], cols[e]);
            ny += Math.max(rows[e], cols[e]);
        }
        SplittableRandom rnd = new SplittableRandom(9);
        double[] a = Matrices.random(rnd, na), x = Matrices.random(rnd, nx), y = Matrices.random(rnd, ny);
        for (Transpose t : Transpose.values()) {
            double[] expected = y.clone();
            for (int e = 0; e < b; e++) {
                ReferenceGemm.gemv(t == Transpose.T, rows[e], cols[e], -1.5, a, ao[e], lda[e], x, xo[e], 2.0, expected, yo[e]);
            }
            KernelArray dy = Precision.FP64.fromDoubles(y);
            BatchedGemv.run(device, t, -1.5, Precision.FP64.fromDoubles(a), Precision.FP64.fromDoubles(x), 2.0, dy, rows, cols, ao, lda, xo, yo);
            Compare.close("gemv " + t + " on " + device.id(), expected, Precision.toDoubles(dy), 1e-13 * 130);
        }
    }

    @Test
    void rejectsOperandsThatDoNotFitBeforeLaunch() {
        KernelArray a = Precision.FP64.allocate(64 * 64), b = Precision.FP64.allocate(64 * 64), c = Precision.FP64.allocate(64 * 64 - 1);
        BatchDescriptor d = BatchDescriptor.strided(1, 64, 64, 64, 0, 0, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchedGemm.run(dev.squall.tasks.runtime.Devices.jvm(), Transpose.N, Transpose.N, 1, a, b, 0, c, d));
        assertTrue(e.getMessage().contains("entry 0: C"), e.getMessage());
        IllegalArgumentException ld = assertThrows(IllegalArgumentException.class,
                () -> BatchDescriptor.stridedWithLd(1, 10, 10, 10, 0, 0, 0, 10, 0, 10));
        assertTrue(ld.getMessage().contains("lda"), ld.getMessage());
        IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
                () -> BatchedGemm.run(dev.squall.tasks.runtime.Devices.jvm(), Transpose.N, Transpose.N, 1, a, Precision.FP32.allocate(4096), 0,
                        Precision.FP64.allocate(4096), d));
        assertTrue(mixed.getMessage().contains("one precision"), mixed.getMessage());
    }

    /**
     * The variant each append picks shows in its task name: 64 x 64 tiles below {@link BatchedGemm#LARGE_MIN}
     * rows or columns, 128 x 128 from there, the tensor-core kernels when asked for (fp64 only), the fp32
     * twins for float arrays; names are unique in the sequence.
     */
    @Test
    void taskNamesSayWhichKernelRuns() {
        LaunchSequence seq = new LaunchSequence("names");
        KernelArray a = Precision.FP64.allocate(300 * 300), c = Precision.FP64.allocate(300 * 300);
        BatchDescriptor small = BatchDescriptor.strided(1, 255, 300, 300, 0, 0, 0), large = BatchDescriptor.strided(1, 300, 300, 300, 0, 0, 0);
        BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, a, a, 0, c, small, false);
        BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, a, a, 0, c, large, false);
        BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, a, a, 0, c, large, false, GemmKernel.MMA);
        BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, a, a, 0, c, small, false, GemmKernel.MMA);
        KernelArray f = Precision.FP32.allocate(300 * 300);
        BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, f, f, 0, f, large, false);
        assertEquals(List.of("gemm_0", "gemm_large_1", "gemm_mma_2", "gemm_mma64_3", "gemm_large_4"), seq.graph().snapshot().taskNames());
        assertEquals(5, seq.launches());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchedGemm.append(seq, Transpose.N, Transpose.N, 1, f, f, 0, f, large, false, GemmKernel.MMA));
        assertTrue(e.getMessage().contains("fp64 only"), e.getMessage());
        assertEquals(GemmKernel.TILES, BatchedGemm.choose(null, Precision.FP64, large), "no target: the portable kernel");
    }

    /**
     * {@code auto} on each test device: tiles without FP64 tensor cores (jvm, OpenCL) and for fp32; on CUDA 8.0+ the
     * deep pipelined kernel for large fp64 products where a block may take 216 KiB, mma for small ones (or a shallow
     * depth); and the shared memory a CUDA block may take by compute capability, which decides between them.
     */
    @Test
    void autoPicksByDeviceAndShape() {
        BatchDescriptor big = BatchDescriptor.strided(1, 8192, 8192, 8192, 0, 0, 0), small = BatchDescriptor.strided(1, 64, 64, 64, 0, 0, 0);
        BatchDescriptor shallow = BatchDescriptor.strided(1, 2000, 2000, 64, 0, 0, 0);
        for (Device d : TestDevices.all()) {
            boolean tensor = d.info().backend().equals("cuda") && Integer.parseInt(d.info().computeCapability().split("\\.")[0]) >= 8;
            long shared = tensor ? PipelinedGemmKernelsF64.cudaSharedBytesPerBlock(d.info().computeCapability()) : 0;
            GemmKernel large = !tensor ? GemmKernel.TILES : shared >= 216 * 1024 ? GemmKernel.CHUNK_W8_D32_S3
                    : shared >= 160 * 1024 ? GemmKernel.CHUNK_W8_S3 : GemmKernel.MMA;
            assertEquals(large, BatchedGemm.choose(d, Precision.FP64, big), d.id());
            assertEquals(tensor ? GemmKernel.MMA : GemmKernel.TILES, BatchedGemm.choose(d, Precision.FP64, small), d.id());
            assertEquals(tensor ? GemmKernel.MMA : GemmKernel.TILES, BatchedGemm.choose(d, Precision.FP64, shallow), d.id());
            for (BatchDescriptor shape : List.of(big, small)) assertEquals(GemmKernel.TILES, BatchedGemm.choose(d, Precision.FP32, shape), d.id());
        }
        assertEquals(227 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("9.0"));
        assertEquals(227 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("10.0"));
        assertEquals(163 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("8.0"));
        assertEquals(99 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("8.6"));
        assertEquals(99 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("12.0"));
        assertEquals(64 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("7.5"));
        assertEquals(48 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("6.1"));
        assertEquals(48 * 1024, PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("unknown"));
        // 9.0 holds the deep kernel (216 KiB), 8.0 only the 160 KiB ones, 8.6 neither
        assertTrue(PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("9.0") >= PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP);
        assertTrue(PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("8.0") < PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP);
        assertTrue(PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("8.0") >= PipelinedGemmKernelsF64.LOCAL_BYTES);
        assertTrue(PipelinedGemmKernelsF64.cudaSharedBytesPerBlock("8.6") < PipelinedGemmKernelsF64.LOCAL_BYTES);
    }
}
