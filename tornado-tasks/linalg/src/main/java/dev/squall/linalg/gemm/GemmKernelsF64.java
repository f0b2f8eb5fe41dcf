package dev.squall.linalg.gemm;

import dev.squall.tasks.api.*;

/**
 * Batched GEMM and GEMV kernels in double precision on the marshaled form: one data array per
 * operand and an {@link IntArray} of per-entry descriptors (see {@link BatchDescriptor}), so
 * one launch covers uniform and variable-size batches alike.
 *
 * <p>GEMM: each work-group of 256 work-items computes one 64 x 64 tile of one entry's
 * {@code C = alpha op(A) op(B) + beta C}, staging 64 x 16 panels of {@code op(A)} and
 * {@code op(B)} in local memory (B's with an odd leading dimension, so its column-wise stores
 * do not collide in one bank) while the next panels are read into registers; each work-item
 * owns a 4 x 4 register block (rows
 * {@code tx + 16 i}, columns {@code ty + 16 j}) so consecutive work-items store consecutive rows.
 * Work-groups whose tile lies outside their entry return before the first barrier (uniformly).
 * {@link #gemmLarge} is the 128 x 128, 8 x 8-per-work-item variant for large products.
 *
 * <p>The compiler generates the single-precision twin {@code GemmKernelsF32} from this class ({@code @Fp32Variant}).
 */
@dev.squall.tasks.api.Fp32Variant("GemmKernelsF32")
public final class GemmKernelsF64 {
    /** Tile rows and columns per work-group, panel depth, work-items per group. */
    public static final int TILE = 64, DEPTH = 16, THREADS = 256;
    /** Leading dimension of the 64-wide B panel in local memory: odd, so a column's DEPTH stores hit distinct banks. */
    public static final int PAD_LD = TILE + 1;
    /** The large-tile kernel: 128 x 128 tile per group of 256, 8 x 8 register block per work-item, panel depth 8. */
    public static final int BIG_TILE = 128, BIG_DEPTH = 8, BIG_LD = BIG_TILE + 1;
    /** GEMV rows per work-group. */
    public static final int GEMV_ROWS = 64;

