package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** The logistic function with TornadoMath.exp in float. */
public class Sigmoid {
    public static void sigmoid(FloatArray x, FloatArray y) {
        for (@Parallel int i = 0; i < x.getSize(); i++) {
            y.set(i, 1.0f / (1.0f + TornadoMath.exp(-x.get(i))));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        float[] raw = ExampleCheck.randomFloats(n, 8);
        for (int i = 0; i < n; i++) raw[i] *= 20;
        FloatArray x = FloatArray.fromArray(raw), y = new FloatArray(n), expected = new FloatArray(n);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", Sigmoid::sigmoid, x, y)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> sigmoid(x, expected));
            // float exp on devices is within 4 ulp (OpenCL 1.2, 7.4); the result is in (0, 1]: 8 ulp of 1
            ExampleCheck.finish("Sigmoid", n, plan, t, j, ExampleCheck.maxDiff(expected.toHeapArray(), y.toHeapArray()), 8 * 0x1p-23);
        }
    }
}
