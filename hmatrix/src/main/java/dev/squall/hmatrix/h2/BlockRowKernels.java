package dev.squall.hmatrix.h2;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.ReadOnly;
import dev.squall.tasks.api.Unroll;

/**
 * The kernels of the H2 product as batches of block rows ({@link BlockRowBatch}): work-group {@code g} computes one
 * output block {@code OUT_g = sum over its terms q of A_q X_q} ({@code rows_g x nv}), where {@code A_q} is a small
 * matrix ({@code rows_g x inner_q}) and {@code X_q} the {@code inner_q x nv} rows of the input vectors from
 * {@code xRow_q}. Every phase of the product is such a batch: the dense part (block row of a leaf), the leaf and
 * transfer upsweeps ({@code U^T}, {@code E^T}), the coupling multiply of every level at once (block row of a node),
 * the transfer and leaf downsweeps ({@code E}, {@code U}). Each group owns its output block, so there are no write
 * races and no zeroing launches.
 *
 * <p>Layouts: {@code group[4g .. 4g+3] = outRow, rows, firstTerm, endTerm}; {@code term[2q], term[2q+1] = inner,
 * xRow}; {@code termOff[q]} is where {@code A_q} starts in {@code a}. With {@code rowMajor == 0} entry
 * {@code (r, c)} of {@code A_q} is at {@code termOff[q] + c rows + r} (column-major, leading dimension the block's
 * rows: dense and coupling blocks, {@code U^T}, {@code E^T}), else at {@code termOff[q] + r inner + c} (row-major:
 * {@code U}, {@code E}). Vectors are point-major: entry {@code (r, v)} of a block starting at row {@code s} is at
 * {@code (s + r) nv + v}. With {@code beta == 0} the group writes its block, else adds to it.
 */
public final class BlockRowKernels {
    /** Work-items per group of {@link #lanes}: {@link #ROWS} rows at a time, {@link #LANES} work-items per row. */
    public static final int LANE_THREADS = 256, ROWS = 64, LANES = LANE_THREADS / ROWS;
    /** Work-items per group of {@link #mma} (four sub-groups of 32), rows and vectors of its output tile. */
    public static final int MMA_THREADS = 128, MMA_ROWS = 64, MMA_COLS = 32;

    private BlockRowKernels() {
    }

    /**
     * Block rows for one vector (more are looped over, each reading the block row again), in fp64 multiply-adds: the group takes {@link #ROWS} rows at a time and each row's
     * {@code inner} sum is split over {@link #LANES} work-items (column {@code c} to lane {@code c % LANES}), summed
     * in local memory. Work-items are laid out so that a sub-group's loads of {@code A} are contiguous: consecutive
     * rows share a column in the column-major case, consecutive lanes share a row in the row-major one.
     */
    @Kernel
    public static void lanes(KernelContext ctx, @ReadOnly IntArray group, @ReadOnly IntArray term, @ReadOnly LongArray termOff,
                             @ReadOnly DoubleArray a, @ReadOnly DoubleArray x, DoubleArray out, int nv, int rowMajor, int beta) {
        double[] part = ctx.allocateDoubleLocalArray(LANE_THREADS);
        int g = ctx.groupIdx;
        int tid = ctx.localIdx;
        int outRow = group.get(4 * g);
        int rows = group.get(4 * g + 1);
        int q0 = group.get(4 * g + 2);
        int q1 = group.get(4 * g + 3);
        int r = rowMajor != 0 ? tid / LANES : tid % ROWS;
        int lane = rowMajor != 0 ? tid % LANES : tid / ROWS;
        for (int r0 = 0; r0 < rows; r0 += ROWS) {
            int row = r0 + r;
            for (int v = 0; v < nv; v++) {
                double acc = 0.0;
                if (row < rows) {
                    for (int q = q0; q < q1; q++) {
                        int inner = term.get(2 * q);
                        long xb = (long) term.get(2 * q + 1) * nv + v;
                        long rs = rowMajor != 0 ? inner : 1;
                        long cs = rowMajor != 0 ? 1 : rows;
                        long ab = termOff.get(q) + row * rs;
                        for (@Unroll(4) int c = lane; c < inner; c += LANES) {
                            acc += a.get(ab + c * cs) * x.get(xb + (long) c * nv);
                        }
                    }
                }
                part[tid] = acc;
                ctx.localBarrier();
                if (tid < ROWS && r0 + tid < rows) {
                    double s = 0.0;
                    for (int l = 0; l < LANES; l++) s += part[rowMajor != 0 ? tid * LANES + l : l * ROWS + tid];
                    long o = (long) (outRow + r0 + tid) * nv + v;
                    out.set(o, beta != 0 ? out.get(o) + s : s);
                }
                ctx.localBarrier();
            }
        }
    }

