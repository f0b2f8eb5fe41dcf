package dev.squall.sparse.spmv.kernels;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;
import dev.squall.tasks.api.Unroll;

/**
 * SpMV executors, double precision: {@code y = alpha A x + beta y} with {@code coef = {alpha, beta}}
 * read on the device (so changing them costs no rebuild). With {@code beta == 0}, {@code y} is
 * written without being read. The compiler generates the single-precision twin {@code Fp32Kernels}
 * from this class ({@link Fp32Variant}); accumulation is then in float, as cuSPARSE does for fp32. It also generates
 * {@code SpmvKernels}, typed handles on both ({@code SpmvKernels.csrScalar.at(precision)}) for the kernels of at most
 * 15 parameters; the wider ones are launched by name from the class of the precision.
 */
@Fp32Variant(value = "Fp32Kernels", handles = "SpmvKernels")
public final class Fp64Kernels {
    private Fp64Kernels() {
    }

    /** y[i] = alpha s + beta y[i], never reading y when beta is 0 (so poisoned y cannot leak in). */
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

    /** y = beta y: the whole product for a matrix with no entries. */
    @Kernel
    public static void scale(DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            store(y, i, 0.0, coef);
        }
    }

    /** CSR, one work-item per row. */
    @Kernel
    public static void csrScalar(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                 @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            int end = rowPtr.get(i + 1);
            for (int k = rowPtr.get(i); k < end; k++) {
                s += val.get(k) * x.get(col.get(k));
            }
            store(y, i, s, coef);
        }
    }

    /**
     * CSR with 64-bit row pointers, one work-item per row: for matrices of 2^31 or more entries, whose
     * offsets do not fit in an int (column indices stay 32-bit: the column count is below 2^31).
     */
    @Kernel
    public static void csrScalarLong(@ReadOnly LongArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                     @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            long end = rowPtr.get(i + 1);
            for (long k = rowPtr.get(i); k < end; k++) {
                s += val.get(k) * x.get(col.get(k));
            }
            store(y, i, s, coef);
        }
    }

    /**
     * CSR for CPU devices (the JVM, OpenCL on CPUs): work-item {@code b} computes the {@code blockRows}
     * rows from {@code b * blockRows}, walking their entries as one stream (a row's start is the
     * previous row's end, so each row costs one {@code rowPtr} read), with two accumulators so
     * consecutive products do not wait on one floating-point add chain. alpha and beta are read once.
     */
    @Kernel
    public static void csrRowBlocks(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                    @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef,
                                    int rows, int blockRows, int blocks) {
        for (@Parallel int b = 0; b < blocks; b++) {
            double alpha = coef.get(0);
            double beta = coef.get(1);
            int r0 = b * blockRows;
            int r1 = Math.min(r0 + blockRows, rows);
            int k = rowPtr.get(r0);
            for (int i = r0; i < r1; i++) {
                int end = rowPtr.get(i + 1);
                double s0 = 0;
                double s1 = 0;
                while (k + 1 < end) {
                    s0 += val.get(k) * x.get(col.get(k));
                    s1 += val.get(k + 1) * x.get(col.get(k + 1));
                    k += 2;
                }
                if (k < end) {
                    s0 += val.get(k) * x.get(col.get(k));
                    k++;
                }
                double s = s0 + s1;
                if (beta == 0) {
                    y.set(i, alpha * s);
                } else {
                    y.set(i, alpha * s + beta * y.get(i));
                }
            }
        }
    }

    /**
     * CSR, {@code lanes} work-items per row (a power of two up to the sub-group size), strided over
     * the row and reduced with sub-group shuffles (Bell and Garland's CSR-vector, lanes tuned to the
     * row length as in Venkat's thesis). Grid: rows * lanes work-items, rounded up to the group size.
     */
    @Kernel
    public static void csrVector(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                 @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows, int lanes) {
        int g = ctx.globalIdx;
        int row = g / lanes;
        int lane = g & (lanes - 1);
        double s = 0;
        if (row < rows) {
            int end = rowPtr.get(row + 1);
            for (int k = rowPtr.get(row) + lane; k < end; k += lanes) {
                s += val.get(k) * x.get(col.get(k));
            }
        }
        // every work-item reaches the shuffles; lane 0 of each row segment only reads inside it
        for (int off = lanes / 2; off > 0; off >>= 1) {
            s += ctx.shuffleDown(s, off);
        }
        if (row < rows && lane == 0) {
            store(y, row, s, coef);
        }
    }

    /** ELL, column-major ({@code [k * rows + i]}), one work-item per row; padding is never read. */
    @Kernel
    public static void ell(@ReadOnly IntArray rowLen, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                           @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            int len = rowLen.get(i);
            int idx = i;
            for (int k = 0; k < len; k++) {
                s += val.get(idx) * x.get(col.get(idx));
                idx += rows;
            }
            store(y, i, s, coef);
        }
    }

    /**
     * SELL-C-sigma (Kreutzer et al., SIAM J. Sci. Comput. 2014): slot {@code s} is lane
     * {@code s % c} of chunk {@code s / c}, holding row {@code perm[s]} (or -1 for padding);
     * chunk entries are column-major from {@code chunkPtr[chunk]}.
     */
    @Kernel
    public static void sell(@ReadOnly IntArray chunkPtr, @ReadOnly IntArray slotLen, @ReadOnly IntArray perm,
                            @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, @NoAlias DoubleArray y,
                            @ReadOnly DoubleArray coef, int slots, int c) {
        for (@Parallel int s = 0; s < slots; s++) {
            int row = perm.get(s);
            if (row < 0) {
                continue;
            }
            int chunk = s / c;
            int idx = chunkPtr.get(chunk) + (s - chunk * c);
            int len = slotLen.get(s);
            double sum = 0;
            for (int k = 0; k < len; k++) {
                sum += val.get(idx) * x.get(col.get(idx));
                idx += c;
            }
            store(y, row, sum, coef);
        }
    }

    /** DIA: diagonal {@code d} at column offset {@code offsets[d]}, stored column-major {@code [d * rows + i]}. */
    @Kernel
    public static void dia(@ReadOnly IntArray offsets, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, @NoAlias DoubleArray y,
                           @ReadOnly DoubleArray coef, int rows, int cols, int diagonals) {
        for (@Parallel int i = 0; i < rows; i++) {
            double s = 0;
            for (int d = 0; d < diagonals; d++) {
                int j = i + offsets.get(d);
                if (j >= 0 && j < cols) {
                    s += val.get(d * rows + i) * x.get(j);
                }
            }
            store(y, i, s, coef);
        }
    }

    /**
     * COO, row-sorted, segmented reduction without atomics, first of two passes: work-item
     * {@code w} reduces entries {@code [w * chunk, (w + 1) * chunk)}; rows that end in its chunk
     * are stored (their earlier parts come in the second pass); the sum of a row still open at
     * the chunk's end goes to {@code carry[w]} with its row in {@code carryRow[w]} (-1 if none).
     * With {@code writeEmpty}, rows with no entries get {@code beta y}; HYB turns it off and adds.
     */
    @Kernel
    public static void cooChunks(@ReadOnly IntArray row, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                 @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, DoubleArray carry, IntArray carryRow,
                                 int nnz, int rows, int chunk, int chunks, int writeEmpty) {
        for (@Parallel int w = 0; w < chunks; w++) {
            int start = w * chunk;
            int end = Math.min(start + chunk, nnz);
            int r = row.get(start);
            if (writeEmpty != 0) {
                int from = start == 0 ? 0 : row.get(start - 1) + 1;
                for (int e = from; e < r; e++) {
                    store(y, e, 0.0, coef);
                }
            }
            double s = 0;
            for (int k = start; k < end; k++) {
                int rk = row.get(k);
                if (rk != r) {
                    store(y, r, s, coef);
                    if (writeEmpty != 0) {
                        for (int e = r + 1; e < rk; e++) {
                            store(y, e, 0.0, coef);
                        }
                    }
                    r = rk;
                    s = 0;
                }
                s += val.get(k) * x.get(col.get(k));
            }
            if (end == nnz || row.get(end) != r) {
                store(y, r, s, coef);
                carryRow.set(w, -1);
                carry.set(w, 0.0);
                if (end == nnz && writeEmpty != 0) {
                    for (int e = r + 1; e < rows; e++) {
                        store(y, e, 0.0, coef);
                    }
                }
            } else {
                carryRow.set(w, r);
                carry.set(w, s);
            }
        }
    }

    /**
     * Second pass of the segmented reductions (COO and merge-path CSR): the last work-item that
     * carries a row adds the carries of the run of work-items before it that carry the same row.
     * Exactly one work-item writes each row, so no atomics are needed.
     */
    @Kernel
    public static void carryFix(@NoAlias DoubleArray y, @ReadOnly DoubleArray coef, @ReadOnly DoubleArray carry,
                                @ReadOnly IntArray carryRow, int chunks) {
        for (@Parallel int w = 0; w < chunks; w++) {
            int r = carryRow.get(w);
            if (r < 0 || (w + 1 < chunks && carryRow.get(w + 1) == r)) {
                continue;
            }
            double s = 0;
            int t = w;
            while (t >= 0 && carryRow.get(t) == r) {
                s += carry.get(t);
                t--;
            }
            y.set(r, y.get(r) + coef.get(0) * s);
        }
    }

    /** Merge-path search (Merrill and Garland, SC'16): rows whose end lies among the first {@code diag} merge items. */
    @DeviceFunction
    static int mergeSearch(IntArray rowPtr, int diag, int rows, int nnz) {
        int lo = Math.max(diag - nnz, 0);
        int hi = Math.min(diag, rows);
        while (lo < hi) {
            int p = (lo + hi) >>> 1;
            if (rowPtr.get(p + 1) <= diag - p - 1) {
                lo = p + 1;
            } else {
                hi = p;
            }
        }
        return lo;
    }

    /**
     * Merge-path CSR, first pass: work-item {@code w} consumes {@code perItem} items of the merge of
     * row ends and nonzeros, so every work-item does the same work however skewed the rows are.
     * The partial sum of the row open at its end goes to {@code carry} (second pass: {@link #carryFix}).
     */
    @Kernel
    public static void csrMerge(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, DoubleArray carry, IntArray carryRow,
                                int rows, int nnz, int perItem, int items) {
        for (@Parallel int w = 0; w < items; w++) {
            int total = rows + nnz;
            int d0 = Math.min(w * perItem, total);
            int d1 = Math.min(d0 + perItem, total);
            int i = mergeSearch(rowPtr, d0, rows, nnz);
            int k = d0 - i;
            double s = 0;
            for (int d = d0; d < d1; d++) {
                if (k < rowPtr.get(i + 1)) {
                    s += val.get(k) * x.get(col.get(k));
                    k++;
                } else {
                    store(y, i, s, coef);
                    s = 0;
                    i++;
                }
            }
            carryRow.set(w, i < rows ? i : -1);
            carry.set(w, s);
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
     * count varies (pocl/pocl pull request 2281), the shape {@link #spmmBinned} had.
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

    /**
     * SpMM {@code Y = alpha A X + beta Y}, X row-major ({@code cols x k}, {@code X[j * k + c]}), Y row-major:
     * work-item {@code t} computes {@code Y[t]}, row {@code t / k}, column {@code t % k}, so neighbouring
     * work-items share the row's entries and read consecutive X and Y elements (coalesced).
     */
    @Kernel
    public static void spmmRowMajor(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                    @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int k, int total) {
        for (@Parallel int t = 0; t < total; t++) {
            int i = t / k;
            int c = t - i * k;
            double s = 0;
            int end = rowPtr.get(i + 1);
            for (int q = rowPtr.get(i); q < end; q++) {
                s += val.get(q) * x.get(col.get(q) * k + c);
            }
            store(y, t, s, coef);
        }
    }

    /**
     * SpMM with X column-major ({@code X[c * cols + j]}) and Y column-major ({@code Y[c * rows + i]}):
     * work-item {@code t} computes {@code Y[t]}, one SpMV row per work-item for each of the k vectors.
     */
    @Kernel
    public static void spmmColMajor(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                    @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows, int cols, int total) {
        for (@Parallel int t = 0; t < total; t++) {
            int c = t / rows;
            int i = t - c * rows;
            int base = c * cols;
            double s = 0;
            int end = rowPtr.get(i + 1);
            for (int q = rowPtr.get(i); q < end; q++) {
                s += val.get(q) * x.get(base + col.get(q));
            }
            store(y, t, s, coef);
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
     * ({@code c0} = 0, 8, ...): a loop over the chunks around the barrier and shuffles made PoCL 5.0 abort
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

    /**
     * BCSR with R x C blocks: work-item {@code t} computes row {@code t} (row {@code t % r} of block
     * row {@code t / r}); slots whose mask bit is clear are padding and are skipped, so padding is
     * never multiplied by x (no NaN from 0 * Inf).
     */
    @Kernel
    public static void bcsr(@ReadOnly IntArray blockPtr, @ReadOnly IntArray blockCol, @ReadOnly IntArray mask, @ReadOnly DoubleArray val,
                            @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int rows, int r, int c) {
        for (@Parallel int t = 0; t < rows; t++) {
            int br = t / r;
            int i = t - br * r;
            int end = blockPtr.get(br + 1);
            double s = 0;
            for (int b = blockPtr.get(br); b < end; b++) {
                int m = mask.get(b) >>> (i * c);
                int base = (b * r + i) * c;
                int j0 = blockCol.get(b) * c;
                for (int j = 0; j < c; j++) {
                    if (((m >>> j) & 1) != 0) {
                        s += val.get(base + j) * x.get(j0 + j);
                    }
                }
            }
            store(y, t, s, coef);
        }
    }

    /**
     * CSB product {@code Y = alpha A X + beta Y} (Buluç et al., SPAA 2009): work-item {@code t} owns block
     * row {@code t / k} for vector {@code t % k}, scales its slice of Y by beta (writing 0 when beta is 0,
     * so Y is not read), then adds the entries of the block row's blocks; no other work-item writes that
     * slice, so no atomics. Layout strides as in {@link #spmmBinned}.
     */
    @Kernel
    public static void csbMultiply(@ReadOnly IntArray blockRowPtr, @ReadOnly IntArray blockCol, @ReadOnly IntArray blockStart,
                                   @ReadOnly IntArray packed, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x, @NoAlias DoubleArray y,
                                   @ReadOnly DoubleArray coef, int rows, int beta, int blockRows, int k, int xRow, int xVec, int yRow, int yVec) {
        for (@Parallel int t = 0; t < blockRows * k; t++) {
            int br = t / k;
            int c = t - br * k;
            int i0 = br * beta;
            int i1 = Math.min(i0 + beta, rows);
            csbScaleSlice(y, coef, i0, i1, c * yVec, yRow);
            double alpha = coef.get(0);
            int end = blockRowPtr.get(br + 1);
            for (int b = blockRowPtr.get(br); b < end; b++) {
                int xBase = blockCol.get(b) * beta * xRow + c * xVec;
                int yBase = i0 * yRow + c * yVec;
                int e1 = blockStart.get(b + 1);
                // entries are row-major in a block: sum a row's run in a register, update Y once per run
                int cur = -1;
                double run = 0;
                for (int e = blockStart.get(b); e < e1; e++) {
                    int p = packed.get(e);
                    int r = p >>> 16;
                    if (r != cur) {
                        if (cur >= 0) {
                            int at = yBase + cur * yRow;
                            y.set(at, y.get(at) + alpha * run);
                        }
                        cur = r;
                        run = 0;
                    }
                    run += val.get(e) * x.get(xBase + (p & 0xFFFF) * xRow);
                }
                if (cur >= 0) {
                    int at = yBase + cur * yRow;
                    y.set(at, y.get(at) + alpha * run);
                }
            }
        }
    }

    /**
     * CSB product with the transpose, {@code Y = alpha A^T X + beta Y}, from the same blocks walked by
     * block column ({@code colBlocks} from {@code colBlockPtr}): work-item {@code t} owns block column
     * {@code t / k} of A (a slice of Y) for vector {@code t % k}; an entry at (r, c) in its block adds to
     * {@code Y(c)} from {@code X(r)}.
     */
    @Kernel
    public static void csbMultiplyTransposed(@ReadOnly IntArray colBlockPtr, @ReadOnly IntArray colBlocks, @ReadOnly IntArray blockRow,
                                             @ReadOnly IntArray blockStart, @ReadOnly IntArray packed, @ReadOnly DoubleArray val,
                                             @ReadOnly DoubleArray x, @NoAlias DoubleArray y, @ReadOnly DoubleArray coef, int cols, int beta,
                                             int blockCols, int k, int xRow, int xVec, int yRow, int yVec) {
        for (@Parallel int t = 0; t < blockCols * k; t++) {
            int bc = t / k;
            int c = t - bc * k;
            int j0 = bc * beta;
            int j1 = Math.min(j0 + beta, cols);
            csbScaleSlice(y, coef, j0, j1, c * yVec, yRow);
            double alpha = coef.get(0);
            int end = colBlockPtr.get(bc + 1);
            for (int q = colBlockPtr.get(bc); q < end; q++) {
                int b = colBlocks.get(q);
                int xBase = blockRow.get(b) * beta * xRow + c * xVec;
                int yBase = j0 * yRow + c * yVec;
                int e1 = blockStart.get(b + 1);
                for (int e = blockStart.get(b); e < e1; e++) {
                    int p = packed.get(e);
                    int at = yBase + (p & 0xFFFF) * yRow;
                    y.set(at, y.get(at) + alpha * val.get(e) * x.get(xBase + (p >>> 16) * xRow));
                }
            }
        }
    }

    /** y[off + i * stride] = beta y[...] for i in [i0, i1), or 0 when beta is 0 (y not read). */
    @DeviceFunction
    static void csbScaleSlice(DoubleArray y, DoubleArray coef, int i0, int i1, int off, int stride) {
        double b = coef.get(1);
        for (int i = i0; i < i1; i++) {
            int at = off + i * stride;
            if (b == 0) {
                y.set(at, 0.0);
            } else {
                y.set(at, b * y.get(at));
            }
        }
    }

    /**
     * The gather limit of CSR-byte SpMV (a measurement, not a product): work-group {@code g} streams entries
     * {@code [g * perGroup, min((g + 1) * perGroup, nnz))} of {@code col} and {@code val} (schedule order),
     * its work-items striding by the group size, so every sub-group step reads whole 32-byte sectors; each
     * work-item gathers {@code x[col]}, four entries in flight, and writes its sum to {@code out[global id]}
     * (so nothing is optimized away; one value per work-item, about one per row). No row pointers, lanes,
     * reductions or bins: what is left is the streams and the x gathers every CSR-byte format must make.
     */
    @Kernel
    public static void gatherLimit(KernelContext ctx, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                   @NoAlias DoubleArray out, int nnz, int perGroup) {
        int size = ctx.localGroupSizeX;
        int k0 = ctx.groupIdx * perGroup;
        int k1 = Math.min(k0 + perGroup, nnz);
        double s0 = 0;
        double s1 = 0;
        int k = k0 + ctx.localIdx;
        while (k + 3 * size < k1) {
            int c0 = col.get(k);
            int c1 = col.get(k + size);
            int c2 = col.get(k + 2 * size);
            int c3 = col.get(k + 3 * size);
            double v0 = val.get(k);
            double v1 = val.get(k + size);
            double v2 = val.get(k + 2 * size);
            double v3 = val.get(k + 3 * size);
            s0 += v0 * x.get(c0) + v2 * x.get(c2);
            s1 += v1 * x.get(c1) + v3 * x.get(c3);
            k += 4 * size;
        }
        while (k < k1) {
            s0 += val.get(k) * x.get(col.get(k));
            k += size;
        }
        out.set(ctx.globalIdx, s0 + s1);
    }

    /** b = a: the copy kernel whose bandwidth the SpMV figures are compared with. */
    @Kernel
    public static void copy(@ReadOnly DoubleArray a, @NoAlias DoubleArray b, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            b.set(i, a.get(i));
        }
    }
}
