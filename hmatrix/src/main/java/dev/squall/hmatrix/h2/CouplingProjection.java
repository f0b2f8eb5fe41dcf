package dev.squall.hmatrix.h2;

import dev.squall.linalg.gemm.BatchDescriptor;
import dev.squall.linalg.gemm.BatchedGemm;
import dev.squall.linalg.gemm.Transpose;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The projection of every coupling block onto new bases on the device, {@code S_b <- A_t S_b B_s^T} for block
 * {@code b} between row node {@code t} and column node {@code s}, as two batched GEMMs (one launch each: every entry
 * writes its own block): {@code W_b = A_t S_b}, then {@code S'_b = W_b B_s^T}. The couplings stay on the device;
 * only the small factors are uploaded. Blocks are column-major ({@code k_t x k_s} at their offset), factors row-major
 * ({@code a_t x k_t}). Where an offset exceeds the int range of the linalg batch descriptor, the same two products
 * run as {@link H2Kernels#projectBlocks}, with 64-bit offsets.
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
     * Projects the blocks {@code s} ({@code blocks} of them, block {@code b} at {@code sOff[b]} between nodes
     * {@code row[b]} and {@code col[b]}) with left factors {@code left[t]} ({@code leftRows[t] x rowRank[t]}) and right
     * factors {@code right[s]} ({@code rightRows[s] x colRank[s]}).
     */
    static Result project(Device device, DoubleArray s, long[] sOff, int[] row, int[] col, double[][] left, int[] leftRows,
            int[] rowRank, double[][] right, int[] rightRows, int[] colRank) {
        int blocks = row.length;
        boolean sameFactors = left == right;
        long[] lOff = offsets(left);
        long[] rOff = sameFactors ? lOff : offsets(right);
        DoubleArray l = pack(left, lOff);
        DoubleArray r = sameFactors ? l : pack(right, rOff);
        long[] wOff = new long[blocks + 1], oOff = new long[blocks + 1];
        double flops = 0;
        for (int b = 0; b < blocks; b++) {
            int t = row[b], c = col[b];
            long at = leftRows[t], kt = rowRank[t], as = rightRows[c], ks = colRank[c];
            wOff[b + 1] = wOff[b] + at * ks;
            oOff[b + 1] = oOff[b] + at * as;
            flops += 2.0 * (at * ks * kt + at * as * ks);
        }
        DoubleArray w = DoubleArray.onDevice(Math.max(1, wOff[blocks]));
        DoubleArray out = DoubleArray.onDevice(Math.max(1, oOff[blocks]));
        long lim = Integer.MAX_VALUE;
        boolean gemm = !forceKernels && sOff[blocks] < lim && lOff[lOff.length - 1] < lim && rOff[rOff.length - 1] < lim
                && wOff[blocks] < lim && oOff[blocks] < lim;
        LaunchSequence seq = new LaunchSequence("coupling-projection", device);
        TaskGraph g = seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, l, r);
        if (gemm) {
            int[][] e1 = new int[9][blocks], e2 = new int[9][blocks];
            for (int b = 0; b < blocks; b++) {
                int t = row[b], c = col[b];
                int at = leftRows[t], kt = rowRank[t], as = rightRows[c], ks = colRank[c];
                int[] a1 = {at, ks, kt, (int) lOff[t], Math.max(1, kt), (int) sOff[b], Math.max(1, kt), (int) wOff[b], Math.max(1, at)};
                int[] a2 = {at, as, ks, (int) wOff[b], Math.max(1, at), (int) rOff[c], Math.max(1, ks), (int) oOff[b], Math.max(1, at)};
                for (int f = 0; f < 9; f++) {
                    e1[f][b] = a1[f];
                    e2[f][b] = a2[f];
                }
            }
            BatchedGemm.append(seq, Transpose.T, Transpose.N, 1.0, l, s, 0.0, w, descriptor(e1), false);
            BatchedGemm.append(seq, Transpose.N, Transpose.N, 1.0, w, r, 0.0, out, descriptor(e2), false);
        } else {
            int[] d1 = new int[3 * Math.max(1, blocks)], d2 = new int[3 * Math.max(1, blocks)];
            long[] start1 = new long[Math.max(1, blocks)], start2 = new long[Math.max(1, blocks)];
            long n1 = 0, n2 = 0;
            for (int b = 0; b < blocks; b++) {
                int t = row[b], c = col[b];
                int at = leftRows[t], kt = rowRank[t], as = rightRows[c], ks = colRank[c];
                d1[3 * b] = at;
                d1[3 * b + 1] = ks;
                d1[3 * b + 2] = kt;
                d2[3 * b] = as;
                d2[3 * b + 1] = at;
                d2[3 * b + 2] = ks;
                start1[b] = n1;
                start2[b] = n2;
                n1 += (long) at * ks;
                n2 += (long) as * at;
            }
            LongArray lo = H2Matrix.longs(lOff), ro = sameFactors ? lo : H2Matrix.longs(rOff);
            IntArray rows = H2Matrix.ints(row), cols = H2Matrix.ints(col);
            LongArray so = H2Matrix.longs(sOff), wo = H2Matrix.longs(wOff), oo = H2Matrix.longs(oOff);
            if (n1 > 0) {
                g.task("project-left", H2Kernels::projectBlocks, l, lo, rows, s, so, H2Matrix.ints(d1), w, wo, H2Matrix.longs(start1),
                        blocks, n1, 0, 0);
            }
            if (n2 > 0) {
                g.task("project-right", H2Kernels::projectBlocks, r, ro, cols, w, wo, H2Matrix.ints(d2), out, oo, H2Matrix.longs(start2),
                        blocks, n2, 1, 1);
            }
        }
        double ms;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            ms = plan.execute().profile().kernelMillis();
        }
        device.free(l, r, w);
        return new Result(out, oOff, flops, ms, gemm);
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