    private GemmKernelsF64() {
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
     * Element {@code idx} (0..tile*depth-1) of the {@code tile x depth} panel of {@code op(A)} that
     * starts at row {@code row0}, depth {@code p0}; zero outside the matrix. The index order follows
     * the memory order of A so that consecutive work-items read consecutive addresses.
     */
    @DeviceFunction
    static double loadA(DoubleArray a, int aOff, int lda, int m, int k, int transA, int row0, int p0, int idx, int tile) {
        int depth = THREADS * 4 / tile;
        int r = transA != 0 ? idx / depth : idx % tile;
        int p = transA != 0 ? idx % depth : idx / tile;
        int gr = row0 + r, gp = p0 + p;
        if (gr >= m || gp >= k) return 0;
        return transA != 0 ? a.get(aOff + gp + gr * lda) : a.get(aOff + gr + gp * lda);
    }

    /** Local slot ({@code p * ld + r}) of element {@code idx} loaded by {@link #loadA}. */
    @DeviceFunction
    static int slotA(int transA, int idx, int tile, int ld) {
        int depth = THREADS * 4 / tile;
        int r = transA != 0 ? idx / depth : idx % tile;
        int p = transA != 0 ? idx % depth : idx / tile;
        return p * ld + r;
    }

    /** Element {@code idx} of the {@code depth x tile} panel of {@code op(B)} at depth {@code p0}, column {@code col0}. */
    @DeviceFunction
    static double loadB(DoubleArray b, int bOff, int ldb, int n, int k, int transB, int col0, int p0, int idx, int tile) {
        int depth = THREADS * 4 / tile;
        int q = transB != 0 ? idx / tile : idx % depth;
        int c = transB != 0 ? idx % tile : idx / depth;
        int gq = p0 + q, gc = col0 + c;
        if (gq >= k || gc >= n) return 0;
        return transB != 0 ? b.get(bOff + gc + gq * ldb) : b.get(bOff + gq + gc * ldb);
    }

    /** Local slot ({@code q * ld + c}) of element {@code idx} loaded by {@link #loadB}. */
    @DeviceFunction
    static int slotB(int transB, int idx, int tile, int depth, int ld) {
        int q = transB != 0 ? idx / tile : idx % depth;
        int c = transB != 0 ? idx % tile : idx / depth;
        return q * ld + c;
    }

    /**
     * {@code C_e = alpha op(A_e) op(B_e) + beta C_e} for every entry {@code e}. Grid: one group of
     * {@link #THREADS} per (entry, tile row, tile column), {@code tilesM x tilesN} tiles per entry.
     * With {@code lowerOnly != 0} tiles entirely above the diagonal are skipped (a SYRK-style update).
     * With {@code beta == 0}, {@code C} is not read.
     */
    @Kernel
    public static void gemm(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                            double alpha, double beta, int transA, int transB, int lowerOnly, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(DEPTH * TILE);
        double[] bs = ctx.allocateDoubleLocalArray(DEPTH * PAD_LD);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = (t % tilesM) * TILE, col0 = (t / tilesM) * TILE;
        if (row0 >= m || col0 >= n) return;
        if (lowerOnly != 0 && row0 + TILE <= col0) return;
        int lid = ctx.localIdx;
        int tx = lid & 15, ty = lid >> 4;
        double c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
        double c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
        // the next panel is read into registers while the current one is multiplied (global latency hidden by the FMAs)
        double va0 = 0, va1 = 0, va2 = 0, va3 = 0, vb0 = 0, vb1 = 0, vb2 = 0, vb3 = 0;
        if (k > 0) {
            va0 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid, TILE);
            va1 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid + THREADS, TILE);
            va2 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid + 2 * THREADS, TILE);
            va3 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid + 3 * THREADS, TILE);
            vb0 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid, TILE);
            vb1 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid + THREADS, TILE);
            vb2 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid + 2 * THREADS, TILE);
            vb3 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid + 3 * THREADS, TILE);
        }
        for (int p0 = 0; p0 < k; p0 += DEPTH) {
            as[slotA(transA, lid, TILE, TILE)] = va0;
            as[slotA(transA, lid + THREADS, TILE, TILE)] = va1;
            as[slotA(transA, lid + 2 * THREADS, TILE, TILE)] = va2;
            as[slotA(transA, lid + 3 * THREADS, TILE, TILE)] = va3;
            bs[slotB(transB, lid, TILE, DEPTH, PAD_LD)] = vb0;
            bs[slotB(transB, lid + THREADS, TILE, DEPTH, PAD_LD)] = vb1;
            bs[slotB(transB, lid + 2 * THREADS, TILE, DEPTH, PAD_LD)] = vb2;
            bs[slotB(transB, lid + 3 * THREADS, TILE, DEPTH, PAD_LD)] = vb3;
            ctx.localBarrier();
            int next = p0 + DEPTH;
            if (next < k) {
                va0 = loadA(a, aOff, lda, m, k, transA, row0, next, lid, TILE);
                va1 = loadA(a, aOff, lda, m, k, transA, row0, next, lid + THREADS, TILE);
                va2 = loadA(a, aOff, lda, m, k, transA, row0, next, lid + 2 * THREADS, TILE);
                va3 = loadA(a, aOff, lda, m, k, transA, row0, next, lid + 3 * THREADS, TILE);
                vb0 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid, TILE);
                vb1 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid + THREADS, TILE);
                vb2 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid + 2 * THREADS, TILE);
                vb3 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid + 3 * THREADS, TILE);
            }
            for (int p = 0; p < DEPTH; p++) {
                int ap = p * TILE + tx, bp = p * PAD_LD + ty;
                double a0 = as[ap], a1 = as[ap + 16], a2 = as[ap + 32], a3 = as[ap + 48];
                double b0 = bs[bp], b1 = bs[bp + 16], b2 = bs[bp + 32], b3 = bs[bp + 48];
                c00 += a0 * b0; c01 += a0 * b1; c02 += a0 * b2; c03 += a0 * b3;
                c10 += a1 * b0; c11 += a1 * b1; c12 += a1 * b2; c13 += a1 * b3;
                c20 += a2 * b0; c21 += a2 * b1; c22 += a2 * b2; c23 += a2 * b3;
                c30 += a3 * b0; c31 += a3 * b1; c32 += a3 * b2; c33 += a3 * b3;
            }
            ctx.localBarrier();
        }
        int r0 = row0 + tx, q0 = col0 + ty;
        store(c, cOff, ldc, m, n, r0, q0, alpha, beta, c00);
        store(c, cOff, ldc, m, n, r0, q0 + 16, alpha, beta, c01);
        store(c, cOff, ldc, m, n, r0, q0 + 32, alpha, beta, c02);
        store(c, cOff, ldc, m, n, r0, q0 + 48, alpha, beta, c03);
        store(c, cOff, ldc, m, n, r0 + 16, q0, alpha, beta, c10);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 16, alpha, beta, c11);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 32, alpha, beta, c12);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 48, alpha, beta, c13);
        store(c, cOff, ldc, m, n, r0 + 32, q0, alpha, beta, c20);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 16, alpha, beta, c21);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 32, alpha, beta, c22);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 48, alpha, beta, c23);
        store(c, cOff, ldc, m, n, r0 + 48, q0, alpha, beta, c30);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 16, alpha, beta, c31);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 32, alpha, beta, c32);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 48, alpha, beta, c33);
    }

    /**
     * Like {@link #gemm} with a {@link #BIG_TILE} x {@link #BIG_TILE} tile per group of
     * {@link #THREADS}: each work-item keeps an 8 x 8 block of C in 64 scalar registers (rows
     * {@code tx + 16 i}, columns {@code ty + 16 j}, written out explicitly because the kernel
     * language has no unroll pragma) and reads 16 local values per 64 multiply-adds, the ratio at
     * which FP64 FMA throughput, not local-memory bandwidth, bounds the loop. Panels of depth
     * {@link #BIG_DEPTH}; the next panel is prefetched into registers during the multiply. For
     * large products (the blocked Cholesky's trailing updates, one big GEMM).
     */
    @Kernel
    public static void gemmLarge(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                 double alpha, double beta, int transA, int transB, int lowerOnly, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(BIG_DEPTH * BIG_LD);
        double[] bs = ctx.allocateDoubleLocalArray(BIG_DEPTH * BIG_LD);
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = (t % tilesM) * BIG_TILE, col0 = (t / tilesM) * BIG_TILE;
        if (row0 >= m || col0 >= n) return;
        if (lowerOnly != 0 && row0 + BIG_TILE <= col0) return;
        int lid = ctx.localIdx;
        int tx = lid & 15, ty = lid >> 4;
        double c00 = 0, c01 = 0, c02 = 0, c03 = 0, c04 = 0, c05 = 0, c06 = 0, c07 = 0;
        double c10 = 0, c11 = 0, c12 = 0, c13 = 0, c14 = 0, c15 = 0, c16 = 0, c17 = 0;
        double c20 = 0, c21 = 0, c22 = 0, c23 = 0, c24 = 0, c25 = 0, c26 = 0, c27 = 0;
        double c30 = 0, c31 = 0, c32 = 0, c33 = 0, c34 = 0, c35 = 0, c36 = 0, c37 = 0;
        double c40 = 0, c41 = 0, c42 = 0, c43 = 0, c44 = 0, c45 = 0, c46 = 0, c47 = 0;
        double c50 = 0, c51 = 0, c52 = 0, c53 = 0, c54 = 0, c55 = 0, c56 = 0, c57 = 0;
        double c60 = 0, c61 = 0, c62 = 0, c63 = 0, c64 = 0, c65 = 0, c66 = 0, c67 = 0;
        double c70 = 0, c71 = 0, c72 = 0, c73 = 0, c74 = 0, c75 = 0, c76 = 0, c77 = 0;
        double va0 = 0, va1 = 0, va2 = 0, va3 = 0, vb0 = 0, vb1 = 0, vb2 = 0, vb3 = 0;
        if (k > 0) {
            va0 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid, BIG_TILE);
            va1 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid + THREADS, BIG_TILE);
            va2 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid + 2 * THREADS, BIG_TILE);
            va3 = loadA(a, aOff, lda, m, k, transA, row0, 0, lid + 3 * THREADS, BIG_TILE);
            vb0 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid, BIG_TILE);
            vb1 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid + THREADS, BIG_TILE);
            vb2 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid + 2 * THREADS, BIG_TILE);
            vb3 = loadB(b, bOff, ldb, n, k, transB, col0, 0, lid + 3 * THREADS, BIG_TILE);
        }
        for (int p0 = 0; p0 < k; p0 += BIG_DEPTH) {
            as[slotA(transA, lid, BIG_TILE, BIG_LD)] = va0;
            as[slotA(transA, lid + THREADS, BIG_TILE, BIG_LD)] = va1;
            as[slotA(transA, lid + 2 * THREADS, BIG_TILE, BIG_LD)] = va2;
            as[slotA(transA, lid + 3 * THREADS, BIG_TILE, BIG_LD)] = va3;
            bs[slotB(transB, lid, BIG_TILE, BIG_DEPTH, BIG_LD)] = vb0;
            bs[slotB(transB, lid + THREADS, BIG_TILE, BIG_DEPTH, BIG_LD)] = vb1;
            bs[slotB(transB, lid + 2 * THREADS, BIG_TILE, BIG_DEPTH, BIG_LD)] = vb2;
            bs[slotB(transB, lid + 3 * THREADS, BIG_TILE, BIG_DEPTH, BIG_LD)] = vb3;
            ctx.localBarrier();
            int next = p0 + BIG_DEPTH;
            if (next < k) {
                va0 = loadA(a, aOff, lda, m, k, transA, row0, next, lid, BIG_TILE);
                va1 = loadA(a, aOff, lda, m, k, transA, row0, next, lid + THREADS, BIG_TILE);
                va2 = loadA(a, aOff, lda, m, k, transA, row0, next, lid + 2 * THREADS, BIG_TILE);
                va3 = loadA(a, aOff, lda, m, k, transA, row0, next, lid + 3 * THREADS, BIG_TILE);
                vb0 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid, BIG_TILE);
                vb1 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid + THREADS, BIG_TILE);
                vb2 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid + 2 * THREADS, BIG_TILE);
                vb3 = loadB(b, bOff, ldb, n, k, transB, col0, next, lid + 3 * THREADS, BIG_TILE);
            }
            for (int p = 0; p < BIG_DEPTH; p++) {
                int ap = p * BIG_LD + tx, bp = p * BIG_LD + ty;
                double a0 = as[ap], a1 = as[ap + 16], a2 = as[ap + 32], a3 = as[ap + 48], a4 = as[ap + 64], a5 = as[ap + 80], a6 = as[ap + 96], a7 = as[ap + 112];
                double b0 = bs[bp], b1 = bs[bp + 16], b2 = bs[bp + 32], b3 = bs[bp + 48], b4 = bs[bp + 64], b5 = bs[bp + 80], b6 = bs[bp + 96], b7 = bs[bp + 112];
                c00 += a0 * b0; c01 += a0 * b1; c02 += a0 * b2; c03 += a0 * b3; c04 += a0 * b4; c05 += a0 * b5; c06 += a0 * b6; c07 += a0 * b7;
                c10 += a1 * b0; c11 += a1 * b1; c12 += a1 * b2; c13 += a1 * b3; c14 += a1 * b4; c15 += a1 * b5; c16 += a1 * b6; c17 += a1 * b7;
                c20 += a2 * b0; c21 += a2 * b1; c22 += a2 * b2; c23 += a2 * b3; c24 += a2 * b4; c25 += a2 * b5; c26 += a2 * b6; c27 += a2 * b7;
                c30 += a3 * b0; c31 += a3 * b1; c32 += a3 * b2; c33 += a3 * b3; c34 += a3 * b4; c35 += a3 * b5; c36 += a3 * b6; c37 += a3 * b7;
                c40 += a4 * b0; c41 += a4 * b1; c42 += a4 * b2; c43 += a4 * b3; c44 += a4 * b4; c45 += a4 * b5; c46 += a4 * b6; c47 += a4 * b7;
                c50 += a5 * b0; c51 += a5 * b1; c52 += a5 * b2; c53 += a5 * b3; c54 += a5 * b4; c55 += a5 * b5; c56 += a5 * b6; c57 += a5 * b7;
                c60 += a6 * b0; c61 += a6 * b1; c62 += a6 * b2; c63 += a6 * b3; c64 += a6 * b4; c65 += a6 * b5; c66 += a6 * b6; c67 += a6 * b7;
                c70 += a7 * b0; c71 += a7 * b1; c72 += a7 * b2; c73 += a7 * b3; c74 += a7 * b4; c75 += a7 * b5; c76 += a7 * b6; c77 += a7 * b7;
            }
            ctx.localBarrier();
        }
        int r0 = row0 + tx, q0 = col0 + ty;
        store(c, cOff, ldc, m, n, r0, q0, alpha, beta, c00);
        store(c, cOff, ldc, m, n, r0, q0 + 16, alpha, beta, c01);
        store(c, cOff, ldc, m, n, r0, q0 + 32, alpha, beta, c02);
        store(c, cOff, ldc, m, n, r0, q0 + 48, alpha, beta, c03);
        store(c, cOff, ldc, m, n, r0, q0 + 64, alpha, beta, c04);
        store(c, cOff, ldc, m, n, r0, q0 + 80, alpha, beta, c05);
        store(c, cOff, ldc, m, n, r0, q0 + 96, alpha, beta, c06);
        store(c, cOff, ldc, m, n, r0, q0 + 112, alpha, beta, c07);
        store(c, cOff, ldc, m, n, r0 + 16, q0, alpha, beta, c10);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 16, alpha, beta, c11);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 32, alpha, beta, c12);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 48, alpha, beta, c13);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 64, alpha, beta, c14);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 80, alpha, beta, c15);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 96, alpha, beta, c16);
        store(c, cOff, ldc, m, n, r0 + 16, q0 + 112, alpha, beta, c17);
        store(c, cOff, ldc, m, n, r0 + 32, q0, alpha, beta, c20);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 16, alpha, beta, c21);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 32, alpha, beta, c22);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 48, alpha, beta, c23);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 64, alpha, beta, c24);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 80, alpha, beta, c25);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 96, alpha, beta, c26);
        store(c, cOff, ldc, m, n, r0 + 32, q0 + 112, alpha, beta, c27);
        store(c, cOff, ldc, m, n, r0 + 48, q0, alpha, beta, c30);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 16, alpha, beta, c31);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 32, alpha, beta, c32);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 48, alpha, beta, c33);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 64, alpha, beta, c34);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 80, alpha, beta, c35);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 96, alpha, beta, c36);
        store(c, cOff, ldc, m, n, r0 + 48, q0 + 112, alpha, beta, c37);
        store(c, cOff, ldc, m, n, r0 + 64, q0, alpha, beta, c40);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 16, alpha, beta, c41);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 32, alpha, beta, c42);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 48, alpha, beta, c43);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 64, alpha, beta, c44);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 80, alpha, beta, c45);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 96, alpha, beta, c46);
        store(c, cOff, ldc, m, n, r0 + 64, q0 + 112, alpha, beta, c47);
        store(c, cOff, ldc, m, n, r0 + 80, q0, alpha, beta, c50);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 16, alpha, beta, c51);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 32, alpha, beta, c52);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 48, alpha, beta, c53);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 64, alpha, beta, c54);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 80, alpha, beta, c55);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 96, alpha, beta, c56);
        store(c, cOff, ldc, m, n, r0 + 80, q0 + 112, alpha, beta, c57);
        store(c, cOff, ldc, m, n, r0 + 96, q0, alpha, beta, c60);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 16, alpha, beta, c61);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 32, alpha, beta, c62);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 48, alpha, beta, c63);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 64, alpha, beta, c64);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 80, alpha, beta, c65);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 96, alpha, beta, c66);
        store(c, cOff, ldc, m, n, r0 + 96, q0 + 112, alpha, beta, c67);
        store(c, cOff, ldc, m, n, r0 + 112, q0, alpha, beta, c70);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 16, alpha, beta, c71);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 32, alpha, beta, c72);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 48, alpha, beta, c73);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 64, alpha, beta, c74);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 80, alpha, beta, c75);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 96, alpha, beta, c76);
        store(c, cOff, ldc, m, n, r0 + 112, q0 + 112, alpha, beta, c77);
    }

    /**
     * {@code y_e = alpha op(A_e) x_e + beta y_e}. Descriptor per entry (6 ints): rows and columns
     * of {@code A_e} (as stored), offset and leading dimension of {@code A_e}, offsets of
     * {@code x_e} and {@code y_e}. Grid: {@code blocks} groups of {@link #GEMV_ROWS} per entry,
     * one output element per work-item.
     */
    @Kernel
    public static void gemv(KernelContext ctx, DoubleArray a, DoubleArray x, DoubleArray y, IntArray desc,
                            double alpha, double beta, int transA, int blocks) {
        int e = ctx.groupIdx / blocks;
        int i = (ctx.groupIdx - e * blocks) * GEMV_ROWS + ctx.localIdx;
        int d = e * 6;
        int rows = desc.get(d), cols = desc.get(d + 1), aOff = desc.get(d + 2), lda = desc.get(d + 3);
        int xOff = desc.get(d + 4), yOff = desc.get(d + 5);
        int outLen = transA != 0 ? cols : rows;
        int inLen = transA != 0 ? rows : cols;
        if (i >= outLen) return;
        double s = 0;
        if (transA != 0) {
            for (int j = 0; j < inLen; j++) s += a.get(aOff + j + i * lda) * x.get(xOff + j);
        } else {
            for (int j = 0; j < inLen; j++) s += a.get(aOff + i + j * lda) * x.get(xOff + j);
        }
        if (beta == 0) y.set(yOff + i, alpha * s);
        else y.set(yOff + i, alpha * s + beta * y.get(yOff + i));
    }
}
