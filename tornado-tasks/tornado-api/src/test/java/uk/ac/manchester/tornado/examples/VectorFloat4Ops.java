package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.collections.VectorFloat4;
import uk.ac.manchester.tornado.api.types.vectors.Float4;

/** VectorFloat4 kernels: element-wise Float4.add and the Float4.dot of each pair. */
public class VectorFloat4Ops {
    public static void addVectors(VectorFloat4 a, VectorFloat4 b, VectorFloat4 c) {
        for (@Parallel int i = 0; i < c.getLength(); i++) {
            c.set(i, Float4.add(a.get(i), b.get(i)));
        }
    }

    public static void dots(VectorFloat4 a, VectorFloat4 b, FloatArray out) {
        for (@Parallel int i = 0; i < a.getLength(); i++) {
            Float4 x = a.get(i);
            out.set(i, Float4.dot(x, b.get(i)));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        VectorFloat4 a = new VectorFloat4(n), b = new VectorFloat4(n), c = new VectorFloat4(n), ec = new VectorFloat4(n);
        FloatArray d = new FloatArray(n), ed = new FloatArray(n);
        java.util.Random r = new java.util.Random(21);
        for (int i = 0; i < n; i++) {
            a.set(i, new Float4(r.nextFloat(), r.nextFloat(), r.nextFloat(), r.nextFloat()));
            b.set(i, new Float4(r.nextFloat(), r.nextFloat(), r.nextFloat(), r.nextFloat()));
        }
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("add", VectorFloat4Ops::addVectors, a, b, c)
                .task("dot", VectorFloat4Ops::dots, a, b, d)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c, d);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> {
                addVectors(a, b, ec);
                dots(a, b, ed);
            });
            // sums of one rounding equal Java's exactly (any difference fails); dots of 4 products in [0, 1): within 2 gamma(4) * 4
            double sumErr = ExampleCheck.maxDiff(ec.getArray().toHeapArray(), c.getArray().toHeapArray());
            double err = sumErr == 0 ? ExampleCheck.maxDiff(ed.toHeapArray(), d.toHeapArray()) : Double.POSITIVE_INFINITY;
            ExampleCheck.finish("VectorFloat4Ops", n, plan, t, j, err, 2 * ExampleCheck.gammaFloat(4) * 4);
        }
    }
}
