package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.annotations.Reduce;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/** A dot product: a map and a @Reduce in one task, over Java arrays. */
public class DotProduct {
    public static void dot(float[] a, float[] b, @Reduce float[] result) {
        result[0] = 0.0f;
        for (@Parallel int i = 0; i < a.length; i++) {
            float p = a[i] * b[i];
            result[0] += p;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 4_000_000);
        float[] a = ExampleCheck.randomFloats(n, 18), b = ExampleCheck.randomFloats(n, 19), result = new float[1], expected = new float[1];
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", DotProduct::dot, a, b, result)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, result);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> dot(a, b, expected));
            // against the dot product in double; the device's: one rounding per product, then the reduction's depth
            double exact = 0, abs = 0;
            for (int i = 0; i < n; i++) {
                exact += (double) a[i] * b[i];
                abs += Math.abs((double) a[i] * b[i]);
            }
            double bound = (ExampleCheck.gammaFloat(ExampleCheck.reductionDepth(n) + 1) + ExampleCheck.gammaDouble(n)) * abs;
            if (Math.abs(expected[0] - exact) > ExampleCheck.gammaFloat(n + 1) * abs) throw new AssertionError("the Java dot product is off: " + expected[0]);
            ExampleCheck.finish("DotProduct", n, plan, t, j, Math.abs(exact - result[0]), bound);
        }
    }
}
