package dev.squall.linalg.gemm;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceInfo;

/**
 * Batched DGEMM on FP64 tensor cores ({@link KernelContext#mma16x8x4}) with the operand panels staged by a pipeline of
 * asynchronous tile copies ({@link KernelContext#asyncCopyTile}): up to {@link #MAX_STAGES} panels of depth
 * {@link #DEPTH} live in local memory, {@code stages - 1} of them in flight while one is multiplied, one barrier a panel
 * and no register staging (on CUDA 8.0+ the copies are {@code cp.async} of 16 bytes, zero-filled at the edges). Same
 * marshaled batch, descriptors, {@code shape} bits and group order as {@link MmaGemmKernelsF64#gemmMma}, tiles of
 * {@link #TILE} x {@link #TILE}.
 *
 * <p>Each operand panel is copied in the layout its storage gives contiguous runs for: an operand whose rows are
 * contiguous at each depth (op(A) = A, op(B) = B^T) lands depth-major with stride {@link #LDR} = 132 (4 depths x 8 rows
 * of a fragment load fall in distinct bank pairs, as in gemmMma); one whose depths are contiguous per row (op(A) = A^T,
 * op(B) = B) lands row-major with stride {@link #LDD} = 20 (8 rows x 4 depths, 20 = 4 mod 16: distinct bank pairs too).
 * The fragment loads take the two strides as run-time values.
 *
 * <p>Local memory is {@code 2 x MAX_STAGES x }{@link #STAGE} doubles (160 KiB): on CUDA the compiler puts it in dynamic
 * shared memory, which sm_80+ devices allow (227 KiB a block on sm_90); OpenCL devices with 48 KiB of local memory
 * (NVIDIA's) cannot run these kernels, which is why they are not in {@link MmaGemmKernelsF64}.
 */
public final class PipelinedGemmKernelsF64 {
    /** Tile rows and columns per work-group, panel depth, deepest pipeline. */
    public static final int TILE = 128, DEPTH = 16, MAX_STAGES = 4;
    /** Work-items per group: 8 warps of 64 x 32 ({@link #gemmPipelined}), 16 warps of 32 x 32 ({@link #gemmPipelined16}). */
    public static final int THREADS = 256, THREADS16 = 512;
    /** Local stride of a depth-major panel (rows contiguous) and of a row-major one (depths contiguous). */
    static final int LDR = TILE + 4, LDD = DEPTH + 4;
    /** Doubles of one stage of one operand: the larger layout, TILE x LDD = 2560 (DEPTH x LDR = 2112). */
    static final int STAGE = TILE * LDD;
    /**
     * Panel depth, deepest pipeline, row-major stride (36 = 4 mod 16, conflict-free as 20) and doubles of one stage of
     * one operand ({@code TILE x LDD_DEEP}) of {@link #gemmChunkedDeep} and {@link #gemmChunkedDeep16}.
     */
    static final int DEEP = 32, DEEP_STAGES = 3, LDD_DEEP = DEEP + 4, DEEP_STAGE = TILE * LDD_DEEP;

    /** Bytes of local memory a group of these kernels declares: both operands, {@link #MAX_STAGES} stages. */
    public static final long LOCAL_BYTES = 2L * MAX_STAGES * STAGE * Double.BYTES;
    /** Bytes of local memory {@link #gemmChunkedDeep} and {@link #gemmChunkedDeep16} declare (216 KiB). */
    public static final long LOCAL_BYTES_DEEP = 2L * DEEP_STAGES * DEEP_STAGE * Double.BYTES;

    private PipelinedGemmKernelsF64() {
    }

    /**
     * Whether {@code device} can run these kernels: CUDA devices whose blocks may take {@link #LOCAL_BYTES} of dynamic
     * shared memory ({@link #cudaSharedBytesPerBlock}: compute capability 8.0 and later but 8.6, 8.9, 12.x) and other
     * devices with that much local memory.
     */
    public static boolean fits(Device device) {
        return fits(device, LOCAL_BYTES);
    }

    /** Whether {@code device} can run a kernel of these declaring {@code localBytes} (as {@link #fits(Device)}). */
    public static boolean fits(Device device, long localBytes) {
        DeviceInfo info = device.info();
        long limit = "cuda".equals(info.backend()) ? cudaSharedBytesPerBlock(info.computeCapability()) : info.localMemoryBytes();
        return limit >= localBytes;
    }

    /**
     * Shared memory a CUDA block may opt in to, by compute capability ("major.minor"), from the CUDA C++ Programming
     * Guide's table of technical specifications: 227 KiB on 9.x, 10.x and 11.x, 163 KiB on 8.0 and 8.7, 99 KiB on the
     * other 8.x and on 12.x, 96 KiB on 7.0 and 7.2, 64 KiB on 7.5, 48 KiB (the static limit) before 7.0 and for
     * capabilities the table does not list. The driver's attribute is not in {@code DeviceInfo}, which reports the
     * 48 KiB static limit for every CUDA device.
     */
    static long cudaSharedBytesPerBlock(String computeCapability) {
        int major, minor;
        try {
            int dot = computeCapability.indexOf('.');
            major = Integer.parseInt(dot < 0 ? computeCapability : computeCapability.substring(0, dot));
            minor = dot < 0 ? 0 : Integer.parseInt(computeCapability.substring(dot + 1));
        } catch (NumberFormatException e) {
            return 48 * 1024;
        }
        int kib = switch (major) {
            case 9, 10, 11 -> 227;
            case 8 -> minor == 0 || minor == 7 ? 163 : 99;
            case 12 -> 99;
            case 7 -> minor == 5 ? 64 : 96;
            default -> 48;
        };
        return kib * 1024L;
    }

