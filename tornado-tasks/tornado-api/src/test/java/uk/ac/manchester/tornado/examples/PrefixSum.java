package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/** A task with no parallel loop runs as one work-item, as in TornadoVM: a sequential prefix sum on the device. */
public class PrefixSum {
    public static void prefixSum(int[] a, int[] out) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
            out[i] = s;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 100_000);
        int[] a = new int[n], out = new int[n], expected = new int[n];
        java.util.Random r = new java.util.Random(13);
        for (int i = 0; i < n; i++) a[i] = r.nextInt(2001) - 1000;
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t0", PrefixSum::prefixSum, a, out)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> prefixSum(a, expected));
            ExampleCheck.finish("PrefixSum", n, plan, t, j, ExampleCheck.maxDiff(expected, out), 0);
        }
    }
}
