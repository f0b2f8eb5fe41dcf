package dev.squall.sparse.spmv.kernels;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;
import dev.squall.tasks.api.Unroll;

/**
 * SpMV and SpMM on the row-binned CSR schedule of {@code BinnedCsrFormat}: rows binned by length, lanes per bin, long
 * rows split into whole-group segments, and the CSR-stream bin. They compute {@code y = alpha A x + beta y} with
 * {@code coef = {alpha, beta}} read on the device (changing them costs no rebuild); with {@code beta == 0}, {@code y}
 * is written without being read. The compiler generates the single-precision twin {@code BinnedCsrKernelsF32} ({@link
 * Fp32Variant}; accumulation in float, as cuSPARSE does for fp32) and typed handles on both, {@code BinnedCsrKernels}
 * ({@code BinnedCsrKernels.kernel.at(precision)}).
 */
@Fp32Variant(value = "BinnedCsrKernelsF32", handles = "BinnedCsrKernels")
public final class BinnedCsrKernelsF64 {
    private BinnedCsrKernelsF64() {
    }

    /**
     * y[i] = alpha s + beta y[i], never reading y when beta is 0 (so poisoned y cannot leak in). Each SpMV kernel class
     * has this copy: kernels call the device functions of their own class only.
     */
    @DeviceFunction
    static void store(DoubleArray y, int i, double s, DoubleArray coef) {
        double a = coef.get(0);
        double b = coef.get(1);
        if (b == 0) {
            y.set(i, a * s);
        } else {
            y.set(i, a * s + b * y.get(i));
        }
    }

    /**
     * This work-item's place in the binned schedule (csr-binned and binned SpMM): finds the group's bin and
     * returns its lane count; {@code slot} gets {row, first entry, end, segment} where "segment" is the
     * group's index within its bin (a long-row segment when the bin has a whole group per row). Row is -1
     * and the range empty for the spare lanes of a bin's last group.
     */
    @DeviceFunction
    static int binnedSlot(KernelContext ctx, @ReadOnly IntArray binGroup, @ReadOnly IntArray binLanes, @ReadOnly IntArray binItem,
                          @ReadOnly IntArray rowList, @ReadOnly IntArray listPtr, @ReadOnly IntArray segRow, @ReadOnly IntArray segStart,
                          @ReadOnly IntArray segEnd, int bins, int[] slot) {
        int g = ctx.groupIdx;
        int local = ctx.localIdx;
        int groupSize = ctx.localGroupSizeX;
        int b = 0;
        while (b + 1 < bins && binGroup.get(b + 1) <= g) {
            b++;
        }
        int lanes = binLanes.get(b);
        int seg = g - binGroup.get(b);
        slot[0] = -1;
        slot[1] = 0;
        slot[2] = 0;
        slot[3] = seg;
        if (lanes >= groupSize) {
            slot[0] = segRow.get(seg);
            slot[1] = segStart.get(seg) + local;
            slot[2] = segEnd.get(seg);
        } else {
            int item = binItem.get(b) + seg * (groupSize / lanes) + local / lanes;
            if (item < binItem.get(b + 1)) {
                slot[0] = rowList.get(item);
                slot[1] = listPtr.get(item) + (local & (lanes - 1));
                slot[2] = listPtr.get(item + 1);
            }
        }
        return lanes;
    }

