package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DFloat;

/** TornadoVM's matrix multiplication on Matrix2DFloat: get(i, j), set(i, j, v) and the sizes in the kernel. */
public class Matrix2DMultiplication {
    public static void matrixMultiplication(Matrix2DFloat a, Matrix2DFloat b, Matrix2DFloat c) {
        for (@Parallel int i = 0; i < c.getNumRows(); i++) {
            for (@Parallel int j = 0; j < c.getNumColumns(); j++) {
                float sum = 0.0f;
                for (int k = 0; k < a.getNumColumns(); k++) {
                    sum += a.get(i, k) * b.get(k, j);
                }
                c.set(i, j, sum);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 512), k = n + 7, m = n - 3;
        Matrix2DFloat a = new Matrix2DFloat(n, k), b = new Matrix2DFloat(k, m), c = new Matrix2DFloat(n, m), expected = new Matrix2DFloat(n, m);
        java.util.Random r = new java.util.Random(20);
        for (int i = 0; i < n; i++) for (int j = 0; j < k; j++) a.set(i, j, r.nextFloat() * 2 - 1);
        for (int i = 0; i < k; i++) for (int j = 0; j < m; j++) b.set(i, j, r.nextFloat() * 2 - 1);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", Matrix2DMultiplication::matrixMultiplication, a, b, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> matrixMultiplication(a, b, expected));
            double err = 0;
            for (int i = 0; i < n; i++) for (int x = 0; x < m; x++) err = Math.max(err, Math.abs(expected.get(i, x) - c.get(i, x)));
            ExampleCheck.finish("Matrix2DMultiplication", n, plan, t, j, err, 2 * ExampleCheck.gammaFloat(k) * k);
        }
    }
}
