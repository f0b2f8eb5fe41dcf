package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/** long[] arithmetic that overflows: the same wrap-around as Java's on every device. */
public class LongSquares {
    public static void squares(long[] x, long[] y) {
        for (@Parallel int i = 0; i < x.length; i++) {
            y[i] = x[i] * x[i] + (x[i] >>> 7) - (x[i] >> 3);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        long[] x = new long[n], y = new long[n], expected = new long[n];
        java.util.Random r = new java.util.Random(22);
        for (int i = 0; i < n; i++) x[i] = r.nextLong();
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", LongSquares::squares, x, y)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> squares(x, expected));
            ExampleCheck.finish("LongSquares", n, plan, t, j, ExampleCheck.maxDiff(expected, y), 0);
        }
    }
}