    /**
     * Row-binned CSR for skewed and power-law matrices (the binning of Ashari et al., "Fast sparse
     * matrix-vector multiplication on GPUs for graph applications", SC'14, with CSR-vector lanes per
     * bin as in Bell and Garland). The inspector sorts rows into bins by length and lays their entries
     * out in schedule order ({@code col}, {@code val}); work-group {@code g} belongs to bin {@code b}
     * with {@code binGroup[b] <= g < binGroup[b + 1]}, so a bin's lane count is uniform in a group
     * (shuffles and the barrier stay uniform). A bin of {@code lanes < group size} gives row
     * {@code rowList[item]} {@code lanes} consecutive work-items over entries
     * {@code [listPtr[item], listPtr[item + 1])}; a bin of {@code lanes == group size} (the first) gives
     * a whole group to segment {@code [segStart, segEnd)} of a long row ({@code segRow}), reduced
     * through local memory into {@code partial[segment]}; with {@code oneLaunch} the last group of a long
     * row ({@code segLong[segment]}, counted in {@code segCount}) adds them ({@link #finishLongRow}),
     * otherwise a second launch of {@link #segmentSums} stores those rows.
     * Each lane takes its entries two at a time, both index loads issued before the x loads, so a
     * lane of a short row waits for one index-then-x round trip instead of two.
     */
    @Kernel
    public static void csrBinned(KernelContext ctx, @ReadOnly IntArray binGroup, @ReadOnly IntArray binLanes, @ReadOnly IntArray binItem,
                                 @ReadOnly IntArray rowList, @ReadOnly IntArray listPtr, @ReadOnly IntArray segRow, @ReadOnly IntArray segStart,
                                 @ReadOnly IntArray segEnd, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                 @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, @NoAlias DoubleArray partial, int bins,
                                 @ReadOnly IntArray segLong, @ReadOnly IntArray longSeg, IntArray segCount, int oneLaunch) {
        double[] warpSums = ctx.allocateDoubleLocalArray(32);
        int local = ctx.localIdx;
        int groupSize = ctx.localGroupSizeX;
        int[] slot = new int[4];
        int lanes = binnedSlot(ctx, binGroup, binLanes, binItem, rowList, listPtr, segRow, segStart, segEnd, bins, slot);
        boolean whole = lanes >= groupSize;
        int row = slot[0];
        int k0 = slot[1];
        int k1 = slot[2];
        int seg = slot[3];
        double s = laneDot(col, val, x, k0, k1, lanes, 0);
        int width = Math.min(lanes, 32);
        for (int off = width / 2; off > 0; off >>= 1) {
            s += ctx.shuffleDown(s, off);
        }
        // every group passes the barrier (uniform control flow); only whole-group bins read warpSums
        if ((local & 31) == 0) {
            warpSums[local / 32] = s;
        }
        ctx.localBarrier();
        binnedEnd(ctx, warpSums, partial, segLong, longSeg, segCount, y, coef, whole, lanes, row, seg, s, oneLaunch);
    }

    /**
     * {@link #csrBinned} with four entries a lane in flight per step (all four index and value loads issued
     * before the x loads), for schedules made with more entries a lane ({@code csr-binned/e4/u4}): fewer lanes
     * per short row, as many loads in flight per lane as the gather-limit kernel has. The tail (up to three
     * entries) is straight-line code. Same bins, reductions and long-row ends as {@link #csrBinned}.
     */
    @Kernel
    public static void csrBinnedQuad(KernelContext ctx, @ReadOnly IntArray binGroup, @ReadOnly IntArray binLanes, @ReadOnly IntArray binItem,
                                     @ReadOnly IntArray rowList, @ReadOnly IntArray listPtr, @ReadOnly IntArray segRow, @ReadOnly IntArray segStart,
                                     @ReadOnly IntArray segEnd, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                     @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, @NoAlias DoubleArray partial, int bins,
                                     @ReadOnly IntArray segLong, @ReadOnly IntArray longSeg, IntArray segCount, int oneLaunch) {
        double[] warpSums = ctx.allocateDoubleLocalArray(32);
        int local = ctx.localIdx;
        int groupSize = ctx.localGroupSizeX;
        int[] slot = new int[4];
        int lanes = binnedSlot(ctx, binGroup, binLanes, binItem, rowList, listPtr, segRow, segStart, segEnd, bins, slot);
        boolean whole = lanes >= groupSize;
        int row = slot[0];
        int k0 = slot[1];
        int k1 = slot[2];
        int seg = slot[3];
        double s = 0;
        int k = k0;
        while (k + 3 * lanes < k1) {
            int c0 = col.get(k);
            int c1 = col.get(k + lanes);
            int c2 = col.get(k + 2 * lanes);
            int c3 = col.get(k + 3 * lanes);
            double v0 = val.get(k);
            double v1 = val.get(k + lanes);
            double v2 = val.get(k + 2 * lanes);
            double v3 = val.get(k + 3 * lanes);
            s += (v0 * x.get(c0) + v1 * x.get(c1)) + (v2 * x.get(c2) + v3 * x.get(c3));
            k += 4 * lanes;
        }
        s = laneDot(col, val, x, k, k1, lanes, s); // at most one pair and one single are left
        int width = Math.min(lanes, 32);
        for (int off = width / 2; off > 0; off >>= 1) {
            s += ctx.shuffleDown(s, off);
        }
        if ((local & 31) == 0) {
            warpSums[local / 32] = s;
        }
        ctx.localBarrier();
        binnedEnd(ctx, warpSums, partial, segLong, longSeg, segCount, y, coef, whole, lanes, row, seg, s, oneLaunch);
    }

