package dev.squall.linalg.gemm;

import dev.squall.tasks.api.*;

/**
 * Batched DGEMM on FP64 tensor cores ({@link KernelContext#mma16x8x4}): the same marshaled batch,
 * descriptors and grid as {@link GemmKernelsF64#gemmLarge} (128 x 128 tile of C per group of 256),
 * but each of the 8 warps computes a 64 x 32 block of the tile as 4 x 4 tiles of 16 x 8, 16
 * multiply-accumulates per step of 4, from panels of depth {@link #DEPTH} staged in local memory.
 * The 16 x 8 x 4 shape, not 8 x 8 x 4: on an H100 the latter runs at half the FP64 tensor rate
 * (33 against 64.5 TFLOP/s measured), and this kernel went from 23.1 to 35.4 TFLOP/s at 8192^3 with it
 * (cuBLAS 57 on the same run).
 * The panels are stored depth-major with a leading dimension of {@link #LD} = 132: a warp's
 * fragment load touches 4 depths x 8 rows, and 132 = 4 (mod 16 doubles) puts those 32 doubles in
 * distinct bank pairs per half-warp. The next panels are read into registers while the current
 * ones are multiplied, as in {@code gemmLarge}. Only double precision (the instruction is fp64).
 *
 * <p>On CUDA devices of compute capability 8.0 and later the multiply-accumulate is one DMMA
 * instruction; other devices run it through shuffles or local memory (correct, slow), which is
 * what the tests exercise on the JVM and PoCL.
 */
public final class MmaGemmKernelsF64 {
    /** Tile rows and columns per work-group, panel depth, work-items per group, local leading dimension. */
    public static final int TILE = 128, DEPTH = 16, THREADS = 256, LD = TILE + 4;
    /**
     * Bits of {@link #gemmMma}'s {@code shape}: only tiles of C that reach its lower triangle (as
     * {@code lowerOnly} of {@link GemmKernelsF64#gemmLarge}); op(B) is upper triangular, so each
     * tile's sum stops at its last column (a triangular solve by multiplication with an inverse
     * does half the work).
     */
    public static final int LOWER_C = 1, UPPER_B = 2;
    /** Tile rows per band of the group order (see {@link #gemmMma}). */
    static final int BAND = 8;
    /** The small-tile kernel {@link #gemmMma64}: 64 x 64 tile per group of 128, local leading dimension. */
    public static final int TILE64 = 64, THREADS64 = 128, LD64 = TILE64 + 4;
    /** Panel elements each work-item stages per operand: TILE * DEPTH / THREADS, and TILE64 * DEPTH / THREADS64. */
    static final int PER_ITEM = TILE * DEPTH / THREADS;
    /**
     * Panel depth of {@link #gemmMmaAsync}: two panels of each operand, {@code 2 x 2 x DEPTH_ASYNC x LD} doubles
     * (33 KiB), stay within the 48 KiB of local memory a CUDA kernel may declare.
     */
    static final int DEPTH_ASYNC = 8;
    /** Panel elements each work-item of {@link #gemmMmaAsync} moves through registers: TILE * DEPTH_ASYNC / THREADS. */
    static final int PER_ITEM_ASYNC = TILE * DEPTH_ASYNC / THREADS;

    private MmaGemmKernelsF64() {
    }

    /**
     * Element {@code idx} (0 .. tile*DEPTH-1) of the tile x DEPTH panel of {@code op(X)} at row {@code row0}, depth
     * {@code p0} (op(X) is m x k: X itself when {@code trans == 0}, column-major, else X's transpose); zero outside.
     * Consecutive {@code idx} read consecutive addresses. Its local slot is {@link #slot}.
     */
    @DeviceFunction
    static double load(DoubleArray x, int off, int ld, int m, int k, int trans, int row0, int p0, int idx, int tile) {
        int r = trans != 0 ? idx / DEPTH : idx % tile;
        int p = trans != 0 ? idx % DEPTH : idx / tile;
        int gr = row0 + r, gp = p0 + p;
        if (gr >= m || gp >= k) return 0;
        return trans != 0 ? x.get(off + gp + gr * ld) : x.get(off + gr + gp * ld);
    }

    /** Local slot {@code p * (tile + 4) + r} of the element {@link #load} reads for {@code idx}. */
    @DeviceFunction
    static int slot(int trans, int idx, int tile) {
        int r = trans != 0 ? idx / DEPTH : idx % tile;
        int p = trans != 0 ? idx % DEPTH : idx / tile;
        return p * (tile + 4) + r;
    }

