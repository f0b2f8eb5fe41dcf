package dev.squall.linalg.gemm;

import dev.squall.tasks.api.*;

/**
 * Batched GEMM and GEMV kernels in float precision on the marshaled form: one data array per
 * operand and an {@link IntArray} of per-entry descriptors (see {@link BatchDescriptor}), so
 * one launch covers uniform and variable-size batches alike.
 *
 * <p>GEMM: each work-group of 256 work-items computes one 64 x 64 tile of one entry's
 * {@code C = alpha op(A) op(B) + beta C}, staging 64 x 16 panels of {@code op(A)} and
 * {@code op(B)} in local memory; each work-item owns a 4 x 4 register block (rows
 * {@code tx + 16 i}, columns {@code ty + 16 j}) so consecutive work-items store consecutive rows.
 * Work-groups whose tile lies outside their entry return before the first barrier (uniformly).
 *
 * <p>Generated from the fp64 source by {@code gen-f32.sh}: do not edit.
 */
public final class GemmKernelsF32 {
    /** Tile rows and columns per work-group, panel depth, work-items per group. */
    public static final int TILE = 64, DEPTH = 16, THREADS = 256;
    /** GEMV rows per work-group. */
    public static final int GEMV_ROWS = 64;

    private GemmKernelsF32() {
    }

    @DeviceFunction
    static void store(FloatArray c, int cOff, int ldc, int m, int n, int r, int col, float alpha, float beta, float v) {
        if (r < m && col < n) {
            int idx = cOff + r + col * ldc;
            if (beta == 0) c.set(idx, alpha * v);
            else c.set(idx, alpha * v + beta * c.get(idx));
        }
    }

    /**
     * {@code C_e = alpha op(A_e) op(B_e) + beta C_e} for every entry {@code e}. Grid: one group of
     * {@link #THREADS} per (entry, tile row, tile column), {@code tilesM x tilesN} tiles per entry.
     * With {@code lowerOnly != 0} tiles entirely above the diagonal are skipped (a SYRK-style update).
     * With {@code beta == 0}, {@code C} is not read.
     */
    @Kernel
    public static void gemm(KernelContext ctx, FloatArray a, FloatArray b, FloatArray c, IntArray desc,
                            float alpha, float beta, int transA, int transB, int lowerOnly, int tilesM, int tilesN) {
        float[] as = ctx.allocateFloatLocalArray(DEPTH * TILE);
        float[] bs = ctx.allocateFloatLocalArray(DEPTH * TILE);
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
        float c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
        float c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
        for (int p0 = 0; p0 < k; p0 += DEPTH) {
            for (int l = 0; l < 4; l++) {
                int idx = lid + l * THREADS;
                // index order follows memory order of each operand so global reads coalesce
                int r = transA != 0 ? idx / DEPTH : idx % TILE;
                int p = transA != 0 ? idx % DEPTH : idx / TILE;
                int gr = row0 + r, gp = p0 + p;
                float v = 0;
                if (gr < m && gp < k) v = transA != 0 ? a.get(aOff + gp + gr * lda) : a.get(aOff + gr + gp * lda);
                as[p * TILE + r] = v;
                int q = transB != 0 ? idx / TILE : idx % DEPTH;
                int cc = transB != 0 ? idx % TILE : idx / DEPTH;
                int gq = p0 + q, gc = col0 + cc;
                float w = 0;
                if (gq < k && gc < n) w = transB != 0 ? b.get(bOff + gc + gq * ldb) : b.get(bOff + gq + gc * ldb);
                bs[q * TILE + cc] = w;
            }
            ctx.localBarrier();
            for (int p = 0; p < DEPTH; p++) {
                int ap = p * TILE + tx, bp = p * TILE + ty;
                float a0 = as[ap], a1 = as[ap + 16], a2 = as[ap + 32], a3 = as[ap + 48];
                float b0 = bs[bp], b1 = bs[bp + 16], b2 = bs[bp + 32], b3 = bs[bp + 48];
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
     * {@code y_e = alpha op(A_e) x_e + beta y_e}. Descriptor per entry (6 ints): rows and columns
     * of {@code A_e} (as stored), offset and leading dimension of {@code A_e}, offsets of
     * {@code x_e} and {@code y_e}. Grid: {@code blocks} groups of {@link #GEMV_ROWS} per entry,
     * one output element per work-item.
     */
    @Kernel
    public static void gemv(KernelContext ctx, FloatArray a, FloatArray x, FloatArray y, IntArray desc,
                            float alpha, float beta, int transA, int blocks) {
        int e = ctx.groupIdx / blocks;
        int i = (ctx.groupIdx - e * blocks) * GEMV_ROWS + ctx.localIdx;
        int d = e * 6;
        int rows = desc.get(d), cols = desc.get(d + 1), aOff = desc.get(d + 2), lda = desc.get(d + 3);
        int xOff = desc.get(d + 4), yOff = desc.get(d + 5);
        int outLen = transA != 0 ? cols : rows;
        int inLen = transA != 0 ? rows : cols;
        if (i >= outLen) return;
        float s = 0;
        if (transA != 0) {
            for (int j = 0; j < inLen; j++) s += a.get(aOff + j + i * lda) * x.get(xOff + j);
        } else {
            for (int j = 0; j < inLen; j++) s += a.get(aOff + i + j * lda) * x.get(xOff + j);
        }
        if (beta == 0) y.set(yOff + i, alpha * s);
        else y.set(yOff + i, alpha * s + beta * y.get(yOff + i));
    }
}
