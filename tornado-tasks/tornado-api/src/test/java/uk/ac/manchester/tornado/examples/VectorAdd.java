package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/** c = a + b on Java arrays, a loop-parallel kernel. */
public class VectorAdd {
    public static void vectorAdd(float[] a, float[] b, float[] c) {
        for (@Parallel int i = 0; i < c.length; i++) {
            c[i] = a[i] + b[i];
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        float[] a = ExampleCheck.randomFloats(n, 1), b = ExampleCheck.randomFloats(n, 2), c = new float[n], expected = new float[n];
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", VectorAdd::vectorAdd, a, b, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        ImmutableTaskGraph itg = graph.snapshot();
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(itg)) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> vectorAdd(a, b, expected));
            ExampleCheck.finish("VectorAdd", n, plan, t, j, ExampleCheck.maxDiff(expected, c), 0);
        }
    }
}
