package dev.squall.linalg.gemm;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * Batched GEMM {@code C_e = alpha op(A_e) op(B_e) + beta C_e} on the marshaled form (one data
 * array per operand, per-entry offsets in a {@link BatchDescriptor}), fp64 or fp32 by the
 * arrays' element type. Every entry's extents are checked against its array before launch.
 *
 * <pre>{@code
 * BatchDescriptor d = BatchDescriptor.strided(1000, 64, 64, 64, 4096, 4096, 4096);
 * BatchedGemm.run(Devices.select(null), Transpose.N, Transpose.T, 1.0, a, b, 0.0, c, d);
 * }</pre>
 */
public final class BatchedGemm {
    private BatchedGemm() {
    }

    /** Runs one batched GEMM on {@code device}, copying inputs there and {@code c} back. */
    public static void run(Device device, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                           double beta, KernelArray c, BatchDescriptor d) {
        run(device, ta, tb, alpha, a, b, beta, c, d, choose(device, Precision.of(c), d));
    }

    /** As {@link #run(Device, Transpose, Transpose, double, KernelArray, KernelArray, double, KernelArray, BatchDescriptor)} with the kernel named. */
    public static void run(Device device, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                           double beta, KernelArray c, BatchDescriptor d, GemmKernel kernel) {
        LaunchSequence seq = new LaunchSequence("gemm", device);
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b, c);
        append(seq, ta, tb, alpha, a, b, beta, c, d, false, kernel);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
    }

    /**
     * Appends the launch to {@code seq}. With {@code lowerOnly}, tiles entirely above the
     * diagonal of {@code C} are skipped (entries on or below the diagonal are exact; some above it
     * are written too, so use this only where the upper triangle is scratch).
     */
    public static void append(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                              double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly) {
        append(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, choose(seq.target(), Precision.of(c), d));
    }

    /**
     * The kernel {@link #append} picks for products of precision {@code p} and extents {@code d} on {@code target}
     * (null: unknown, so the portable one), the fastest measured there: on CUDA devices with FP64 tensor cores
     * (compute capability 8.0+), fp64 products of at least {@link #LARGE_MIN} rows, columns and depth take the
     * pipelined tensor-core kernel, {@link GemmKernel#CHUNK_W8_D32_S3} where a block may take its 216 KiB of shared
     * memory (on an H100 about 1.3 times {@code mma}, linalg/PERF.md), else
     * {@link GemmKernel#CHUNK_W8_S3} (160 KiB) where that fits; smaller fp64 products (and devices with less shared
     * memory) take {@link GemmKernel#MMA}; fp32 products and other devices {@link GemmKernel#TILES}.
     */
    public static GemmKernel choose(Device target, Precision p, BatchDescriptor d) {
        if (p != Precision.FP64 || GemmKernel.forDevice(target) != GemmKernel.MMA) return GemmKernel.TILES;
        if (!usesLargeTiles(d) || d.maxK() < LARGE_MIN) return GemmKernel.MMA;
        if (PipelinedGemmKernelsF64.fits(target, PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP)) return GemmKernel.CHUNK_W8_D32_S3;
        return PipelinedGemmKernelsF64.fits(target) ? GemmKernel.CHUNK_W8_S3 : GemmKernel.MMA;
    }

    /**
     * As {@link #append(LaunchSequence, Transpose, Transpose, double, KernelArray, KernelArray, double, KernelArray,
     * BatchDescriptor, boolean)} with the kernel named ({@link GemmKernel#MMA} needs fp64 arrays).
     */
    public static void append(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                              double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, GemmKernel kernel) {
        append(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, false, kernel);
    }

    /**
     * As {@link #append(LaunchSequence, Transpose, Transpose, double, KernelArray, KernelArray, double, KernelArray,
     * BatchDescriptor, boolean)}, where {@code upperB} says that op(B) is zero below its diagonal (B lower triangular
     * and transposed, say): the tensor-core kernels ({@link GemmKernel#MMA} and the pipelined ones) then skip the zero
     * part of each sum, {@link GemmKernel#TILES} multiplies by the zeros.
     */
    public static void append(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                              double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, boolean upperB) {
        append(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, choose(seq.target(), Precision.of(c), d));
    }

    /** As the one above with the kernel named. */
    public static void append(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                              double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, boolean upperB, GemmKernel kernel) {
        append(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, kernel, true);
    }

    /**
     * As the one above; {@code splitLastWave} false keeps every tile whole: the depth-32 kernels on a GPU otherwise split
     * a short last wave of a single full product over depth ({@link #appendPipelined}).
     */
    public static void append(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                              double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, boolean upperB, GemmKernel kernel, boolean splitLastWave) {
        Precision p = Precision.of(c);
        if (!p.holds(a) || !p.holds(b)) {
            throw new IllegalArgumentException("A, B and C must have one precision: " + a.elementType() + ", " + b.elementType() + ", " + c.elementType());
        }
        check(ta, tb, a, b, c, d);
        if (d.count() == 0 || d.maxM() == 0 || d.maxN() == 0) return;
        if (kernel.pipelined()) {
            if (p != Precision.FP64) throw new IllegalArgumentException("the pipelined mma GEMM kernel is fp64 only; C is " + c.elementType());
            Device target = seq.target();
            appendPipelined(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, kernel, 0,
                    splitLastWave && target != null && target.info().isGpu() ? target.info().computeUnits() : 0);
            return;
        }
        if (kernel == GemmKernel.MMA) {
            if (p != Precision.FP64) throw new IllegalArgumentException("the mma GEMM kernel is fp64 only; C is " + c.elementType());
            appendMma(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, usesLargeTiles(d) ? MmaGemmKernelsF64.TILE : MmaGemmKernelsF64.TILE64);
            return;
        }
        boolean large = usesLargeTiles(d);
        int tile = large ? GemmKernelsF64.BIG_TILE : GemmKernelsF64.TILE;
        int tilesM = ceilDiv(d.maxM(), tile), tilesN = ceilDiv(d.maxN(), tile);
        long groups = (long) d.count() * tilesM * tilesN;
        IntArray desc = d.toIntArray();
        seq.graph().task(seq.taskName(large ? "gemm_large" : "gemm"), WorkerGrid.of(groups * GemmKernelsF64.THREADS).withLocal(GemmKernelsF64.THREADS),
                (large ? GemmKernels.gemmLarge : GemmKernels.gemm).at(p),
                new KernelContext(), a, b, c, desc, alpha, beta, ta.flag(), tb.flag(), lowerOnly ? 1 : 0, tilesM, tilesN);
    }

    /** The tensor-core launch with tiles of {@code tile} ({@link MmaGemmKernelsF64#TILE} or {@code TILE64}). */
    static void appendMma(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                          double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, boolean upperB, int tile) {
        boolean large = tile == MmaGemmKernelsF64.TILE;
        int threads = large ? MmaGemmKernelsF64.THREADS : MmaGemmKernelsF64.THREADS64;
        int tilesM = ceilDiv(d.maxM(), tile), tilesN = ceilDiv(d.maxN(), tile);
        KernelFunctions.Task12<KernelContext, DoubleArray, DoubleArray, DoubleArray, IntArray, Double, Double, Integer, Integer, Integer, Integer, Integer> kernel =
                large ? MmaGemmKernelsF64::gemmMma : MmaGemmKernelsF64::gemmMma64;
        seq.graph().task(seq.taskName(large ? "gemm_mma" : "gemm_mma64"), WorkerGrid.of((long) d.count() * tilesM * tilesN * threads).withLocal(threads),
                kernel, new KernelContext(), fp64("A", a), fp64("B", b), fp64("C", c), d.toIntArray(), alpha, beta, ta.flag(), tb.flag(),
                (lowerOnly ? MmaGemmKernelsF64.LOWER_C : 0) | (upperB ? MmaGemmKernelsF64.UPPER_B : 0), tilesM, tilesN);
    }

    /**
     * As {@link #append(LaunchSequence, Transpose, Transpose, double, KernelArray, KernelArray, double, KernelArray,
     * BatchDescriptor, boolean, boolean, GemmKernel)} with a persistent launch: at most {@code maxGroups} groups (0: one a
     * tile), each looping over tiles, so that the product leaves compute units free for work on other queues. Only the
     * depth-32 kernel of 8 warps ({@link GemmKernel#CHUNK_W8_D32_S3}) takes a limit; other kernels launch as {@code append} does.
     */
    public static void appendPersistent(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                                        double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, boolean upperB, GemmKernel kernel, int maxGroups) {
        if (maxGroups < 0) throw new IllegalArgumentException("maxGroups must be >= 0, got " + maxGroups);
        if (!kernel.pipelined() || maxGroups == 0) {
            append(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, kernel);
            return;
        }
        Precision p = Precision.of(c);
        if (!p.holds(a) || !p.holds(b)) {
            throw new IllegalArgumentException("A, B and C must have one precision: " + a.elementType() + ", " + b.elementType() + ", " + c.elementType());
        }
        check(ta, tb, a, b, c, d);
        if (d.count() == 0 || d.maxM() == 0 || d.maxN() == 0) return;
        if (p != Precision.FP64) throw new IllegalArgumentException("the pipelined mma GEMM kernel is fp64 only; C is " + c.elementType());
        appendPipelined(seq, ta, tb, alpha, a, b, beta, c, d, lowerOnly, upperB, kernel, maxGroups, 0);
    }

    /**
     * The launch of {@link PipelinedGemmKernelsF64} ({@code kernel}'s warps pick the kernel, its stages the pipeline
     * depth); for the 8-warp depth-32 kernels at most {@code maxGroups} groups (0: one a tile). With
     * {@code tailUnits > 0} (a GPU's compute units) a single full product whose tiles fill whole waves of
     * {@code tailUnits} groups but for a short last one ({@link #tailSlices}) has that last wave's tiles split over
     * depth: its tiles' partial products over {@code slices} depth ranges as one batched launch into scratch, then summed
     * into C ({@link PipelinedGemmKernelsF64#sumSlices}), so the last wave takes a fraction of a tile's time instead of
     * a whole one on a few units.
     */
    static void appendPipelined(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, KernelArray a, KernelArray b,
                                double beta, KernelArray c, BatchDescriptor d, boolean lowerOnly, boolean upperB, GemmKernel kernel, int maxGroups,
                                int tailUnits) {
        Device target = seq.target();
        long bytes = kernel.deep() ? PipelinedGemmKernelsF64.LOCAL_BYTES_DEEP : PipelinedGemmKernelsF64.LOCAL_BYTES;
        if (target != null && !PipelinedGemmKernelsF64.fits(target, bytes)) {
            throw new IllegalArgumentException("the pipelined GEMM kernels need " + bytes / 1024 + " KiB of local memory; "
                    + target.id() + " has " + target.info().localMemoryBytes() / 1024 + " KiB: use --kernel mma or tiles there");
        }
        int tile = PipelinedGemmKernelsF64.TILE;
        boolean wide = kernel.warps == 16;
        int threads = wide ? PipelinedGemmKernelsF64.THREADS16 : PipelinedGemmKernelsF64.THREADS;
        int tilesM = ceilDiv(d.maxM(), tile), tilesN = ceilDiv(d.maxN(), tile);
        long slots = (long) d.count() * tilesM * tilesN;
        int shape = (lowerOnly ? MmaGemmKernelsF64.LOWER_C : 0) | (upperB ? MmaGemmKernelsF64.UPPER_B : 0);
        if (kernel.deep() && !wide) {
            // the 8-warp depth-32 kernels loop over tiles: a grid of at most maxGroups groups (0: one group a tile)
            if (slots > Integer.MAX_VALUE) throw new IllegalArgumentException("too many tiles in one GEMM launch: " + slots);
            long groups = maxGroups > 0 ? Math.min(maxGroups, slots) : slots;
            int slices = maxGroups == 0 && d.count() == 1 && !lowerOnly && !upperB ? tailSlices(tilesM * tilesN, d.k(0), tailUnits) : 0;
            int tail = slices > 0 ? (int) (slots % tailUnits) : 0;
            KernelFunctions.Task14<KernelContext, DoubleArray, DoubleArray, DoubleArray, IntArray, Double, Double, Integer, Integer, Integer, Integer, Integer, Integer, Integer> k =
                    PipelinedGemmKernelsF64::gemmChunkedDeep;
            seq.graph().task(seq.taskName("gemm_chunk_deep"),
                    WorkerGrid.of(groups * threads).withLocal(threads),
                    k, new KernelContext(), fp64("A", a), fp64("B", b), fp64("C", c), d.toIntArray(), alpha, beta, ta.flag(), tb.flag(),
                    shape, tilesM, tilesN, kernel.stages, (int) (slots - tail));
            if (tail > 0) appendTail(seq, ta, tb, alpha, fp64("A", a), fp64("B", b), beta, fp64("C", c), d, kernel, k, tilesM, tilesN, tail, slices);
            return;
        }
        KernelFunctions.Task13<KernelContext, DoubleArray, DoubleArray, DoubleArray, IntArray, Double, Double, Integer, Integer, Integer, Integer, Integer, Integer> k =
                kernel.deep() ? PipelinedGemmKernelsF64::gemmChunkedDeep16
                        : kernel.chunked ? (wide ? PipelinedGemmKernelsF64::gemmChunked16 : PipelinedGemmKernelsF64::gemmChunked)
                        : wide ? PipelinedGemmKernelsF64::gemmPipelined16 : PipelinedGemmKernelsF64::gemmPipelined;
        seq.graph().task(seq.taskName((kernel.deep() ? "gemm_chunk_deep" : kernel.chunked ? "gemm_chunk" : "gemm_pipe") + (wide ? "16" : "")),
                WorkerGrid.of(slots * threads).withLocal(threads),
                k, new KernelContext(), fp64("A", a), fp64("B", b), fp64("C", c), d.toIntArray(), alpha, beta, ta.flag(), tb.flag(),
                shape, tilesM, tilesN, kernel.stages);
    }

    /** Smallest depth of one slice of a split last wave: 8 panels, so the pipeline's fill stays a small part. */
    static final int MIN_SLICE = 8 * PipelinedGemmKernelsF64.DEEP;

    /**
     * Depth slices for the last wave of {@code tiles} tiles of depth {@code k} on {@code units} compute units (one group
     * each), or 0 for no split: the split pays where the tiles fill at least one whole wave and the last holds at most
     * a quarter of the units, each slice at least {@link #MIN_SLICE} deep.
     */
    static int tailSlices(int tiles, int k, int units) {
        if (units <= 0 || tiles <= units) return 0;
        int tail = tiles % units;
        if (tail == 0 || 4 * tail > units) return 0;
        int slices = Math.min(units / tail, k / MIN_SLICE);
        if (slices < 2) return 0;
        int depth = sliceDepth(k, slices);
        return (k + depth - 1) / depth;
    }

    /** Depth of each of {@code slices} slices of {@code k}, a multiple of the kernel's panel depth (the last may be shorter). */
    static int sliceDepth(int k, int slices) {
        int deep = PipelinedGemmKernelsF64.DEEP;
        return ((k + slices - 1) / slices + deep - 1) / deep * deep;
    }

    /**
     * The last {@code tail} tiles of the single product {@code d} (slots {@code tiles - tail ..}, in the kernel's banded
     * order), each split into {@code slices} depth ranges: one batched launch of {@code k} with an entry per tile and
     * slice writing its partial product to scratch, then {@link PipelinedGemmKernelsF64#sumSlices} into C.
     */
    private static void appendTail(LaunchSequence seq, Transpose ta, Transpose tb, double alpha, DoubleArray a, DoubleArray b, double beta,
                                   DoubleArray c, BatchDescriptor d, GemmKernel kernel,
                                   KernelFunctions.Task14<KernelContext, DoubleArray, DoubleArray, DoubleArray, IntArray, Double, Double, Integer, Integer, Integer, Integer, Integer, Integer, Integer> k,
                                   int tilesM, int tilesN, int tail, int slices) {
        int tile = PipelinedGemmKernelsF64.TILE, m = d.m(0), n = d.n(0), depth = d.k(0);
        int aOff = d.field(0, 3), lda = d.field(0, 4), bOff = d.field(0, 5), ldb = d.field(0, 6);
        int sd = sliceDepth(depth, slices), entries = tail * slices;
        int[] em = new int[entries], en = new int[entries], ek = new int[entries], ea = new int[entries], eb = new int[entries], ew = new int[entries];
        int[] aLd = new int[entries], bLd = new int[entries], ldw = new int[entries], tiles = new int[4 * tail];
        int first = tilesM * tilesN - tail;
        for (int i = 0; i < tail; i++) {
            int r0 = PipelinedGemmKernelsF64.bandedRow(first + i, tilesM, tilesN) * tile, c0 = PipelinedGemmKernelsF64.bandedCol(first + i, tilesM, tilesN) * tile;
            int rows = Math.min(tile, m - r0), cols = Math.min(tile, n - c0);
            tiles[4 * i] = r0;
            tiles[4 * i + 1] = c0;
            tiles[4 * i + 2] = rows;
            tiles[4 * i + 3] = cols;
            for (int s = 0; s < slices; s++) {
                int e = i * slices + s, p0 = s * sd;
                em[e] = rows;
                en[e] = cols;
                ek[e] = Math.min(sd, depth - p0);
                ea[e] = ta == Transpose.N ? aOff + r0 + p0 * lda : aOff + p0 + r0 * lda;
                eb[e] = tb == Transpose.N ? bOff + p0 + c0 * ldb : bOff + c0 + p0 * ldb;
                ew[e] = e * tile * tile;
                aLd[e] = lda;
                bLd[e] = ldb;
                ldw[e] = tile;
            }
        }
        DoubleArray w = new DoubleArray((long) entries * tile * tile);
        int threads = PipelinedGemmKernelsF64.THREADS;
        seq.graph().task(seq.taskName("gemm_tail_slices"), WorkerGrid.of((long) entries * threads).withLocal(threads),
                k, new KernelContext(), a, b, w, BatchDescriptor.variable(em, en, ek, ea, aLd, eb, bLd, ew, ldw).toIntArray(), 1.0, 0.0,
                ta.flag(), tb.flag(), 0, 1, 1, kernel.stages, entries);
        seq.graph().task(seq.taskName("gemm_tail_sum"), WorkerGrid.of((long) tail * tile * tile).withLocal(threads),
                PipelinedGemmKernelsF64::sumSlices, new KernelContext(), w, c, IntArray.fromArray(tiles), tail, slices, d.field(0, 7), d.field(0, 8), alpha, beta);
    }

    private static DoubleArray fp64(String what, KernelArray x) {
        if (x instanceof DoubleArray dx) return dx;
        throw new IllegalArgumentException("the mma GEMM kernel is fp64 only; " + what + " is " + x.elementType());
    }

    /**
     * Whether the 128 x 128 kernel runs: for products of at least {@link #LARGE_MIN} rows and
     * columns, where its 8 x 8 register blocks pay off and the 64 x 64 tiles' padding waste is small.
     */
    static boolean usesLargeTiles(BatchDescriptor d) {
        return d.maxM() >= LARGE_MIN && d.maxN() >= LARGE_MIN;
    }

    /** Smallest m and n sent to the large-tile kernel. */
    public static final int LARGE_MIN = 256;

    /** Rejects any entry whose operand would reach outside its array or has a too-small leading dimension. */
    static void check(Transpose ta, Transpose tb, KernelArray a, KernelArray b, KernelArray c, BatchDescriptor d) {
        for (int e = 0; e < d.count(); e++) {
            int m = d.m(e), n = d.n(e), k = d.k(e);
            extent("A", e, a, d.field(e, 3), d.field(e, 4), ta == Transpose.N ? m : k, ta == Transpose.N ? k : m);
            extent("B", e, b, d.field(e, 5), d.field(e, 6), tb == Transpose.N ? k : n, tb == Transpose.N ? n : k);
            extent("C", e, c, d.field(e, 7), d.field(e, 8), m, n);
        }
    }

    static void extent(String what, int e, KernelArray arr, int off, int ld, int rows, int cols) {
        if (rows == 0 || cols == 0) return;
        if (ld < rows) {
            throw new IllegalArgumentException("entry " + e + ": leading dimension of " + what + " is " + ld + " but it has " + rows + " rows");
        }
        long last = off + (rows - 1L) + (cols - 1L) * ld;
        if (last >= arr.getSizeLong()) {
            throw new IllegalArgumentException("entry " + e + ": " + what + " (" + rows + " x " + cols + " at offset " + off + ", ld " + ld
                    + ") reaches element " + last + " but the array has " + arr.getSizeLong());
        }
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