    /**
     * Block rows for many vectors on FP64 tensor cores ({@link KernelContext#mma16x8x4}): the group computes its
     * output block {@link #MMA_ROWS} rows by {@link #MMA_COLS} vectors at a time, sub-group {@code w} rows
     * {@code 16 w ..} as four 16 x 8 tiles, accumulating over all the group's terms in registers (so the many small
     * products of a block row are one fused sum, not one GEMM each). Fragments are read straight from global memory:
     * each load instruction of a sub-group reads whole 32-byte sectors of {@code A} and {@code X} (four columns of
     * eight consecutive rows, or eight rows of four consecutive columns), and 16 columns of {@code inner} are loaded
     * before their 16 multiply-accumulates so that many loads are in flight.
     */
    @Kernel
    public static void mma(KernelContext ctx, @ReadOnly IntArray group, @ReadOnly IntArray term, @ReadOnly LongArray termOff,
                           @ReadOnly DoubleArray a, @ReadOnly DoubleArray x, DoubleArray out, int nv, int rowMajor, int beta) {
        int g = ctx.groupIdx;
        int lid = ctx.localIdx;
        int lane = lid & 31;
        int w = lid >> 5;
        int fr = lane >> 2;
        int fq = lane & 3;
        int outRow = group.get(4 * g);
        int rows = group.get(4 * g + 1);
        int q0 = group.get(4 * g + 2);
        int q1 = group.get(4 * g + 3);
        double[] acc = new double[16];
        double[] af = new double[8];
        double[] bf = new double[16];
        for (int r0 = 0; r0 < rows; r0 += MMA_ROWS) {
            int ra = r0 + 16 * w + fr;
            for (int v0 = 0; v0 < nv; v0 += MMA_COLS) {
                for (@Unroll int i = 0; i < 16; i++) acc[i] = 0.0;
                for (int q = q0; q < q1; q++) {
                    int inner = term.get(2 * q);
                    long ab = termOff.get(q);
                    // this lane's rows ra and ra + 8 of A, clamped into the block: every load below reads a valid address
                    // unconditionally and a select zeroes what lies outside (no branch around a load)
                    long aCol = rowMajor != 0 ? 1 : rows;
                    long aRow = rowMajor != 0 ? inner : 1;
                    long a0 = ab + Math.min(ra, rows - 1) * aRow;
                    long a1 = ab + Math.min(ra + 8, rows - 1) * aRow;
                    long xr = term.get(2 * q + 1);
                    for (int c0 = 0; c0 < inner; c0 += 16) {
                        for (@Unroll int s = 0; s < 4; s++) {
                            int c = c0 + 4 * s + fq;
                            long cc = Math.min(c, inner - 1);
                            double e0 = a.get(a0 + cc * aCol);
                            double e1 = a.get(a1 + cc * aCol);
                            af[2 * s] = c < inner && ra < rows ? e0 : 0.0;
                            af[2 * s + 1] = c < inner && ra + 8 < rows ? e1 : 0.0;
                            long xo = (xr + cc) * nv;
                            for (@Unroll int j = 0; j < 4; j++) {
                                int v = v0 + 8 * j + fr;
                                double xv = x.get(xo + Math.min(v, nv - 1));
                                bf[4 * s + j] = c < inner && v < nv ? xv : 0.0;
                            }
                        }
                        for (@Unroll int s = 0; s < 4; s++) {
                            for (@Unroll int j = 0; j < 4; j++) ctx.mma16x8x4(af[2 * s], af[2 * s + 1], bf[4 * s + j], acc, 4 * j);
                        }
                    }
                }
                for (@Unroll int j = 0; j < 4; j++) {
                    for (@Unroll int h = 0; h < 2; h++) {
                        int row = ra + 8 * h;
                        for (@Unroll int i = 0; i < 2; i++) {
                            int v = v0 + 8 * j + 2 * fq + i;
                            if (row < rows && v < nv) {
                                long o = (long) (outRow + row) * nv + v;
                                double s = acc[4 * j + 2 * h + i];
                                out.set(o, beta != 0 ? out.get(o) + s : s);
                            }
                        }
                    }
                }
            }
        }
    }
}