    /** Work-items' entries in flight in a stream block: the block holds at most this many times the group size. */
    static final int STREAM_STEPS = 4;
    /** Entries of a stream block's local array ({@code BinnedCsrFormat.STREAM_BLOCK}). */
    static final int STREAM_BLOCK = 1024;

    /**
     * {@link #csrBinned} with a stream bin (its {@code binLanes} entry 0), last: group {@code g} of that bin takes
     * block {@code g - binGroup[b]}, rows {@code rowList[streamItem[blk] .. streamItem[blk + 1])}, whose entries
     * are consecutive in schedule order (CSR-stream, Greathouse and Daga, SC'14). The group reads the block's
     * indices and values as one coalesced stream, each work-item issuing its (up to) {@value #STREAM_STEPS}
     * index and value loads before its x gathers, and leaves the products in local memory; after the barrier
     * each work-item adds the products of its rows (rows of at most 64 entries) and stores them. Other groups
     * run csrBinned's lanes and long-row segments (long rows in one launch). Stream groups pass the same
     * shuffles and barrier with nothing to reduce, so control flow around them stays uniform.
     */
    @Kernel
    public static void csrBinnedStream(KernelContext ctx, @ReadOnly IntArray binGroup, @ReadOnly IntArray binLanes, @ReadOnly IntArray binItem,
                                       @ReadOnly IntArray rowList, @ReadOnly IntArray listPtr, @ReadOnly IntArray segRow,
                                       @ReadOnly IntArray segStart, @ReadOnly IntArray segEnd, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                       @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, @NoAlias DoubleArray partial,
                                       int bins, @ReadOnly IntArray segLong, @ReadOnly IntArray longSeg, IntArray segCount,
                                       @ReadOnly IntArray streamItem) {
        double[] warpSums = ctx.allocateDoubleLocalArray(32);
        double[] prod = ctx.allocateDoubleLocalArray(STREAM_BLOCK);
        int[] cs = new int[STREAM_STEPS];
        double[] vs = new double[STREAM_STEPS];
        int local = ctx.localIdx;
        int groupSize = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int b = 0;
        while (b + 1 < bins && binGroup.get(b + 1) <= g) {
            b++;
        }
        boolean stream = binLanes.get(b) == 0;
        int[] slot = new int[4];
        int lanes = 1;
        int row = -1;
        int k0 = 0;
        int k1 = 0;
        int seg = 0;
        int i0 = 0;
        int i1 = 0;
        int e0 = 0;
        if (stream) {
            int blk = g - binGroup.get(b);
            i0 = streamItem.get(blk);
            i1 = streamItem.get(blk + 1);
            e0 = listPtr.get(i0);
            int n = listPtr.get(i1) - e0;
            for (@Unroll int u = 0; u < STREAM_STEPS; u++) {
                int t = local + u * groupSize;
                cs[u] = -1;
                vs[u] = 0;
                if (t < n) {
                    cs[u] = col.get(e0 + t);
                    vs[u] = val.get(e0 + t);
                }
            }
            for (@Unroll int u = 0; u < STREAM_STEPS; u++) {
                if (cs[u] >= 0) {
                    prod[local + u * groupSize] = vs[u] * x.get(cs[u]);
                }
            }
        } else {
            lanes = binnedSlot(ctx, binGroup, binLanes, binItem, rowList, listPtr, segRow, segStart, segEnd, bins, slot);
            row = slot[0];
            k0 = slot[1];
            k1 = slot[2];
            seg = slot[3];
        }
        boolean whole = lanes >= groupSize;
        double s = laneDot(col, val, x, k0, k1, lanes, 0);
        int width = Math.min(lanes, 32);
        for (int off = width / 2; off > 0; off >>= 1) {
            s += ctx.shuffleDown(s, off);
        }
        if ((local & 31) == 0) {
            warpSums[local / 32] = s;
        }
        ctx.localBarrier();
        if (stream) {
            for (int r = i0 + local; r < i1; r += groupSize) {
                int q1 = listPtr.get(r + 1) - e0;
                double sum = 0;
                for (int q = listPtr.get(r) - e0; q < q1; q++) {
                    sum += prod[q];
                }
                store(y, rowList.get(r), sum, coef);
            }
        } else {
            binnedEnd(ctx, warpSums, partial, segLong, longSeg, segCount, y, coef, whole, lanes, row, seg, s, 1);
        }
    }