    /**
     * Reads this work-item's panel elements of op(A) (rows from row0) and op(B)^T (columns from col0) at depth p0:
     * {@link #PER_ITEM} of each, for tiles of {@code tile} staged by {@code threads} work-items.
     */
    @DeviceFunction
    static void fetch(DoubleArray a, int aOff, int lda, int transA, int row0, DoubleArray b, int bOff, int ldb, int transB, int col0,
                      int m, int n, int k, int p0, int lid, double[] va, double[] vb, int tile, int threads) {
        for (@Unroll int i = 0; i < PER_ITEM; i++) {
            va[i] = load(a, aOff, lda, m, k, transA, row0, p0, lid + i * threads, tile);
            // op(B) is k x n; its transpose is n x k, stored like A: op(B)^T = B^T when transB == 0
            vb[i] = load(b, bOff, ldb, n, k, 1 - transB, col0, p0, lid + i * threads, tile);
        }
    }

    @DeviceFunction
    static void stage(double[] as, double[] bs, double[] va, double[] vb, int transA, int transB, int lid, int tile, int threads) {
        for (@Unroll int i = 0; i < PER_ITEM; i++) {
            as[slot(transA, lid + i * threads, tile)] = va[i];
            bs[slot(1 - transB, lid + i * threads, tile)] = vb[i];
        }
    }

    /**
     * Tile row of the {@code t}-th group of an entry. Groups go in bands of {@link #BAND} tile rows, column by column
     * inside a band: the ~132 groups an H100 holds at once then share 8 row panels of A and ~16 column panels of B
     * in L2, where column-major tile order streams all of A once per tile column. (No change measured at 8192^3 on
     * an H100, where the L2 already kept up; it bounds the traffic for larger operands.)
     */
    @DeviceFunction
    static int bandedRow(int t, int tilesM, int tilesN) {
        int first = t / (BAND * tilesN) * BAND;
        return first + (t - first * tilesN) % Math.min(BAND, tilesM - first);
    }

    /** Tile column of the {@code t}-th group (see {@link #bandedRow}). */
    @DeviceFunction
    static int bandedCol(int t, int tilesM, int tilesN) {
        int first = t / (BAND * tilesN) * BAND;
        return (t - first * tilesN) / Math.min(BAND, tilesM - first);
    }

    @DeviceFunction
    static void store(DoubleArray c, int cOff, int ldc, int m, int n, int r, int col, double alpha, double beta, double v) {
        if (r < m && col < n) {
            int idx = cOff + r + col * ldc;
            if (beta == 0) c.set(idx, alpha * v);
            else c.set(idx, alpha * v + beta * c.get(idx));
        }
    }

    /**
     * Stores this lane's part of one 16 x 8 tile of {@link KernelContext#mma16x8x4}: {@code acc[at + 2h + i]} is
     * C({@code r + 8h}, {@code q + i}), where {@code r} and {@code q} are the lane's first row and column.
     */
    @DeviceFunction
    static void storeFragment(DoubleArray c, int cOff, int ldc, int m, int n, int r, int q, double alpha, double beta, double[] acc, int at) {
        for (@Unroll int h = 0; h < 2; h++) {
            store(c, cOff, ldc, m, n, r + 8 * h, q, alpha, beta, acc[at + 2 * h]);
            store(c, cOff, ldc, m, n, r + 8 * h, q + 1, alpha, beta, acc[at + 2 * h + 1]);
        }
    }

