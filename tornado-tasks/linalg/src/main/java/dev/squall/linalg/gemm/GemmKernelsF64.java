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
 * <p>The compiler generates the single-precision twin {@code GemmKernelsF32} from this class
 * and the typed handles on both, {@code GemmKernels} ({@code @Fp32Variant}): {@code GemmKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "GemmKernelsF32", handles = "GemmKernels")
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
     * Reads this work-item's four elements of the A and B panels at depth {@code p0} into the
     * private arrays {@code va} and {@code vb} (the prefetch that overlaps the next panel's global
     * reads with the current panel's multiply-adds).
     */
    @DeviceFunction
    static void fetchPanels(DoubleArray a, int aOff, int lda, int transA, int row0, DoubleArray b, int bOff, int ldb, int transB, int col0,
                            int m, int n, int k, int p0, int lid, int tile, double[] va, double[] vb) {
        for (@Unroll int i = 0; i < 4; i++) {
            va[i] = loadA(a, aOff, lda, m, k, transA, row0, p0, lid + i * THREADS, tile);
            vb[i] = loadB(b, bOff, ldb, n, k, transB, col0, p0, lid + i * THREADS, tile);
        }
    }

    /** Writes the prefetched panel elements {@code va}, {@code vb} into the local panels {@code as} ({@code ldA}) and {@code bs} ({@code ldB}). */
    @DeviceFunction
    static void stagePanels(double[] as, double[] bs, double[] va, double[] vb, int transA, int transB, int lid, int tile, int depth, int ldA, int ldB) {
        for (@Unroll int i = 0; i < 4; i++) {
            as[slotA(transA, lid + i * THREADS, tile, ldA)] = va[i];
            bs[slotB(transB, lid + i * THREADS, tile, depth, ldB)] = vb[i];
        }
    }

    /**
     * {@code acc += A panel x B panel} for this work-item's {@code regs x regs} block (rows
     * {@code tx + 16 i}, columns {@code ty + 16 j}; {@code acc[i * regs + j]}). Every index of the
     * private arrays is an unrolled loop variable, so once inlined with a constant {@code regs}
     * they live in registers. A warp's read of A is 16 consecutive doubles; B is a broadcast.
     */
    @DeviceFunction
    static void multiplyPanel(double[] acc, double[] as, double[] bs, int tx, int ty, int depth, int ldA, int ldB, int regs) {
        double[] av = new double[8];
        double[] bv = new double[8];
        for (int p = 0; p < depth; p++) {
            for (@Unroll int i = 0; i < regs; i++) {
                av[i] = as[p * ldA + tx + 16 * i];
                bv[i] = bs[p * ldB + ty + 16 * i];
            }
            for (@Unroll int i = 0; i < regs; i++) {
                for (@Unroll int j = 0; j < regs; j++) acc[i * regs + j] += av[i] * bv[j];
            }
        }
    }

    /** Writes this work-item's {@code regs x regs} block {@code alpha acc + beta C} (rows {@code r0 + 16 i}, columns {@code q0 + 16 j}). */
    @DeviceFunction
    static void storeBlock(DoubleArray c, int cOff, int ldc, int m, int n, int r0, int q0, double alpha, double beta, double[] acc, int regs) {
        for (@Unroll int i = 0; i < regs; i++) {
            for (@Unroll int j = 0; j < regs; j++) store(c, cOff, ldc, m, n, r0 + 16 * i, q0 + 16 * j, alpha, beta, acc[i * regs + j]);
        }
    }

    /**
     * The body shared by {@link #gemm} and {@link #gemmLarge}: one {@code tile x tile} tile of one
     * entry per work-group of {@link #THREADS}, panels of {@code depth} staged in the local arrays
     * {@code as} ({@code ldA}) and {@code bs} ({@code ldB}), a {@code regs x regs} register block per
     * work-item ({@code tile = 16 regs}). The next panel is read into registers while the current
     * one is multiplied. Work-groups whose tile lies outside their entry (or, with {@code lowerOnly},
     * above the diagonal) return before the first barrier, uniformly.
     */
    @DeviceFunction
    static void tileProduct(KernelContext ctx, DoubleArray a, DoubleArray b, DoubleArray c, IntArray desc, double alpha, double beta,
                            int transA, int transB, int lowerOnly, int tilesM, int tilesN,
                            double[] as, double[] bs, int tile, int depth, int ldA, int ldB, int regs) {
        int perEntry = tilesM * tilesN;
        int e = ctx.groupIdx / perEntry;
        int t = ctx.groupIdx - e * perEntry;
        int d = e * 9;
        int m = desc.get(d), n = desc.get(d + 1), k = desc.get(d + 2);
        int aOff = desc.get(d + 3), lda = desc.get(d + 4);
        int bOff = desc.get(d + 5), ldb = desc.get(d + 6);
        int cOff = desc.get(d + 7), ldc = desc.get(d + 8);
        int row0 = (t % tilesM) * tile, col0 = (t / tilesM) * tile;
        if (row0 >= m || col0 >= n) return;
        if (lowerOnly != 0 && row0 + tile <= col0) return;
        int lid = ctx.localIdx;
        int tx = lid & 15, ty = lid >> 4;
        double[] acc = new double[64];
        double[] va = new double[4];
        double[] vb = new double[4];
        if (k > 0) fetchPanels(a, aOff, lda, transA, row0, b, bOff, ldb, transB, col0, m, n, k, 0, lid, tile, va, vb);
        for (int p0 = 0; p0 < k; p0 += depth) {
            stagePanels(as, bs, va, vb, transA, transB, lid, tile, depth, ldA, ldB);
            ctx.localBarrier();
            int next = p0 + depth;
            if (next < k) fetchPanels(a, aOff, lda, transA, row0, b, bOff, ldb, transB, col0, m, n, k, next, lid, tile, va, vb);
            multiplyPanel(acc, as, bs, tx, ty, depth, ldA, ldB, regs);
            ctx.localBarrier();
        }
        storeBlock(c, cOff, ldc, m, n, row0 + tx, col0 + ty, alpha, beta, acc, regs);
    }

    /**
     * {@code C_e = alpha op(A_e) op(B_e) + beta C_e} for every entry {@code e}. Grid: one group of
     * {@link #THREADS} per (entry, tile row, tile column), {@code tilesM x tilesN} tiles per entry
     * of {@link #TILE} x {@link #TILE}, a 4 x 4 register block per work-item.
     * With {@code lowerOnly != 0} tiles entirely above the diagonal are skipped (a SYRK-style update).
     * With {@code beta == 0}, {@code C} is not read.
     */
    @Kernel
    public static void gemm(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                            double alpha, double beta, int transA, int transB, int lowerOnly, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(DEPTH * TILE);
        double[] bs = ctx.allocateDoubleLocalArray(DEPTH * PAD_LD);
        tileProduct(ctx, a, b, c, desc, alpha, beta, transA, transB, lowerOnly, tilesM, tilesN, as, bs, TILE, DEPTH, TILE, PAD_LD, 4);
    }

    /**
     * Like {@link #gemm} with a {@link #BIG_TILE} x {@link #BIG_TILE} tile per group of
     * {@link #THREADS}: each work-item keeps an 8 x 8 block of C in registers and reads 16 local
     * values per 64 multiply-adds, the ratio at which FP64 FMA throughput, not local-memory
     * bandwidth, bounds the loop. Panels of depth {@link #BIG_DEPTH}. For large products (the
     * blocked Cholesky's trailing updates, one big GEMM).
     */
    @Kernel
    public static void gemmLarge(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, @ReadOnly IntArray desc,
                                 double alpha, double beta, int transA, int transB, int lowerOnly, int tilesM, int tilesN) {
        double[] as = ctx.allocateDoubleLocalArray(BIG_DEPTH * BIG_LD);
        double[] bs = ctx.allocateDoubleLocalArray(BIG_DEPTH * BIG_LD);
        tileProduct(ctx, a, b, c, desc, alpha, beta, transA, transB, lowerOnly, tilesM, tilesN, as, bs, BIG_TILE, BIG_DEPTH, BIG_LD, BIG_LD, 8);
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