    /**
     * Adds this lane's entries {@code k, k + lanes, ...} below {@code k1} of the schedule to {@code s}, two at a time
     * (both index loads issued before the x loads), and returns it.
     */
    @DeviceFunction
    static double laneDot(@ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, int k, int k1, int lanes, double s) {
        while (k + lanes < k1) {
            int c0 = col.get(k);
            int c1 = col.get(k + lanes);
            double v0 = val.get(k);
            double v1 = val.get(k + lanes);
            s += v0 * x.get(c0) + v1 * x.get(c1);
            k += 2 * lanes;
        }
        if (k < k1) {
            s += val.get(k) * x.get(col.get(k));
        }
        return s;
    }

    /**
     * The end of the binned kernels, after the barrier that publishes {@code warpSums}: a whole-group segment's
     * work-item 0 adds the warps' sums and finishes its long row ({@link #finishLongRow} with {@code oneLaunch},
     * else leaves the partial for {@link #segmentSums}); the first lane of a short row stores it.
     */
    @DeviceFunction
    static void binnedEnd(KernelContext ctx, double[] warpSums, DoubleArray partial, IntArray segLong, IntArray longSeg, IntArray segCount,
                          DoubleArray y, DoubleArray coef, boolean whole, int lanes, int row, int seg, double s, int oneLaunch) {
        int local = ctx.localIdx;
        if (whole) {
            if (local == 0) {
                double t = warpTotal(warpSums, 1, 0, ctx.localGroupSizeX / 32);
                if (oneLaunch != 0) {
                    finishLongRow(ctx, t, partial, segLong, longSeg, segCount, y, coef, row, seg);
                } else {
                    partial.set(seg, t);
                }
            }
        } else if (row >= 0 && (local & (lanes - 1)) == 0) {
            store(y, row, s, coef);
        }
    }

    /**
     * Sum of a group's warp partials {@code warpSums[w * stride + offset]}, {@code w < warps <= 32}, as
     * straight-line code rather than a loop: PoCL 5.0 aborts building a program (Kernel.cc:129,
     * "region_entry_barrier != NULL") when a branch between two barriers of a loop skips a loop whose trip
     * count varies (pocl/pocl pull request 2281), the shape a loop here would give {@link #spmmBinned}.
     */
    @DeviceFunction
    static double warpTotal(double[] warpSums, int stride, int offset, int warps) {
        double t = 0;
        for (@Unroll int w = 0; w < 32; w++) {
            if (w < warps) {
                t += warpSums[w * stride + offset];
            }
        }
        return t;
    }

    /**
     * One-launch end of a long row (the "last block" reduction of CUDA's threadFenceReduction sample): a row
     * of one segment (513 to 2048 entries: most of R-MAT's long rows) is stored at once, {@code 0 + t} as
     * {@link #segmentSums} adds it, with no partial, fence or atomic. Otherwise the group writes its
     * segment's partial and publishes it (global fence, then count on the row's counter); the group that
     * brings the count to the row's segment count adds the partials in segment order (the same order as
     * {@link #segmentSums}, so both paths give the same bits), stores y and re-arms the counter.
     */
    @DeviceFunction
    static void finishLongRow(KernelContext ctx, double t, DoubleArray partial, IntArray segLong, IntArray longSeg, IntArray segCount,
                              DoubleArray y, DoubleArray coef, int row, int seg) {
        int j = segLong.get(seg);
        int first = longSeg.get(j);
        int end = longSeg.get(j + 1);
        if (end - first == 1) {
            double only = 0;
            only += t;
            store(y, row, only, coef);
            return;
        }
        partial.set(seg, t);
        ctx.globalFence();
        if (ctx.atomicAdd(segCount, j, 1) == end - first - 1) {
            ctx.globalFence(); // keep the partial reads after the count that says they are all written
            double r = 0;
            for (int q = first; q < end; q++) {
                r += partial.get(q);
            }
            store(y, row, r, coef);
            segCount.set(j, 0);
        }
    }

    /** Second pass of {@link #csrBinned}: long row {@code longRow[j]} is the sum of its segments {@code [longSeg[j], longSeg[j + 1])}. */
    @Kernel
    public static void segmentSums(@ReadOnly IntArray longRow, @ReadOnly IntArray longSeg, @ReadOnly DoubleArray partial,
                                   @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int longRows) {
        for (@Parallel int j = 0; j < longRows; j++) {
            double s = 0;
            int end = longSeg.get(j + 1);
            for (int q = longSeg.get(j); q < end; q++) {
                s += partial.get(q);
            }
            store(y, longRow.get(j), s, coef);
        }
    }

