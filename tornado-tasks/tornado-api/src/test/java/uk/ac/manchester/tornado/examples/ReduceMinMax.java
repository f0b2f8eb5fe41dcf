package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.annotations.Reduce;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.math.TornadoMath;

/** Max (initial value from the host) and min (initial value in the kernel) reductions over double[] in one graph. */
public class ReduceMinMax {
    public static void max(double[] input, @Reduce double[] result) {
        for (@Parallel int i = 0; i < input.length; i++) {
            result[0] = TornadoMath.max(result[0], input[i]);
        }
    }

    public static void min(double[] input, @Reduce double[] result) {
        result[0] = Double.MAX_VALUE;
        for (@Parallel int i = 0; i < input.length; i++) {
            result[0] = Math.min(result[0], input[i]);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 4_000_000);
        double[] input = new double[n], max = {Double.NEGATIVE_INFINITY}, min = new double[1];
        java.util.Random r = new java.util.Random(17);
        for (int i = 0; i < n; i++) input[i] = r.nextGaussian() * 1e3;
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, input, max)
                .task("max", ReduceMinMax::max, input, max)
                .task("min", ReduceMinMax::min, input, min)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, max, min);
        double[] emax = {Double.NEGATIVE_INFINITY}, emin = new double[1];
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> {
                max(input, emax);
                min(input, emin);
            });
            ExampleCheck.finish("ReduceMinMax", n, plan, t, j, Math.max(Math.abs(emax[0] - max[0]), Math.abs(emin[0] - min[0])), 0);
        }
    }
}