    /** Tile row of the {@code t}-th group of an entry, in bands of 8 tile rows (as {@code MmaGemmKernelsF64.bandedRow}). */
    @DeviceFunction
    static int bandedRow(int t, int tilesM, int tilesN) {
        int first = t / (8 * tilesN) * 8;
        return first + (t - first * tilesN) % Math.min(8, tilesM - first);
    }

    /** Tile column of the {@code t}-th group (see {@link #bandedRow}). */
    @DeviceFunction
    static int bandedCol(int t, int tilesM, int tilesN) {
        int first = t / (8 * tilesN) * 8;
        return (t - first * tilesN) / Math.min(8, tilesM - first);
    }

    @DeviceFunction
    static void store(DoubleArray c, int cOff, int ldc, int m, int n, int r, int col, double alpha, double beta, double v) {
        if (r < m && col < n) {
            int idx = cOff + r + col * ldc;
            if (beta == 0) c.set(idx, alpha * v);
            else c.set(idx, alpha * v + beta * c.get(idx));
        }
    }

    /** This lane's part of one 16 x 8 tile: {@code acc[at + 2h + i]} is C({@code r + 8h}, {@code q + i}). */
    @DeviceFunction
    static void storeFragment(DoubleArray c, int cOff, int ldc, int m, int n, int r, int q, double alpha, double beta, double[] acc, int at) {
        for (@Unroll int h = 0; h < 2; h++) {
            store(c, cOff, ldc, m, n, r + 8 * h, q, alpha, beta, acc[at + 2 * h]);
            store(c, cOff, ldc, m, n, r + 8 * h, q + 1, alpha, beta, acc[at + 2 * h + 1]);
        }
    }

    /**
     * {@code C = alpha sum_s W_(i, s) + beta C} for the tiles i of {@code tiles} (4 ints each: first row, first column,
     * rows, columns of C), where {@code W_(i, s)} is the {@code TILE x TILE} partial product of tile i over depth slice s
     * ({@code slices} of them, tile-major in {@code w}, leading dimension {@link #TILE}); one work-item per element of
     * the tiles (grid {@code tiles x TILE x TILE}). The reduction of the depth-split last wave of a large product.
     */
    @Kernel
    public static void sumSlices(KernelContext ctx, @ReadOnly DoubleArray w, DoubleArray c, @ReadOnly IntArray tiles, int count, int slices,
                                 int cOff, int ldc, double alpha, double beta) {
        int g = ctx.globalIdx;
        int i = g / (TILE * TILE), e = g - i * (TILE * TILE);
        if (i >= count) return;
        int r = e % TILE, col = e / TILE;
        if (r >= tiles.get(4 * i + 2) || col >= tiles.get(4 * i + 3)) return;
        int base = i * slices * TILE * TILE + e;
        double sum = 0;
        for (int s = 0; s < slices; s++) sum += w.get(base + s * TILE * TILE);
        store(c, cOff, ldc, tiles.get(4 * i) + tiles.get(4 * i + 2), tiles.get(4 * i + 1) + tiles.get(4 * i + 3),
                tiles.get(4 * i) + r, tiles.get(4 * i + 1) + col, alpha, beta, sum);
    }