    /** Vectors of X one pass of {@link #spmmBinned} multiplies (its private accumulators). */
    public static final int SPMM_CHUNK = 8;

    /**
     * SpMM {@code Y = alpha A X + beta Y} on {@link #csrBinned}'s schedule (same bins, lanes and
     * long-row segments, entries in schedule order), for either layout: {@code X(j, c)} is
     * {@code x[j * xRow + c * xVec]} and {@code Y(i, c)} is {@code y[i * yRow + c * yVec]}
     * (row-major: {@code xRow = k, xVec = 1}; column-major: {@code xRow = 1, xVec = cols}). Each lane
     * keeps {@value #SPMM_CHUNK} accumulators, so the matrix is read once per chunk of vectors
     * (not once per vector), and a power-law row gets lanes (or groups) for its length. One launch per chunk
     * ({@code c0} = 0, 8, ...): a loop over the chunks around the barrier and shuffles makes PoCL 5.0 abort
     * (Kernel.cc:129) building the program, since the row loop at its top may be skipped. Long-row
     * segments leave {@code partial[segment * k + c]} for {@link #spmmSegmentSums}.
     */
    @Kernel
    public static void spmmBinned(KernelContext ctx, @ReadOnly IntArray binGroup, @ReadOnly IntArray binLanes, @ReadOnly IntArray binItem,
                                  @ReadOnly IntArray rowList, @ReadOnly IntArray listPtr, @ReadOnly IntArray segRow, @ReadOnly IntArray segStart,
                                  @ReadOnly IntArray segEnd, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                  @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, @NoAlias DoubleArray partial, int bins, int k,
                                  int xRow, int xVec, int yRow, int yVec, int c0) {
        double[] warpSums = ctx.allocateDoubleLocalArray(32 * SPMM_CHUNK);
        double[] acc = new double[SPMM_CHUNK];
        int local = ctx.localIdx;
        int groupSize = ctx.localGroupSizeX;
        int[] slot = new int[4];
        int lanes = binnedSlot(ctx, binGroup, binLanes, binItem, rowList, listPtr, segRow, segStart, segEnd, bins, slot);
        boolean whole = lanes >= groupSize;
        int row = slot[0];
        int k0 = slot[1];
        int k1 = slot[2];
        int seg = slot[3];
        int width = Math.min(lanes, 32);
        int nv = Math.min(SPMM_CHUNK, k - c0);
        for (@Unroll int c = 0; c < SPMM_CHUNK; c++) {
            acc[c] = 0;
        }
        for (int q = k0; q < k1; q += lanes) {
            double v = val.get(q);
            int base = col.get(q) * xRow + c0 * xVec;
            for (@Unroll int c = 0; c < SPMM_CHUNK; c++) {
                if (c < nv) {
                    acc[c] += v * x.get(base + c * xVec);
                }
            }
        }
        for (@Unroll int c = 0; c < SPMM_CHUNK; c++) {
            for (int off = width / 2; off > 0; off >>= 1) {
                acc[c] += ctx.shuffleDown(acc[c], off);
            }
        }
        if ((local & 31) == 0) {
            for (@Unroll int c = 0; c < SPMM_CHUNK; c++) {
                warpSums[(local / 32) * SPMM_CHUNK + c] = acc[c];
            }
        }
        // uniform: every work-item of a group is in one bin
        ctx.localBarrier();
        if (whole) {
            if (local < nv) {
                partial.set(seg * k + c0 + local, warpTotal(warpSums, SPMM_CHUNK, local, groupSize / 32));
            }
        } else if (row >= 0 && (local & (lanes - 1)) == 0) {
            for (@Unroll int c = 0; c < SPMM_CHUNK; c++) {
                if (c < nv) {
                    store(y, row * yRow + (c0 + c) * yVec, acc[c], coef);
                }
            }
        }
    }

    /** Second pass of {@link #spmmBinned}: {@code Y(longRow[j], c)} is the sum of its segments' partials for vector c. */
    @Kernel
    public static void spmmSegmentSums(@ReadOnly IntArray longRow, @ReadOnly IntArray longSeg, @ReadOnly DoubleArray partial,
                                       @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int longRows, int k, int yRow, int yVec) {
        for (@Parallel int t = 0; t < longRows * k; t++) {
            int j = t / k;
            int c = t - j * k;
            double s = 0;
            int end = longSeg.get(j + 1);
            for (int q = longSeg.get(j); q < end; q++) {
                s += partial.get(q * k + c);
            }
            store(y, longRow.get(j) * yRow + c * yVec, s, coef);
        }
    }
}
