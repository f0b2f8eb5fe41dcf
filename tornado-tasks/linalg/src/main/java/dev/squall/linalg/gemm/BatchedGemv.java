package dev.squall.linalg.gemm;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * Batched GEMV {@code y_e = alpha op(A_e) x_e + beta y_e} on the marshaled form: {@code A_e} is
 * {@code rows[e] x cols[e]} column-major at {@code aOff[e]} with leading dimension {@code lda[e]};
 * {@code x_e}, {@code y_e} start at {@code xOff[e]}, {@code yOff[e]}.
 *
 * <pre>{@code
 * int[] r = {3, 5}, c = {4, 2};
 * BatchedGemv.run(dev, Transpose.N, 1.0, a, x, 0.0, y, r, c, new int[] {0, 12}, r, new int[] {0, 4}, new int[] {0, 3});
 * }</pre>
 */
public final class BatchedGemv {
    private BatchedGemv() {
    }

    public static void run(Device device, Transpose t, double alpha, KernelArray a, KernelArray x, double beta, KernelArray y,
                           int[] rows, int[] cols, int[] aOff, int[] lda, int[] xOff, int[] yOff) {
        LaunchSequence seq = new LaunchSequence("gemv");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, x, y);
        append(seq, t, alpha, a, x, beta, y, rows, cols, aOff, lda, xOff, yOff);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
    }

    public static void append(LaunchSequence seq, Transpose t, double alpha, KernelArray a, KernelArray x, double beta, KernelArray y,
                              int[] rows, int[] cols, int[] aOff, int[] lda, int[] xOff, int[] yOff) {
        Precision p = Precision.of(y);
        if (!p.holds(a) || !p.holds(x)) {
            throw new IllegalArgumentException("A, x and y must have one precision: " + a.elementType() + ", " + x.elementType() + ", " + y.elementType());
        }
        int b = rows.length;
        int[][] all = {rows, cols, aOff, lda, xOff, yOff};
        String[] names = {"rows", "cols", "aOffset", "lda", "xOffset", "yOffset"};
        for (int f = 0; f < all.length; f++) {
            if (all[f].length != b) throw new IllegalArgumentException(names[f] + " has " + all[f].length + " entries, rows has " + b);
        }
        int[] v = new int[Math.max(1, b) * 6];
        int maxOut = 0;
        for (int e = 0; e < b; e++) {
            for (int f = 0; f < 6; f++) {
                if (all[f][e] < 0) throw new IllegalArgumentException("entry " + e + ": " + names[f] + " = " + all[f][e] + " is negative");
                v[e * 6 + f] = all[f][e];
            }
            int out = t == Transpose.N ? rows[e] : cols[e], in = t == Transpose.N ? cols[e] : rows[e];
            BatchedGemm.extent("A", e, a, aOff[e], lda[e], rows[e], cols[e]);
            BatchedGemm.extent("x", e, x, xOff[e], Math.max(1, in), in, in == 0 ? 0 : 1);
            BatchedGemm.extent("y", e, y, yOff[e], Math.max(1, out), out, out == 0 ? 0 : 1);
            maxOut = Math.max(maxOut, out);
        }
        if (b == 0 || maxOut == 0) return;
        int blocks = BatchedGemm.ceilDiv(maxOut, GemmKernelsF64.GEMV_ROWS);
        seq.graph().task(seq.taskName("gemv"), WorkerGrid.of((long) b * blocks * GemmKernelsF64.GEMV_ROWS).withLocal(GemmKernelsF64.GEMV_ROWS),
                GemmKernels.gemv.at(p), new KernelContext(), a, x, y, IntArray.fromArray(v), alpha, beta, t.flag(), blocks);
    }
}
