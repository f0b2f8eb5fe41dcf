package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** Three tasks in one graph, each reading the previous one's output on the device (no copies in between). */
public class MultiTaskPipeline {
    public static void scale(FloatArray x, FloatArray y, float s) {
        for (@Parallel int i = 0; i < x.getSize(); i++) {
            y.set(i, s * x.get(i));
        }
    }

    public static void square(FloatArray y, FloatArray z) {
        for (@Parallel int i = 0; i < y.getSize(); i++) {
            z.set(i, y.get(i) * y.get(i));
        }
    }

    public static void addBoth(FloatArray y, FloatArray z, FloatArray out) {
        for (@Parallel int i = 0; i < y.getSize(); i++) {
            out.set(i, y.get(i) + z.get(i));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        FloatArray x = FloatArray.fromArray(ExampleCheck.randomFloats(n, 14)), y = new FloatArray(n), z = new FloatArray(n), out = new FloatArray(n);
        FloatArray ey = new FloatArray(n), ez = new FloatArray(n), expected = new FloatArray(n);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("scale", MultiTaskPipeline::scale, x, y, 3.0f)
                .task("square", MultiTaskPipeline::square, y, z)
                .task("add", MultiTaskPipeline::addBoth, y, z, out)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> {
                scale(x, ey, 3.0f);
                square(ey, ez);
                addBoth(ey, ez, expected);
            });
            // the same roundings in the same order (no fusion across tasks): exact
            ExampleCheck.finish("MultiTaskPipeline", n, plan, t, j, ExampleCheck.maxDiff(expected.toHeapArray(), out.toHeapArray()), 0);
        }
    }
}