    /**
     * {@code C_e = alpha op(A_e) op(B_e) + beta C_e}; arguments, grid (groups of {@link #THREADS}) and {@code shape} as
     * {@link MmaGemmKernelsF64#gemmMma}, plus {@code stages} (2 to {@link #MAX_STAGES}: panels in local memory, all but
     * one in flight). Warp {@code w} owns rows {@code 64 (w % 2) ..} and columns {@code 32 (w / 2) ..} of the tile, its
     * accumulator laid out as gemmMma's.
     */
    @Kernel
    public static void gemmPipelined(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                     double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN, int stages) {
        double[] as = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = bandedRow(t, tilesM, tilesN) * TILE, col0 = bandedCol(t, tilesM, tilesN) * TILE;
        // whole groups leave together, before the first barrier
        if (row0 >= m || col0 >= n) return;
        if ((shape & MmaGemmKernelsF64.LOWER_C) != 0 && row0 + TILE <= col0) return;
        int kEnd = (shape & MmaGemmKernelsF64.UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 1) * 64, wc = (warp >> 1) * 32;
        int fr = lane >> 2, fq = lane & 3;
        // local element (row r, depth p) of a panel: r * xRow + p * xDepth
        int aRow = transA == 0 ? 1 : LDD, aDepth = transA == 0 ? LDR : 1;
        int bRow = transB != 0 ? 1 : LDD, bDepth = transB != 0 ? LDR : 1;
        int panels = (kEnd + DEPTH - 1) / DEPTH;
        double[] acc = new double[64];
        double[] af = new double[8];
        double[] bf = new double[4];
        // panels 0 .. stages - 2 in flight, one commit each (empty past the last panel, so group counts stay uniform)
        for (int q = 0; q < stages - 1; q++) {
            if (q < panels) {
                int p0 = q * DEPTH, slot = q * STAGE;
                if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEPTH, TILE, kEnd - p0, m - row0);
                else ctx.asyncCopyTile(as, slot, LDD, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEPTH, m - row0, kEnd - p0);
                if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEPTH, TILE, kEnd - p0, n - col0);
                else ctx.asyncCopyTile(bs, slot, LDD, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEPTH, n - col0, kEnd - p0);
            }
            ctx.asyncCommit();
        }
        int rdSlot = 0, wrSlot = stages - 1;
        for (int q = 0; q < panels; q++) {
            // panel q has landed once at most stages - 2 groups are pending
            if (stages >= 4) ctx.asyncWaitGroups(2);
            else if (stages == 3) ctx.asyncWaitGroups(1);
            else ctx.asyncWaitGroups(0);
            // every share of panel q is visible, and every warp is done with panel q - 1, whose slot is written next
            ctx.localBarrier();
            int next = q + stages - 1;
            if (next < panels) {
                int p0 = next * DEPTH, slot = wrSlot * STAGE;
                if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEPTH, TILE, kEnd - p0, m - row0);
                else ctx.asyncCopyTile(as, slot, LDD, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEPTH, m - row0, kEnd - p0);
                if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEPTH, TILE, kEnd - p0, n - col0);
                else ctx.asyncCopyTile(bs, slot, LDD, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEPTH, n - col0, kEnd - p0);
            }
            ctx.asyncCommit();
            wrSlot = wrSlot + 1 == stages ? 0 : wrSlot + 1;
            int cur = rdSlot * STAGE;
            rdSlot = rdSlot + 1 == stages ? 0 : rdSlot + 1;
            for (int s = 0; s < DEPTH; s += 4) {
                int pa = cur + (s + fq) * aDepth + (wr + fr) * aRow;
                int pb = cur + (s + fq) * bDepth + (wc + fr) * bRow;
                for (@Unroll int i = 0; i < 8; i++) af[i] = as[pa + 8 * i * aRow];
                for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[pb + 8 * j * bRow];
                for (@Unroll int i = 0; i < 4; i++) {
                    for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                }
            }
        }
        ctx.asyncWait();
        for (@Unroll int i = 0; i < 4; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /**
     * {@link #gemmPipelined} with 16 warps of 32 x 32 (groups of {@link #THREADS16}), at most 128 registers a work-item:
     * twice the warps per SM to hide latency, for 8 fragment loads per 8 multiply-accumulates instead of 12 per 16.
     * Warp {@code w} owns rows {@code 32 (w % 4) ..} and columns {@code 32 (w / 4) ..}; acc as gemmMma64's.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = THREADS16, minGroupsPerUnit = 1)
    public static void gemmPipelined16(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                       double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN, int stages) {
        double[] as = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = bandedRow(t, tilesM, tilesN) * TILE, col0 = bandedCol(t, tilesM, tilesN) * TILE;
        if (row0 >= m || col0 >= n) return;
        if ((shape & MmaGemmKernelsF64.LOWER_C) != 0 && row0 + TILE <= col0) return;
        int kEnd = (shape & MmaGemmKernelsF64.UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 3) * 32, wc = (warp >> 2) * 32;
        int fr = lane >> 2, fq = lane & 3;
        int aRow = transA == 0 ? 1 : LDD, aDepth = transA == 0 ? LDR : 1;
        int bRow = transB != 0 ? 1 : LDD, bDepth = transB != 0 ? LDR : 1;
        int panels = (kEnd + DEPTH - 1) / DEPTH;
        double[] acc = new double[32];
        double[] af = new double[4];
        double[] bf = new double[4];
        for (int q = 0; q < stages - 1; q++) {
            if (q < panels) {
                int p0 = q * DEPTH, slot = q * STAGE;
                if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEPTH, TILE, kEnd - p0, m - row0);
                else ctx.asyncCopyTile(as, slot, LDD, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEPTH, m - row0, kEnd - p0);
                if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEPTH, TILE, kEnd - p0, n - col0);
                else ctx.asyncCopyTile(bs, slot, LDD, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEPTH, n - col0, kEnd - p0);
            }
            ctx.asyncCommit();
        }
        int rdSlot = 0, wrSlot = stages - 1;
        for (int q = 0; q < panels; q++) {
            if (stages >= 4) ctx.asyncWaitGroups(2);
            else if (stages == 3) ctx.asyncWaitGroups(1);
            else ctx.asyncWaitGroups(0);
            ctx.localBarrier();
            int next = q + stages - 1;
            if (next < panels) {
                int p0 = next * DEPTH, slot = wrSlot * STAGE;
                if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEPTH, TILE, kEnd - p0, m - row0);
                else ctx.asyncCopyTile(as, slot, LDD, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEPTH, m - row0, kEnd - p0);
                if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEPTH, TILE, kEnd - p0, n - col0);
                else ctx.asyncCopyTile(bs, slot, LDD, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEPTH, n - col0, kEnd - p0);
            }
            ctx.asyncCommit();
            wrSlot = wrSlot + 1 == stages ? 0 : wrSlot + 1;
            int cur = rdSlot * STAGE;
            rdSlot = rdSlot + 1 == stages ? 0 : rdSlot + 1;
            for (int s = 0; s < DEPTH; s += 4) {
                int pa = cur + (s + fq) * aDepth + (wr + fr) * aRow;
                int pb = cur + (s + fq) * bDepth + (wc + fr) * bRow;
                for (@Unroll int i = 0; i < 4; i++) af[i] = as[pa + 8 * i * aRow];
                for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[pb + 8 * j * bRow];
                for (@Unroll int i = 0; i < 2; i++) {
                    for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                }
            }
        }
        ctx.asyncWait();
        for (@Unroll int i = 0; i < 2; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /**
     * {@link #gemmPipelined} (8 warps of 64 x 32, same arguments and grid) with each work-item's share of a panel copy
     * laid out once: {@code 1024 / THREADS} chunks of 16 bytes ({@link KernelContext#asyncCopyChunk}) at fixed local
     * offsets and source offsets that step by one constant a panel, so a chunk costs an address add, a compare and the
     * {@code cp.async} instead of {@code asyncCopyTile}'s per-chunk row, column and edge arithmetic. Edges are handled
     * by the chunk's count (zero-filled). Operands whose offsets or leading dimensions are odd (chunks not 16-byte
     * aligned) take {@code asyncCopyTile}. Fragment loads use constant strides per layout.
     */
    @Kernel
    public static void gemmChunked(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                     double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN, int stages) {
        double[] as = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = bandedRow(t, tilesM, tilesN) * TILE, col0 = bandedCol(t, tilesM, tilesN) * TILE;
        if (row0 >= m || col0 >= n) return;
        if ((shape & MmaGemmKernelsF64.LOWER_C) != 0 && row0 + TILE <= col0) return;
        int kEnd = (shape & MmaGemmKernelsF64.UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 1) * 64, wc = (warp >> 1) * 32;
        int fr = lane >> 2, fq = lane & 3;
        int panels = (kEnd + DEPTH - 1) / DEPTH;
        // chunk copies need every source chunk 16-byte aligned: even offsets and leading dimensions
        boolean chunked = ((aOff | lda | bOff | ldb) & 1) == 0;
        // this work-item's chunks of an operand panel: layout rows r, r + step, ... at element c of the row (a layout row
        // is a depth of a depth-major panel, 64 chunks; a tile row of a row-major one, 8 chunks)
        int aCpr = transA == 0 ? TILE / 2 : DEPTH / 2, bCpr = transB != 0 ? TILE / 2 : DEPTH / 2;
        int aR = lid / aCpr, bR = lid / bCpr;
        int aC = 2 * (lid - aR * aCpr), bC = 2 * (lid - bR * bCpr);
        int aStep = THREADS / aCpr, bStep = THREADS / bCpr;
        int aLd = transA == 0 ? LDR : LDD, bLd = transB != 0 ? LDR : LDD;
        int aDst = aR * aLd + aC, bDst = bR * bLd + bC;
        long aSrc = transA == 0 ? aOff + row0 + aC + (long) aR * lda : aOff + aC + (long) (row0 + aR) * lda;
        long bSrc = transB != 0 ? bOff + col0 + bC + (long) bR * ldb : bOff + bC + (long) (col0 + bR) * ldb;
        long aPanel = transA == 0 ? (long) DEPTH * lda : DEPTH, bPanel = transB != 0 ? (long) DEPTH * ldb : DEPTH;
        // source elements between this work-item's chunks of a panel
        long aJump = (long) aStep * lda, bJump = (long) bStep * ldb;
        // fragment offsets of this lane in a stage: row (or column) wr + fr, depth fq
        int aLane = transA == 0 ? fq * LDR + wr + fr : (wr + fr) * LDD + fq;
        int bLane = transB != 0 ? fq * LDR + wc + fr : (wc + fr) * LDD + fq;
        double[] acc = new double[64];
        double[] af = new double[8];
        double[] bf = new double[4];
        // iteration q issues panel q + stages - 1 and multiplies panel q (q < 0: filling the pipeline)
        int rdSlot = 0, wrSlot = 0;
        for (int q = 1 - stages; q < panels; q++) {
            if (q >= 0) {
                // panel q has landed once at most stages - 2 groups are pending
                if (stages >= 4) ctx.asyncWaitGroups(2);
                else if (stages == 3) ctx.asyncWaitGroups(1);
                else ctx.asyncWaitGroups(0);
                // every share of panel q is visible, and every warp is done with panel q - 1, whose slot is written next
                ctx.localBarrier();
            }
            int next = q + stages - 1;
            if (next < panels) {
                int p0 = next * DEPTH, slot = wrSlot * STAGE, left = kEnd - p0;
                if (chunked) {
                    // rows of the layout left from this work-item's first, and elements of its chunk that exist
                    int aLeft = (transA == 0 ? left : m - row0) - aR, bLeft = (transB != 0 ? left : n - col0) - bR;
                    int aCnt = Math.max(0, Math.min(2, (transA == 0 ? m - row0 : left) - aC));
                    int bCnt = Math.max(0, Math.min(2, (transB != 0 ? n - col0 : left) - bC));
                    long aP = aSrc + next * aPanel, bP = bSrc + next * bPanel;
                    int aD = slot + aDst, bD = slot + bDst;
                    // one branch a layout, so that the local steps and row limits are constants
                    if (transA == 0) {
                        for (@Unroll int j = 0; j < 1024 / THREADS; j++) {
                            ctx.asyncCopyChunk(as, aD + j * (THREADS / 64) * LDR, a, aP + j * aJump, j * (THREADS / 64) < aLeft ? aCnt : 0);
                        }
                    } else {
                        for (@Unroll int j = 0; j < 1024 / THREADS; j++) {
                            ctx.asyncCopyChunk(as, aD + j * (THREADS / 8) * LDD, a, aP + j * aJump, j * (THREADS / 8) < aLeft ? aCnt : 0);
                        }
                    }
                    if (transB != 0) {
                        for (@Unroll int j = 0; j < 1024 / THREADS; j++) {
                            ctx.asyncCopyChunk(bs, bD + j * (THREADS / 64) * LDR, b, bP + j * bJump, j * (THREADS / 64) < bLeft ? bCnt : 0);
                        }
                    } else {
                        for (@Unroll int j = 0; j < 1024 / THREADS; j++) {
                            ctx.asyncCopyChunk(bs, bD + j * (THREADS / 8) * LDD, b, bP + j * bJump, j * (THREADS / 8) < bLeft ? bCnt : 0);
                        }
                    }
                } else {
                    if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEPTH, TILE, left, m - row0);
                    else ctx.asyncCopyTile(as, slot, LDD, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEPTH, m - row0, left);
                    if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEPTH, TILE, left, n - col0);
                    else ctx.asyncCopyTile(bs, slot, LDD, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEPTH, n - col0, left);
                }
            }
            ctx.asyncCommit();
            wrSlot = wrSlot + 1 == stages ? 0 : wrSlot + 1;
            if (q >= 0) {
                int ca = rdSlot * STAGE + aLane, cb = rdSlot * STAGE + bLane;
                rdSlot = rdSlot + 1 == stages ? 0 : rdSlot + 1;
                for (@Unroll int s = 0; s < DEPTH; s += 4) {
                    // constant strides per layout, so every load is a base register plus an immediate offset
                    if (transA == 0) {
                        for (@Unroll int i = 0; i < 8; i++) af[i] = as[ca + s * LDR + 8 * i];
                    } else {
                        for (@Unroll int i = 0; i < 8; i++) af[i] = as[ca + s + 8 * i * LDD];
                    }
                    if (transB != 0) {
                        for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s * LDR + 8 * j];
                    } else {
                        for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s + 8 * j * LDD];
                    }
                    for (@Unroll int i = 0; i < 4; i++) {
                        for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                    }
                }
            }
        }
        ctx.asyncWait();
        for (@Unroll int i = 0; i < 4; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /** {@link #gemmChunked} with 16 warps of 32 x 32 (groups of {@link #THREADS16}, at most 128 registers), as {@link #gemmPipelined16}. */
    @Kernel
    @LaunchBounds(maxGroupSize = THREADS16, minGroupsPerUnit = 1)
    public static void gemmChunked16(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                     double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN, int stages) {
        double[] as = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_STAGES * STAGE);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = bandedRow(t, tilesM, tilesN) * TILE, col0 = bandedCol(t, tilesM, tilesN) * TILE;
        if (row0 >= m || col0 >= n) return;
        if ((shape & MmaGemmKernelsF64.LOWER_C) != 0 && row0 + TILE <= col0) return;
        int kEnd = (shape & MmaGemmKernelsF64.UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 3) * 32, wc = (warp >> 2) * 32;
        int fr = lane >> 2, fq = lane & 3;
        int panels = (kEnd + DEPTH - 1) / DEPTH;
        // chunk copies need every source chunk 16-byte aligned: even offsets and leading dimensions
        boolean chunked = ((aOff | lda | bOff | ldb) & 1) == 0;
        // this work-item's chunks of an operand panel: layout rows r, r + step, ... at element c of the row (a layout row
        // is a depth of a depth-major panel, 64 chunks; a tile row of a row-major one, 8 chunks)
        int aCpr = transA == 0 ? TILE / 2 : DEPTH / 2, bCpr = transB != 0 ? TILE / 2 : DEPTH / 2;
        int aR = lid / aCpr, bR = lid / bCpr;
        int aC = 2 * (lid - aR * aCpr), bC = 2 * (lid - bR * bCpr);
        int aStep = 512 / aCpr, bStep = 512 / bCpr;
        int aLd = transA == 0 ? LDR : LDD, bLd = transB != 0 ? LDR : LDD;
        int aDst = aR * aLd + aC, bDst = bR * bLd + bC;
        long aSrc = transA == 0 ? aOff + row0 + aC + (long) aR * lda : aOff + aC + (long) (row0 + aR) * lda;
        long bSrc = transB != 0 ? bOff + col0 + bC + (long) bR * ldb : bOff + bC + (long) (col0 + bR) * ldb;
        long aPanel = transA == 0 ? (long) DEPTH * lda : DEPTH, bPanel = transB != 0 ? (long) DEPTH * ldb : DEPTH;
        // source elements between this work-item's chunks of a panel
        long aJump = (long) aStep * lda, bJump = (long) bStep * ldb;
        // fragment offsets of this lane in a stage: row (or column) wr + fr, depth fq
        int aLane = transA == 0 ? fq * LDR + wr + fr : (wr + fr) * LDD + fq;
        int bLane = transB != 0 ? fq * LDR + wc + fr : (wc + fr) * LDD + fq;
        double[] acc = new double[32];
        double[] af = new double[4];
        double[] bf = new double[4];
        // iteration q issues panel q + stages - 1 and multiplies panel q (q < 0: filling the pipeline)
        int rdSlot = 0, wrSlot = 0;
        for (int q = 1 - stages; q < panels; q++) {
            if (q >= 0) {
                // panel q has landed once at most stages - 2 groups are pending
                if (stages >= 4) ctx.asyncWaitGroups(2);
                else if (stages == 3) ctx.asyncWaitGroups(1);
                else ctx.asyncWaitGroups(0);
                // every share of panel q is visible, and every warp is done with panel q - 1, whose slot is written next
                ctx.localBarrier();
            }
            int next = q + stages - 1;
            if (next < panels) {
                int p0 = next * DEPTH, slot = wrSlot * STAGE, left = kEnd - p0;
                if (chunked) {
                    // rows of the layout left from this work-item's first, and elements of its chunk that exist
                    int aLeft = (transA == 0 ? left : m - row0) - aR, bLeft = (transB != 0 ? left : n - col0) - bR;
                    int aCnt = Math.max(0, Math.min(2, (transA == 0 ? m - row0 : left) - aC));
                    int bCnt = Math.max(0, Math.min(2, (transB != 0 ? n - col0 : left) - bC));
                    long aP = aSrc + next * aPanel, bP = bSrc + next * bPanel;
                    int aD = slot + aDst, bD = slot + bDst;
                    // one branch a layout, so that the local steps and row limits are constants
                    if (transA == 0) {
                        for (@Unroll int j = 0; j < 1024 / THREADS16; j++) {
                            ctx.asyncCopyChunk(as, aD + j * (THREADS16 / 64) * LDR, a, aP + j * aJump, j * (THREADS16 / 64) < aLeft ? aCnt : 0);
                        }
                    } else {
                        for (@Unroll int j = 0; j < 1024 / THREADS16; j++) {
                            ctx.asyncCopyChunk(as, aD + j * (THREADS16 / 8) * LDD, a, aP + j * aJump, j * (THREADS16 / 8) < aLeft ? aCnt : 0);
                        }
                    }
                    if (transB != 0) {
                        for (@Unroll int j = 0; j < 1024 / THREADS16; j++) {
                            ctx.asyncCopyChunk(bs, bD + j * (THREADS16 / 64) * LDR, b, bP + j * bJump, j * (THREADS16 / 64) < bLeft ? bCnt : 0);
                        }
                    } else {
                        for (@Unroll int j = 0; j < 1024 / THREADS16; j++) {
                            ctx.asyncCopyChunk(bs, bD + j * (THREADS16 / 8) * LDD, b, bP + j * bJump, j * (THREADS16 / 8) < bLeft ? bCnt : 0);
                        }
                    }
                } else {
                    if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEPTH, TILE, left, m - row0);
                    else ctx.asyncCopyTile(as, slot, LDD, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEPTH, m - row0, left);
                    if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEPTH, TILE, left, n - col0);
                    else ctx.asyncCopyTile(bs, slot, LDD, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEPTH, n - col0, left);
                }
            }
            ctx.asyncCommit();
            wrSlot = wrSlot + 1 == stages ? 0 : wrSlot + 1;
            if (q >= 0) {
                int ca = rdSlot * STAGE + aLane, cb = rdSlot * STAGE + bLane;
                rdSlot = rdSlot + 1 == stages ? 0 : rdSlot + 1;
                for (@Unroll int s = 0; s < DEPTH; s += 4) {
                    // constant strides per layout, so every load is a base register plus an immediate offset
                    if (transA == 0) {
                        for (@Unroll int i = 0; i < 4; i++) af[i] = as[ca + s * LDR + 8 * i];
                    } else {
                        for (@Unroll int i = 0; i < 4; i++) af[i] = as[ca + s + 8 * i * LDD];
                    }
                    if (transB != 0) {
                        for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s * LDR + 8 * j];
                    } else {
                        for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s + 8 * j * LDD];
                    }
                    for (@Unroll int i = 0; i < 2; i++) {
                        for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                    }
                }
            }
        }
        ctx.asyncWait();
        for (@Unroll int i = 0; i < 2; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /**
     * {@link #gemmChunked16} with panels of depth {@link #DEEP} (8 k-steps between barriers instead of 4, half the
     * barriers, waits and per-panel set-up), at most {@link #DEEP_STAGES} stages: 216 KiB of local memory.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = THREADS16, minGroupsPerUnit = 1)
    public static void gemmChunkedDeep16(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                     double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN, int stages) {
        double[] as = ctx.allocateDoubleLocalArray(DEEP_STAGES * DEEP_STAGE);
        double[] bs = ctx.allocateDoubleLocalArray(DEEP_STAGES * DEEP_STAGE);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = bandedRow(t, tilesM, tilesN) * TILE, col0 = bandedCol(t, tilesM, tilesN) * TILE;
        if (row0 >= m || col0 >= n) return;
        if ((shape & MmaGemmKernelsF64.LOWER_C) != 0 && row0 + TILE <= col0) return;
        int kEnd = (shape & MmaGemmKernelsF64.UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 3) * 32, wc = (warp >> 2) * 32;
        int fr = lane >> 2, fq = lane & 3;
        int panels = (kEnd + DEEP - 1) / DEEP;
        // chunk copies need every source chunk 16-byte aligned: even offsets and leading dimensions
        boolean chunked = ((aOff | lda | bOff | ldb) & 1) == 0;
        // this work-item's chunks of an operand panel: layout rows r, r + step, ... at element c of the row (a layout row
        // is a depth of a depth-major panel, 64 chunks; a tile row of a row-major one, 8 chunks)
        int aCpr = transA == 0 ? TILE / 2 : DEEP / 2, bCpr = transB != 0 ? TILE / 2 : DEEP / 2;
        int aR = lid / aCpr, bR = lid / bCpr;
        int aC = 2 * (lid - aR * aCpr), bC = 2 * (lid - bR * bCpr);
        int aStep = 512 / aCpr, bStep = 512 / bCpr;
        int aLd = transA == 0 ? LDR : LDD_DEEP, bLd = transB != 0 ? LDR : LDD_DEEP;
        int aDst = aR * aLd + aC, bDst = bR * bLd + bC;
        long aSrc = transA == 0 ? aOff + row0 + aC + (long) aR * lda : aOff + aC + (long) (row0 + aR) * lda;
        long bSrc = transB != 0 ? bOff + col0 + bC + (long) bR * ldb : bOff + bC + (long) (col0 + bR) * ldb;
        long aPanel = transA == 0 ? (long) DEEP * lda : DEEP, bPanel = transB != 0 ? (long) DEEP * ldb : DEEP;
        // source elements between this work-item's chunks of a panel
        long aJump = (long) aStep * lda, bJump = (long) bStep * ldb;
        // fragment offsets of this lane in a stage: row (or column) wr + fr, depth fq
        int aLane = transA == 0 ? fq * LDR + wr + fr : (wr + fr) * LDD_DEEP + fq;
        int bLane = transB != 0 ? fq * LDR + wc + fr : (wc + fr) * LDD_DEEP + fq;
        double[] acc = new double[32];
        double[] af = new double[4];
        double[] bf = new double[4];
        // iteration q issues panel q + stages - 1 and multiplies panel q (q < 0: filling the pipeline)
        int rdSlot = 0, wrSlot = 0;
        for (int q = 1 - stages; q < panels; q++) {
            if (q >= 0) {
                // panel q has landed once at most stages - 2 groups are pending
                if (stages >= 3) ctx.asyncWaitGroups(1);
                else ctx.asyncWaitGroups(0);
                // every share of panel q is visible, and every warp is done with panel q - 1, whose slot is written next
                ctx.localBarrier();
            }
            int next = q + stages - 1;
            if (next < panels) {
                int p0 = next * DEEP, slot = wrSlot * DEEP_STAGE, left = kEnd - p0;
                if (chunked) {
                    // rows of the layout left from this work-item's first, and elements of its chunk that exist
                    int aLeft = (transA == 0 ? left : m - row0) - aR, bLeft = (transB != 0 ? left : n - col0) - bR;
                    int aCnt = Math.max(0, Math.min(2, (transA == 0 ? m - row0 : left) - aC));
                    int bCnt = Math.max(0, Math.min(2, (transB != 0 ? n - col0 : left) - bC));
                    long aP = aSrc + next * aPanel, bP = bSrc + next * bPanel;
                    int aD = slot + aDst, bD = slot + bDst;
                    // one branch a layout, so that the local steps and row limits are constants
                    if (transA == 0) {
                        for (@Unroll int j = 0; j < 2048 / THREADS16; j++) {
                            ctx.asyncCopyChunk(as, aD + j * (THREADS16 / 64) * LDR, a, aP + j * aJump, j * (THREADS16 / 64) < aLeft ? aCnt : 0);
                        }
                    } else {
                        for (@Unroll int j = 0; j < 2048 / THREADS16; j++) {
                            ctx.asyncCopyChunk(as, aD + j * (THREADS16 / 16) * LDD_DEEP, a, aP + j * aJump, j * (THREADS16 / 16) < aLeft ? aCnt : 0);
                        }
                    }
                    if (transB != 0) {
                        for (@Unroll int j = 0; j < 2048 / THREADS16; j++) {
                            ctx.asyncCopyChunk(bs, bD + j * (THREADS16 / 64) * LDR, b, bP + j * bJump, j * (THREADS16 / 64) < bLeft ? bCnt : 0);
                        }
                    } else {
                        for (@Unroll int j = 0; j < 2048 / THREADS16; j++) {
                            ctx.asyncCopyChunk(bs, bD + j * (THREADS16 / 16) * LDD_DEEP, b, bP + j * bJump, j * (THREADS16 / 16) < bLeft ? bCnt : 0);
                        }
                    }
                } else {
                    if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEEP, TILE, left, m - row0);
                    else ctx.asyncCopyTile(as, slot, LDD_DEEP, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEEP, m - row0, left);
                    if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEEP, TILE, left, n - col0);
                    else ctx.asyncCopyTile(bs, slot, LDD_DEEP, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEEP, n - col0, left);
                }
            }
            ctx.asyncCommit();
            wrSlot = wrSlot + 1 == stages ? 0 : wrSlot + 1;
            if (q >= 0) {
                int ca = rdSlot * DEEP_STAGE + aLane, cb = rdSlot * DEEP_STAGE + bLane;
                rdSlot = rdSlot + 1 == stages ? 0 : rdSlot + 1;
                for (@Unroll int s = 0; s < DEEP; s += 4) {
                    // constant strides per layout, so every load is a base register plus an immediate offset
                    if (transA == 0) {
                        for (@Unroll int i = 0; i < 4; i++) af[i] = as[ca + s * LDR + 8 * i];
                    } else {
                        for (@Unroll int i = 0; i < 4; i++) af[i] = as[ca + s + 8 * i * LDD_DEEP];
                    }
                    if (transB != 0) {
                        for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s * LDR + 8 * j];
                    } else {
                        for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s + 8 * j * LDD_DEEP];
                    }
                    for (@Unroll int i = 0; i < 2; i++) {
                        for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                    }
                }
            }
        }
        ctx.asyncWait();
        for (@Unroll int i = 0; i < 2; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /**
     * {@link #gemmChunked} (8 warps of 64 x 32, groups of {@link #THREADS}) with panels of depth {@link #DEEP}, as
     * {@link #gemmChunkedDeep16}: each work-item copies 8 chunks of each operand a panel, at most {@link #DEEP_STAGES}
     * stages (216 KiB of local memory). {@code slots} is the number of tiles of the launch (entries x
     * {@code tilesM x tilesN}); a grid of fewer groups loops over them (a persistent launch that leaves units free for
     * work on other queues).
     */
    @Kernel
    public static void gemmChunkedDeep(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                     double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN, int stages,
                                     int slots) {
        double[] as = ctx.allocateDoubleLocalArray(DEEP_STAGES * DEEP_STAGE);
        double[] bs = ctx.allocateDoubleLocalArray(DEEP_STAGES * DEEP_STAGE);
        int perEntry = tilesM * tilesN, groups = ctx.globalGroupSizeX / ctx.localGroupSizeX;
        // slot g = e * perEntry + t is entry e's t-th tile; a grid of fewer groups than slots takes them in turn
        for (int g = ctx.groupIdx; g < slots; g += groups) {
            // every warp is done with the previous tile's panels before this tile's copies overwrite them
            if (g != ctx.groupIdx) ctx.localBarrier();
            int e = g / perEntry;
            int t = g - e * perEntry;
            int d = e * 9;
            int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
            int aOff = desc.get(d + 3), lda = desc.get(d + 4);
            int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
            int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
            int row0 = bandedRow(t, tilesM, tilesN) * TILE, col0 = bandedCol(t, tilesM, tilesN) * TILE;
            // tiles outside C, or above its diagonal with LOWER_C, run no panels and store nothing
            boolean live = row0 < m && col0 < n && ((shape & MmaGemmKernelsF64.LOWER_C) == 0 || row0 + TILE > col0);
            int kEnd = (shape & MmaGemmKernelsF64.UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
            int lid = ctx.localIdx;
            int lane = lid & 31, warp = lid >> 5;
            int wr = (warp & 1) * 64, wc = (warp >> 1) * 32;
            int fr = lane >> 2, fq = lane & 3;
            int panels = live ? (kEnd + DEEP - 1) / DEEP : 0;
            // chunk copies need every source chunk 16-byte aligned: even offsets and leading dimensions
            boolean chunked = ((aOff | lda | bOff | ldb) & 1) == 0;
            // this work-item's chunks of an operand panel: layout rows r, r + step, ... at element c of the row (a layout row
            // is a depth of a depth-major panel, 64 chunks; a tile row of a row-major one, 8 chunks)
            int aCpr = transA == 0 ? TILE / 2 : DEEP / 2, bCpr = transB != 0 ? TILE / 2 : DEEP / 2;
            int aR = lid / aCpr, bR = lid / bCpr;
            int aC = 2 * (lid - aR * aCpr), bC = 2 * (lid - bR * bCpr);
            int aStep = THREADS / aCpr, bStep = THREADS / bCpr;
            int aLd = transA == 0 ? LDR : LDD_DEEP, bLd = transB != 0 ? LDR : LDD_DEEP;
            int aDst = aR * aLd + aC, bDst = bR * bLd + bC;
            long aSrc = transA == 0 ? aOff + row0 + aC + (long) aR * lda : aOff + aC + (long) (row0 + aR) * lda;
            long bSrc = transB != 0 ? bOff + col0 + bC + (long) bR * ldb : bOff + bC + (long) (col0 + bR) * ldb;
            long aPanel = transA == 0 ? (long) DEEP * lda : DEEP, bPanel = transB != 0 ? (long) DEEP * ldb : DEEP;
            // source elements between this work-item's chunks of a panel
            long aJump = (long) aStep * lda, bJump = (long) bStep * ldb;
            // fragment offsets of this lane in a stage: row (or column) wr + fr, depth fq
            int aLane = transA == 0 ? fq * LDR + wr + fr : (wr + fr) * LDD_DEEP + fq;
            int bLane = transB != 0 ? fq * LDR + wc + fr : (wc + fr) * LDD_DEEP + fq;
            double[] acc = new double[64];
            double[] af = new double[8];
            double[] bf = new double[4];
            // iteration q issues panel q + stages - 1 and multiplies panel q (q < 0: filling the pipeline)
            int rdSlot = 0, wrSlot = 0;
            for (int q = 1 - stages; q < panels; q++) {
                if (q >= 0) {
                    // panel q has landed once at most stages - 2 groups are pending
                    if (stages >= 3) ctx.asyncWaitGroups(1);
                    else ctx.asyncWaitGroups(0);
                    // every share of panel q is visible, and every warp is done with panel q - 1, whose slot is written next
                    ctx.localBarrier();
                }
                int next = q + stages - 1;
                if (next < panels) {
                    int p0 = next * DEEP, slot = wrSlot * DEEP_STAGE, left = kEnd - p0;
                    if (chunked) {
                        // rows of the layout left from this work-item's first, and elements of its chunk that exist
                        int aLeft = (transA == 0 ? left : m - row0) - aR, bLeft = (transB != 0 ? left : n - col0) - bR;
                        int aCnt = Math.max(0, Math.min(2, (transA == 0 ? m - row0 : left) - aC));
                        int bCnt = Math.max(0, Math.min(2, (transB != 0 ? n - col0 : left) - bC));
                        long aP = aSrc + next * aPanel, bP = bSrc + next * bPanel;
                        int aD = slot + aDst, bD = slot + bDst;
                        // one branch a layout, so that the local steps and row limits are constants
                        if (transA == 0) {
                            for (@Unroll int j = 0; j < 2048 / THREADS; j++) {
                                ctx.asyncCopyChunk(as, aD + j * (THREADS / 64) * LDR, a, aP + j * aJump, j * (THREADS / 64) < aLeft ? aCnt : 0);
                            }
                        } else {
                            for (@Unroll int j = 0; j < 2048 / THREADS; j++) {
                                ctx.asyncCopyChunk(as, aD + j * (THREADS / 16) * LDD_DEEP, a, aP + j * aJump, j * (THREADS / 16) < aLeft ? aCnt : 0);
                            }
                        }
                        if (transB != 0) {
                            for (@Unroll int j = 0; j < 2048 / THREADS; j++) {
                                ctx.asyncCopyChunk(bs, bD + j * (THREADS / 64) * LDR, b, bP + j * bJump, j * (THREADS / 64) < bLeft ? bCnt : 0);
                            }
                        } else {
                            for (@Unroll int j = 0; j < 2048 / THREADS; j++) {
                                ctx.asyncCopyChunk(bs, bD + j * (THREADS / 16) * LDD_DEEP, b, bP + j * bJump, j * (THREADS / 16) < bLeft ? bCnt : 0);
                            }
                        }
                    } else {
                        if (transA == 0) ctx.asyncCopyTile(as, slot, LDR, a, aOff + row0 + (long) p0 * lda, lda, DEEP, TILE, left, m - row0);
                        else ctx.asyncCopyTile(as, slot, LDD_DEEP, a, aOff + p0 + (long) row0 * lda, lda, TILE, DEEP, m - row0, left);
                        if (transB != 0) ctx.asyncCopyTile(bs, slot, LDR, b, bOff + col0 + (long) p0 * ldb, ldb, DEEP, TILE, left, n - col0);
                        else ctx.asyncCopyTile(bs, slot, LDD_DEEP, b, bOff + p0 + (long) col0 * ldb, ldb, TILE, DEEP, n - col0, left);
                    }
                }
                ctx.asyncCommit();
                wrSlot = wrSlot + 1 == stages ? 0 : wrSlot + 1;
                if (q >= 0) {
                    int ca = rdSlot * DEEP_STAGE + aLane, cb = rdSlot * DEEP_STAGE + bLane;
                    rdSlot = rdSlot + 1 == stages ? 0 : rdSlot + 1;
                    for (@Unroll int s = 0; s < DEEP; s += 4) {
                        // constant strides per layout, so every load is a base register plus an immediate offset
                        if (transA == 0) {
                            for (@Unroll int i = 0; i < 8; i++) af[i] = as[ca + s * LDR + 8 * i];
                        } else {
                            for (@Unroll int i = 0; i < 8; i++) af[i] = as[ca + s + 8 * i * LDD_DEEP];
                        }
                        if (transB != 0) {
                            for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s * LDR + 8 * j];
                        } else {
                            for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[cb + s + 8 * j * LDD_DEEP];
                        }
                        for (@Unroll int i = 0; i < 4; i++) {
                            for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                        }
                    }
                }
            }
            ctx.asyncWait();
            if (live) {
                for (@Unroll int i = 0; i < 4; i++) {
                    for (@Unroll int j = 0; j < 4; j++) {
                        storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
                    }
                }
            }
        }
    }

}