    /**
     * {@code C_e = alpha op(A_e) op(B_e) + beta C_e}; arguments, grid and {@code shape & }{@link #LOWER_C} as
     * {@link GemmKernelsF64#gemmLarge} with tiles of {@link #TILE} (groups of {@link #THREADS}).
     * Warp {@code w} owns rows {@code 64 (w % 2) ..} and columns {@code 32 (w / 2) ..} of the tile;
     * its accumulator {@code acc[(4 x 4 tiles) x 4]} holds, for tile (i, j), C(16i + 8h + lane/4, 8j + 2(lane%4) + 0..1)
     * at {@code (i * 4 + j) * 4 + 2h + 0..1}.
     */
    @Kernel
    public static void gemmMma(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                               double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(DEPTH * LD);
        double[] bs = ctx.allocateDoubleLocalArray(DEPTH * LD);
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
        if ((shape & LOWER_C) != 0 && row0 + TILE <= col0) return;
        // op(B) upper triangular: rows of op(B) past this tile's last column are zero
        int kEnd = (shape & UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 1) * 64, wc = (warp >> 1) * 32;
        int fr = lane >> 2, fq = lane & 3;
        double[] acc = new double[64];
        double[] va = new double[PER_ITEM];
        double[] vb = new double[PER_ITEM];
        double[] af = new double[8];
        double[] bf = new double[4];
        if (kEnd > 0) fetch(a, aOff, lda, transA, row0, b, bOff, ldb, transB, col0, m, n, k, 0, lid, va, vb, TILE, THREADS);
        for (int p0 = 0; p0 < kEnd; p0 += DEPTH) {
            stage(as, bs, va, vb, transA, transB, lid, TILE, THREADS);
            ctx.localBarrier();
            int next = p0 + DEPTH;
            if (next < kEnd) fetch(a, aOff, lda, transA, row0, b, bOff, ldb, transB, col0, m, n, k, next, lid, va, vb, TILE, THREADS);
            for (int s = 0; s < DEPTH; s += 4) {
                int p = (s + fq) * LD;
                for (@Unroll int i = 0; i < 8; i++) af[i] = as[p + wr + 8 * i + fr];
                for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[p + wc + 8 * j + fr];
                for (@Unroll int i = 0; i < 4; i++) {
                    for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                }
            }
            ctx.localBarrier();
        }
        for (@Unroll int i = 0; i < 4; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /**
     * Element {@code idx} (0 .. TILE*DEPTH_ASYNC-1) of the TILE x DEPTH_ASYNC panel at row {@code row0}, depth
     * {@code p0} of an operand stored along the depth (element (r, p) at {@code off + p + r ld}); zero outside
     * m x k. Consecutive {@code idx} read consecutive addresses; the element's local slot is
     * {@code (idx % DEPTH_ASYNC) * LD + idx / DEPTH_ASYNC}.
     */
    @DeviceFunction
    static double loadAlongDepth(DoubleArray x, int off, int ld, int m, int k, int row0, int p0, int idx) {
        int gr = row0 + idx / DEPTH_ASYNC, gp = p0 + idx % DEPTH_ASYNC;
        if (gr >= m || gp >= k) return 0;
        return x.get(off + gp + gr * ld);
    }

    /**
     * {@link #gemmMma} with the panels double-buffered in local memory and staged by {@link KernelContext#asyncCopy}:
     * panel t + 1 is copied while panel t is multiplied, with one wait and one barrier a panel, in panels of
     * {@link #DEPTH_ASYNC}. Same arguments, grid (groups of {@link #THREADS}), {@code shape} bits and warp layout.
     * An operand whose rows are contiguous at each depth (op(A) = A, and op(B)^T = B when op(B) = B^T) is copied a
     * depth at a time, {@code TILE} elements a copy; the other layout (a run along the depth per row) would need a copy
     * per row, so it goes through registers as in gemmMma: loaded before the previous panel's products, stored after.
     * Depths past k are zero in the copied operand (written, not copied); its rows past m or n are not copied and feed
     * only rows and columns of the tile that are not stored.
     */
    @Kernel
    public static void gemmMmaAsync(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                    double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(2 * DEPTH_ASYNC * LD);
        double[] bs = ctx.allocateDoubleLocalArray(2 * DEPTH_ASYNC * LD);
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
        if ((shape & LOWER_C) != 0 && row0 + TILE <= col0) return;
        int kEnd = (shape & UPPER_B) != 0 ? Math.min(k, col0 + TILE) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 1) * 64, wc = (warp >> 1) * 32;
        int fr = lane >> 2, fq = lane & 3;
        // op(A) = A is column-major: each depth's rows are one run; op(B)^T = B (op(B) = B^T) likewise
        int copyA = transA == 0 ? 1 : 0, copyB = transB != 0 ? 1 : 0;
        int rowsA = Math.min(TILE, m - row0), colsB = Math.min(TILE, n - col0);
        int panels = (kEnd + DEPTH_ASYNC - 1) / DEPTH_ASYNC;
        double[] acc = new double[64];
        double[] va = new double[PER_ITEM_ASYNC];
        double[] vb = new double[PER_ITEM_ASYNC];
        double[] af = new double[8];
        double[] bf = new double[4];
        // step t starts panel t into buffer t % 2, multiplies panel t - 1, and waits for panel t
        for (int step = 0; step <= panels; step++) {
            int p0 = step * DEPTH_ASYNC;
            int buf = (step & 1) * DEPTH_ASYNC * LD;
            int depths = step < panels ? DEPTH_ASYNC : 0;
            for (int p = 0; p < depths * copyA; p++) {
                ctx.asyncCopy(as, buf + p * LD, a, aOff + row0 + (long) (p0 + p) * lda, p0 + p < k ? rowsA : 0);
                if (p0 + p >= k && lid < TILE) as[buf + p * LD + lid] = 0;
            }
            for (int p = 0; p < depths * copyB; p++) {
                ctx.asyncCopy(bs, buf + p * LD, b, bOff + col0 + (long) (p0 + p) * ldb, p0 + p < k ? colsB : 0);
                if (p0 + p >= k && lid < TILE) bs[buf + p * LD + lid] = 0;
            }
            if (depths > 0) {
                for (@Unroll int i = 0; i < PER_ITEM_ASYNC; i++) {
                    int idx = lid + i * THREADS;
                    if (copyA == 0) va[i] = loadAlongDepth(a, aOff, lda, m, k, row0, p0, idx);
                    if (copyB == 0) vb[i] = loadAlongDepth(b, bOff, ldb, n, k, col0, p0, idx);
                }
            }
            int cur = ((step + 1) & 1) * DEPTH_ASYNC * LD;
            for (int s = 0; s < (step > 0 ? DEPTH_ASYNC : 0); s += 4) {
                int p = cur + (s + fq) * LD;
                for (@Unroll int i = 0; i < 8; i++) af[i] = as[p + wr + 8 * i + fr];
                for (@Unroll int j = 0; j < 4; j++) bf[j] = bs[p + wc + 8 * j + fr];
                for (@Unroll int i = 0; i < 4; i++) {
                    for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                }
            }
            if (depths > 0) {
                for (@Unroll int i = 0; i < PER_ITEM_ASYNC; i++) {
                    int idx = lid + i * THREADS;
                    int slot = buf + (idx % DEPTH_ASYNC) * LD + idx / DEPTH_ASYNC;
                    if (copyA == 0) as[slot] = va[i];
                    if (copyB == 0) bs[slot] = vb[i];
                }
            }
            ctx.asyncWait();
            ctx.localBarrier();
        }
        for (@Unroll int i = 0; i < 4; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }

    /**
     * {@link #gemmMma} for small products (batched 64 x 64 blocks, the H2 sweeps' shapes): tiles of {@link #TILE64}
     * per group of {@link #THREADS64}, three groups to an SM (at most 170 registers a work-item; without the bound
     * nvcc took 254 and two fitted) so their loads overlap; the 4 warps compute 32 x 32
     * each as 2 x 4 tiles of 16 x 8. Same arguments and {@code shape} bits; groups in column-major tile order.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = THREADS64, minGroupsPerUnit = 3)
    public static void gemmMma64(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                 double alpha, double beta, int transA, int transB, int shape, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(DEPTH * LD64);
        double[] bs = ctx.allocateDoubleLocalArray(DEPTH * LD64);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = (t % tilesM) * TILE64, col0 = (t / tilesM) * TILE64;
        if (row0 >= m || col0 >= n) return;
        if ((shape & LOWER_C) != 0 && row0 + TILE64 <= col0) return;
        int kEnd = (shape & UPPER_B) != 0 ? Math.min(k, col0 + TILE64) : k;
        int lid = ctx.localIdx;
        int lane = lid & 31, warp = lid >> 5;
        int wr = (warp & 1) * 32, wc = (warp >> 1) * 32;
        int fr = lane >> 2, fq = lane & 3;
        double[] acc = new double[32];
        double[] va = new double[PER_ITEM];
        double[] vb = new double[PER_ITEM];
        double[] af = new double[4];
        double[] bf = new double[4];
        if (kEnd > 0) fetch(a, aOff, lda, transA, row0, b, bOff, ldb, transB, col0, m, n, k, 0, lid, va, vb, TILE64, THREADS64);
        for (int p0 = 0; p0 < kEnd; p0 += DEPTH) {
            stage(as, bs, va, vb, transA, transB, lid, TILE64, THREADS64);
            ctx.localBarrier();
            int next = p0 + DEPTH;
            if (next < kEnd) fetch(a, aOff, lda, transA, row0, b, bOff, ldb, transB, col0, m, n, k, next, lid, va, vb, TILE64, THREADS64);
            for (int s = 0; s < DEPTH; s += 4) {
                int p = (s + fq) * LD64;
                for (@Unroll int i = 0; i < 4; i++) {
                    af[i] = as[p + wr + 8 * i + fr];
                    bf[i] = bs[p + wc + 8 * i + fr];
                }
                for (@Unroll int i = 0; i < 2; i++) {
                    for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * i], af[2 * i + 1], bf[j], acc, (i * 4 + j) * 4);
                }
            }
            ctx.localBarrier();
        }
        for (@Unroll int i = 0; i < 2; i++) {
            for (@Unroll int j = 0; j < 4; j++) {
                storeFragment(c, cOff, ldc, m, n, row0 + wr + 16 * i + fr, col0 + wc + 8 * j + 2 * fq, alpha, beta, acc, (i * 4 + j) * 4);
            }
        }
    }
}
