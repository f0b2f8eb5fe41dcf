package dev.squall.hmatrix.h2;

import dev.squall.linalg.gemm.BatchDescriptor;
import dev.squall.linalg.gemm.BatchedGemm;
import dev.squall.linalg.gemm.Transpose;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The projection of every coupling block onto new bases on the device, {@code S_b <- A_t S_b B_s^T} for block
 * {@code b} between row node {@code t} and column node {@code s}: by default (sizes up to 64) one launch of
 * {@link CompressionKernels#projectCouplings}, one work-group per block, in place where the blocks keep their sizes
 * ({@link #fused}); else as two batched GEMMs (one launch each: every entry
 * writes its own block): {@code W_b = A_t S_b}, then {@code S'_b = W_b B_s^T}. The couplings stay on the device;
 * only the small factors are uploaded. Blocks are column-major ({@code k_t x k_s} at their offset), factors row-major
 * ({@code a_t x k_t}). The intermediate {@code W} is formed for a run of blocks at a time ({@link #chunkValues}), so the
 * device holds the blocks, their projections and one bounded {@code W}. Where the blocks or their projections exceed
 * the int offsets of the linalg batch descriptor, each run of blocks is copied into a chunk-sized array, projected, and
 * copied out; {@link H2Kernels#projectBlocks} does the same two products with 64-bit offsets (tests compare the two).
 */
final class CouplingProjection {
    private CouplingProjection() {
    }

    /** The projected blocks ({@code a_t x a_s}, column-major, at {@code offset[b]}), the flops and the device time. */
    record Result(DoubleArray blocks, long[] offset, double flops, double millis, boolean gemm) {
    }

    /** Forces the 64-bit kernel path (tests). */
    static boolean forceKernels;

    /**
     * Whether blocks whose sizes are at most {@link CompressionKernels#PROJECT_MAX} are projected by one launch of
     * {@link CompressionKernels#projectCouplings} (both products per block in local memory, 64-bit offsets: no
     * intermediate array, no chunks); else the batched GEMMs (system property {@code squall.h2.projection=gemm}; tests
     * compare the paths).
     */
    static boolean fused = !"gemm".equals(System.getProperty("squall.h2.projection"));

    /** Copies runs of blocks to and from chunk-sized arrays as for blocks beyond the int offsets (tests; the Gram GEMMs too). */
    static boolean forceCopy;

    /**
     * Most values of the intermediate {@code W} on the device at once (2 GB), and of a run of blocks copied for GEMMs
     * past the int offsets (here and in the Gram matrices); tests lower it to run several chunks.
     */
    static long chunkValues = 1L << 28;

    /**
     * Projects the blocks {@code s} ({@code blocks} of them, block {@code b} at {@code sOff[b]} between nodes
     * {@code row[b]} and {@code col[b]}) with left factors {@code left[t]} ({@code leftRows[t] x rowRank[t]}) and right
     * factors {@code right[s]} ({@code rightRows[s] x colRank[s]}).
     */
    static Result project(Device device, DoubleArray s, long[] sOff, int[] row, int[] col, double[][] left, int[] leftRows,
            int[] rowRank, double[][] right, int[] rightRows, int[] colRank) {
        boolean sameFactors = left == right;
        long[] lOff = offsets(left);
        long[] rOff = sameFactors ? lOff : offsets(right);
        DoubleArray l = pack(left, lOff);
        DoubleArray r = sameFactors ? l : pack(right, rOff);
        Result res = project(device, s, sOff, row, col, l, lOff, leftRows, rowRank, r, rOff, rightRows, colRank, true);
        device.free(l, r);
        return res;
    }

    /**
     * As above with the factors already in arrays ({@code l}, {@code r}: factor of node {@code t} at {@code lOff[t]},
     * {@code rOff[t]}), on the device when not {@code upload} (the same array for both sides when they share a basis).
     */
    static Result project(Device device, DoubleArray s, long[] sOff, int[] row, int[] col, DoubleArray l, long[] lOff, int[] leftRows,
            int[] rowRank, DoubleArray r, long[] rOff, int[] rightRows, int[] colRank, boolean upload) {
        return project(device, s, sOff, row, col, l, lOff, leftRows, rowRank, r, rOff, rightRows, colRank, upload, false);
    }

    /**
     * As above; with {@code inPlace}, where every projected block keeps its size and the per-block kernel runs (each
     * group reads its whole block before it writes it), the result overwrites {@code s} ({@link Result#blocks()} is
     * then {@code s}): no second array of couplings is allocated, zeroed and freed.
     */
    static Result project(Device device, DoubleArray s, long[] sOff, int[] row, int[] col, DoubleArray l, long[] lOff, int[] leftRows,
            int[] rowRank, DoubleArray r, long[] rOff, int[] rightRows, int[] colRank, boolean upload, boolean inPlace) {
        int blocks = row.length;
        boolean sameFactors = l == r;
        long[] wOff = new long[blocks + 1], oOff = new long[blocks + 1];
        double flops = 0;
        for (int b = 0; b < blocks; b++) {
            int t = row[b], c = col[b];
            long at = leftRows[t], kt = rowRank[t], as = rightRows[c], ks = colRank[c];
            wOff[b + 1] = wOff[b] + at * ks;
            oOff[b + 1] = oOff[b] + at * as;
            flops += 2.0 * (at * ks * kt + at * as * ks);
        }
        if (fused && !forceKernels && blocks > 0 && fitsOneGroup(row, col, leftRows, rowRank, rightRows, colRank)) {
            DoubleArray target = inPlace && java.util.Arrays.equals(sOff, oOff) ? s : DoubleArray.onDevice(Math.max(1, oOff[blocks]));
            double ms = projectFused(device, s, sOff, row, col, l, lOff, leftRows, rowRank, r, rOff, rightRows, colRank, target, oOff, upload);
            return new Result(target, oOff, flops, ms, false);
        }
        DoubleArray out = DoubleArray.onDevice(Math.max(1, oOff[blocks]));
        long lim = Integer.MAX_VALUE;
        // blocks or results past the GEMM's int offsets: each run of blocks is copied to and from chunk-sized arrays
        boolean big = forceCopy || sOff[blocks] >= lim || oOff[blocks] >= lim;
        boolean gemm = !forceKernels && lOff[lOff.length - 1] < lim && rOff[rOff.length - 1] < lim && chunkValues < lim;
        double ms = 0;
        boolean factorsUploaded = false;
        // the runs of blocks: the intermediate W of one run at a time, so the device holds S, S' and one bounded W
        java.util.List<int[]> runs = new java.util.ArrayList<>();
        long wMax = 1, sMax = 1, oMax = 1;
        for (int b0 = 0; b0 < blocks || b0 == 0; ) {
            int b1 = b0 + 1;
            while (b1 < blocks && wOff[b1 + 1] - wOff[b0] <= chunkValues
                    && (!big || sOff[b1 + 1] - sOff[b0] <= chunkValues && oOff[b1 + 1] - oOff[b0] <= chunkValues)) b1++;
            b1 = Math.min(b1, blocks);
            runs.add(new int[] {b0, b1});
            if (blocks > 0) {
                wMax = Math.max(wMax, wOff[b1] - wOff[b0]);
                sMax = Math.max(sMax, sOff[b1] - sOff[b0]);
                oMax = Math.max(oMax, oOff[b1] - oOff[b0]);
            }
            if (blocks == 0) break;
            b0 = b1;
        }
        // one W and, where runs are copied, one input and one output chunk for all runs
        boolean copy = big && gemm && blocks > 0;
        DoubleArray w = DoubleArray.onDevice(wMax);
        DoubleArray sIn = copy ? DoubleArray.onDevice(sMax) : s;
        DoubleArray oOut = copy ? DoubleArray.onDevice(oMax) : out;
        for (int[] run : runs) {
            int b0 = run[0], b1 = run[1];
            long wBase = blocks == 0 ? 0 : wOff[b0];
            long sBase = copy ? sOff[b0] : 0, oBase = copy ? oOff[b0] : 0;
            LaunchSequence seq = new LaunchSequence("coupling-projection", device);
            TaskGraph g = seq.graph();
            if (!factorsUploaded && upload) g.transferToDevice(DataTransferMode.FIRST_EXECUTION, l, r);
            factorsUploaded = true;
            if (blocks > 0 && gemm) {
                int nb = b1 - b0;
                int[][] e1 = new int[9][nb], e2 = new int[9][nb];
                for (int b = b0; b < b1; b++) {
                    int t = row[b], c = col[b];
                    int at = leftRows[t], kt = rowRank[t], as = rightRows[c], ks = colRank[c];
                    int wo = (int) (wOff[b] - wBase);
                    int[] a1 = {at, ks, kt, (int) lOff[t], Math.max(1, kt), (int) (sOff[b] - sBase), Math.max(1, kt), wo, Math.max(1, at)};
                    int[] a2 = {at, as, ks, wo, Math.max(1, at), (int) rOff[c], Math.max(1, ks), (int) (oOff[b] - oBase), Math.max(1, at)};
                    for (int f = 0; f < 9; f++) {
                        e1[f][b - b0] = a1[f];
                        e2[f][b - b0] = a2[f];
                    }
                }
                if (copy) g.task("blocks-in", CompressionKernels::copyRange, s, sBase, sIn, 0L, sOff[b1] - sBase);
                BatchedGemm.append(seq, Transpose.T, Transpose.N, 1.0, l, sIn, 0.0, w, descriptor(e1), false);
                BatchedGemm.append(seq, Transpose.N, Transpose.N, 1.0, w, r, 0.0, oOut, descriptor(e2), false);
                if (copy) g.task("blocks-out", CompressionKernels::copyRange, oOut, 0L, out, oBase, oOff[b1] - oBase);
            } else if (blocks > 0) {
                int nb = b1 - b0;
                int[] d1 = new int[3 * nb], d2 = new int[3 * nb], rows = new int[nb], cols = new int[nb];
                long[] start1 = new long[nb], start2 = new long[nb], so = new long[nb], wo = new long[nb], oo = new long[nb];
                long n1 = 0, n2 = 0;
                for (int b = b0; b < b1; b++) {
                    int i = b - b0, t = row[b], c = col[b];
                    int at = leftRows[t], kt = rowRank[t], as = rightRows[c], ks = colRank[c];
                    d1[3 * i] = at;
                    d1[3 * i + 1] = ks;
                    d1[3 * i + 2] = kt;
                    d2[3 * i] = as;
                    d2[3 * i + 1] = at;
                    d2[3 * i + 2] = ks;
                    rows[i] = t;
                    cols[i] = c;
                    so[i] = sOff[b];
                    wo[i] = wOff[b] - wBase;
                    oo[i] = oOff[b];
                    start1[i] = n1;
                    start2[i] = n2;
                    n1 += (long) at * ks;
                    n2 += (long) as * at;
                }
                LongArray lo = H2Matrix.longs(lOff), ro = sameFactors ? lo : H2Matrix.longs(rOff), woa = H2Matrix.longs(wo);
                if (n1 > 0) {
                    g.task("project-left", H2Kernels::projectBlocks, l, lo, H2Matrix.ints(rows), s, H2Matrix.longs(so), H2Matrix.ints(d1), w,
                            woa, H2Matrix.longs(start1), nb, n1, 0, 0);
                }
                if (n2 > 0) {
                    g.task("project-right", H2Kernels::projectBlocks, r, ro, H2Matrix.ints(cols), w, woa, H2Matrix.ints(d2), out,
                            H2Matrix.longs(oo), H2Matrix.longs(start2), nb, n2, 1, 1);
                }
            }
            try (ExecutionPlan plan = seq.plan(device)) {
                double k = DeviceCompression.timed(copy ? "projection-copied-chunk" : "projection-chunk", plan);
                if (!Double.isNaN(k)) ms += k;
            }
        }
        device.free(w);
        if (copy) device.free(sIn, oOut);
        return new Result(out, oOff, flops, ms, gemm);
    }

    /** Whether every block's sizes and its factors' are at most {@link CompressionKernels#PROJECT_MAX}. */
    private static boolean fitsOneGroup(int[] row, int[] col, int[] leftRows, int[] rowRank, int[] rightRows, int[] colRank) {
        int most = 0;
        for (int[] a : new int[][] {leftRows, rowRank, rightRows, colRank}) for (int v : a) most = Math.max(most, v);
        return most <= CompressionKernels.PROJECT_MAX;
    }

    /** All blocks in one launch of {@link CompressionKernels#projectCouplings}; its device time. */
    private static double projectFused(Device device, DoubleArray s, long[] sOff, int[] row, int[] col, DoubleArray l, long[] lOff,
            int[] leftRows, int[] rowRank, DoubleArray r, long[] rOff, int[] rightRows, int[] colRank, DoubleArray out, long[] oOff,
            boolean upload) {
        int blocks = row.length;
        LongArray lo = H2Matrix.longs(lOff), ro = l == r && lOff == rOff ? lo : H2Matrix.longs(rOff);
        LongArray so = H2Matrix.longs(sOff), oo = H2Matrix.longs(oOff);
        IntArray rows = H2Matrix.ints(row), cols = H2Matrix.ints(col);
        IntArray lr = H2Matrix.ints(leftRows), rr = H2Matrix.ints(rowRank), cr = H2Matrix.ints(rightRows), kr = H2Matrix.ints(colRank);
        TaskGraph g = new TaskGraph("projection-fused").transferToDevice(DataTransferMode.FIRST_EXECUTION, lo, ro, so, oo, rows, cols, lr, rr, cr, kr);
        if (upload) g.transferToDevice(DataTransferMode.FIRST_EXECUTION, l, r);
        g.task("project", WorkerGrid.of((long) blocks * CompressionKernels.PROJECT_THREADS).withLocal(CompressionKernels.PROJECT_THREADS),
                CompressionKernels::projectCouplings, new KernelContext(), l, lo, lr, rr, r, ro, cr, kr, s, so, rows, cols, out, oo, 0);
        double ms;
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            ms = DeviceCompression.timed(g.name(), plan);
        }
        device.free(lo, ro, so, oo, rows, cols, lr, rr, cr, kr);
        return Double.isNaN(ms) ? 0 : ms;
    }

    private static long[] offsets(double[][] f) {
        long[] o = new long[f.length + 1];
        for (int t = 0; t < f.length; t++) o[t + 1] = o[t] + (f[t] == null ? 0 : f[t].length);
        return o;
    }

    private static DoubleArray pack(double[][] f, long[] off) {
        DoubleArray a = new DoubleArray(Math.max(1, off[f.length]));
        for (int t = 0; t < f.length; t++) {
            if (f[t] != null) MemorySegment.copy(f[t], 0, a.segment(), ValueLayout.JAVA_DOUBLE, 8 * off[t], f[t].length);
        }
        return a;
    }

    private static BatchDescriptor descriptor(int[][] f) {
        return BatchDescriptor.variable(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
    }
}
