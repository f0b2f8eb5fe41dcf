package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/** c = a + b with a KernelContext and a 1D WorkerGrid of a global size that is not a multiple of the local size. */
public class ContextVectorAdd {
    public static void add(KernelContext context, IntArray a, IntArray b, IntArray c) {
        int i = context.globalIdx;
        if (i < c.getSize()) {
            c.set(i, a.get(i) + b.get(i));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        IntArray a = new IntArray(n), b = new IntArray(n), c = new IntArray(n);
        int[] expected = new int[n];
        java.util.Random r = new java.util.Random(9);
        for (int i = 0; i < n; i++) {
            a.set(i, r.nextInt());
            b.set(i, r.nextInt());
        }
        WorkerGrid1D worker = new WorkerGrid1D((n + 127) / 128 * 128);
        worker.setLocalWork(128, 1, 1);
        GridScheduler scheduler = new GridScheduler("s0.t0", worker);
        KernelContext context = new KernelContext();
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", ContextVectorAdd::add, context, a, b, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            plan.withGridScheduler(scheduler);
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> {
                for (int i = 0; i < n; i++) expected[i] = a.get(i) + b.get(i);
            });
            ExampleCheck.finish("ContextVectorAdd", n, plan, t, j, ExampleCheck.maxDiff(expected, c.toHeapArray()), 0);
        }
    }
}
