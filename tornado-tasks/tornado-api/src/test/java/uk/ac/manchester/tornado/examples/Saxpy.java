package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** z = alpha x + y on off-heap FloatArrays; the scalar alpha listed in the transfers, as TornadoVM programs often do. */
public class Saxpy {
    public static void saxpy(float alpha, FloatArray x, FloatArray y, FloatArray z) {
        for (@Parallel int i = 0; i < z.getSize(); i++) {
            z.set(i, alpha * x.get(i) + y.get(i));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        float alpha = 2.5f;
        FloatArray x = FloatArray.fromArray(ExampleCheck.randomFloats(n, 3)), y = FloatArray.fromArray(ExampleCheck.randomFloats(n, 4));
        FloatArray z = new FloatArray(n), expected = new FloatArray(n);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, alpha, x, y)
                .task("t0", Saxpy::saxpy, alpha, x, y, z)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, z);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> saxpy(alpha, x, y, expected));
            // one multiply and one add, possibly fused: within 2 roundings of |alpha x| + |y| <= 3.5
            ExampleCheck.finish("Saxpy", n, plan, t, j, ExampleCheck.maxDiff(expected.toHeapArray(), z.toHeapArray()), 2 * 3.5 * 0x1p-24);
        }
    }
}
