package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/** A histogram with atomic adds on a KernelContext. */
public class Histogram {
    public static void histogram(KernelContext context, IntArray data, IntArray bins) {
        int i = context.globalIdx;
        if (i < data.getSize()) {
            context.atomicAdd(bins, data.get(i), 1);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000), nbins = 97;
        IntArray data = new IntArray(n), bins = new IntArray(nbins);
        java.util.Random r = new java.util.Random(12);
        for (int i = 0; i < n; i++) data.set(i, (int) Math.min(nbins - 1, Math.abs(r.nextGaussian()) * nbins / 3));
        int[] expected = new int[nbins];
        WorkerGrid1D worker = new WorkerGrid1D((n + 255) / 256 * 256);
        worker.setLocalWork(256, 1, 1);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, data)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, bins)
                .task("t0", Histogram::histogram, new KernelContext(), data, bins)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, bins);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            plan.withGridScheduler(new GridScheduler("s0.t0", worker));
            double t = ExampleCheck.time(() -> {
                bins.init(0);
                plan.execute();
            });
            double j = ExampleCheck.time(() -> {
                java.util.Arrays.fill(expected, 0);
                for (int i = 0; i < n; i++) expected[data.get(i)]++;
            });
            ExampleCheck.finish("Histogram", n, plan, t, j, ExampleCheck.maxDiff(expected, bins.toHeapArray()), 0);
        }
    }
}
