package dev.squall.spark.h2;

import dev.squall.hmatrix.h2.H2Kernels;
import dev.squall.hmatrix.h2.H2Structure;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

/**
 * The top of a cut H2 matrix, on the driver: the nodes of levels {@code 0 .. L} (the first {@code 2^(L+1) - 1} nodes,
 * whose BFS numbers are the whole tree's), their transfers and the coupling rows of those levels, computed with
 * {@code hmatrix}'s construction kernels. Given the parts' root {@code xhat} it runs the transfer upsweep above the
 * roots, the couplings of levels {@code 0 .. L} and the transfer downsweep back to the roots ({@code O(2^L k^2)}
 * flops), with {@code hmatrix}'s product kernels in the single-process order.
 */
final class TopTree implements AutoCloseable {
    private final int level, rank, nodes;
    private final Device device;
    private final DoubleArray xhat, yhat;
    private final ExecutionPlan plan;
    private final List<KernelArray> all;

    TopTree(H2Structure s, CovarianceKernel kernel, int level, Device device) {
        this.level = level;
        this.device = device;
        int k = s.rank(), dim = s.dim(), order = s.options().order();
        this.rank = k;
        nodes = (2 << level) - 1;
        long kk = (long) k * k;
        int[] cptr = Arrays.copyOf(s.couplingRowPtr(), nodes + 1);
        int blocks = cptr[nodes];
        int[] ccol = Arrays.copyOf(s.couplingCol(), blocks);
        int[] crow = new int[blocks];
        for (int t = 0; t < nodes; t++) Arrays.fill(crow, cptr[t], cptr[t + 1], t);
        int[] rs = new int[nodes + 1];
        long[] eo = new long[nodes + 1], so = new long[blocks + 1];
        for (int t = 0; t <= nodes; t++) {
            rs[t] = t * k;
            eo[t] = t == 0 ? 0 : (t - 1) * kk;
        }
        for (int b = 0; b <= blocks; b++) so[b] = b * kk;
        DoubleArray boxes = SubtreeSlice.doubles(Arrays.copyOf(s.boxes(), nodes * 6));
        DoubleArray transfers = DoubleArray.onDevice(Math.max(1, (nodes - 1) * kk)), couplings = DoubleArray.onDevice(Math.max(1, blocks * kk));
        IntArray rowPtr = SubtreeSlice.ints(cptr), col = SubtreeSlice.ints(ccol), row = SubtreeSlice.ints(crow), rankStart = SubtreeSlice.ints(rs);
        LongArray eOff = SubtreeSlice.longs(eo), sOff = SubtreeSlice.longs(so);
        xhat = new DoubleArray((long) nodes * k);
        yhat = new DoubleArray((long) nodes * k);
        all = List.of(boxes, transfers, couplings, rowPtr, col, row, rankStart, eOff, sOff, xhat, yhat);
        TaskGraph build = new TaskGraph("h2-top-build").transferToDevice(DataTransferMode.FIRST_EXECUTION, boxes, row, col);
        if (nodes > 1) build.task("transfers", H2Kernels::transfers, boxes, transfers, (nodes - 1) * kk, dim, order, k);
        if (blocks > 0) {
            build.task("coupling-distances", H2Kernels::couplingDistances, row, col, boxes, boxes, couplings, blocks * kk, dim, order, k);
            kernel.addEvaluation(build, "coupling-kernel", couplings, blocks * kk);
        }
        if (nodes > 1 || blocks > 0) {
            try (ExecutionPlan p = new ExecutionPlan(build.snapshot())) {
                p.withDevice(device).execute();
            }
        }
        TaskGraph g = new TaskGraph("h2-top").transferToDevice(DataTransferMode.EVERY_EXECUTION, xhat)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, rowPtr, col, rankStart, eOff, sOff);
        for (int l = level; l >= 1; l--) {
            g.task("upsweep-l" + l, H2Kernels::transferUpsweep, transfers, eOff, xhat, rankStart, (1 << (l - 1)) - 1, (long) (1 << (l - 1)) * k, k, 1);
        }
        for (int l = 0; l <= level; l++) {
            g.task("coupling-l" + l, H2Kernels::coupling, rowPtr, col, couplings, sOff, xhat, rankStart, yhat, rankStart, (1 << l) - 1,
                    (long) (1 << l) * k, k, 1);
        }
        for (int l = 1; l <= level; l++) {
            g.task("downsweep-l" + l, H2Kernels::transferDownsweep, transfers, eOff, yhat, rankStart, (1 << l) - 1, (long) (1 << l) * k, k, 1);
        }
        g.transferToHost(DataTransferMode.EVERY_EXECUTION, yhat);
        plan = new ExecutionPlan(g.snapshot()).withDevice(device);
    }

    /** The roots' {@code yhat} ({@code k} values per part, part order) from their {@code xhat} (same layout). */
    synchronized double[] run(double[] rootXhat) {
        int first = (1 << level) - 1;
        MemorySegment.copy(rootXhat, 0, xhat.segment(), ValueLayout.JAVA_DOUBLE, 8L * first * rank, rootXhat.length);
        plan.execute();
        double[] out = new double[rootXhat.length];
        MemorySegment.copy(yhat.segment(), ValueLayout.JAVA_DOUBLE, 8L * first * rank, out, 0, out.length);
        return out;
    }

    @Override
    public synchronized void close() {
        plan.close();
        device.free(all.toArray(KernelArray[]::new));
    }
}
