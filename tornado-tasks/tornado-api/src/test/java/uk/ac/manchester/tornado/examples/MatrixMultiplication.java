package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** C = A B on flat FloatArrays: two nested @Parallel loops make a 2D grid. */
public class MatrixMultiplication {
    public static void matrixMultiplication(FloatArray a, FloatArray b, FloatArray c, int size) {
        for (@Parallel int i = 0; i < size; i++) {
            for (@Parallel int j = 0; j < size; j++) {
                float sum = 0.0f;
                for (int k = 0; k < size; k++) {
                    sum += a.get(i * size + k) * b.get(k * size + j);
                }
                c.set(i * size + j, sum);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int size = ExampleCheck.size(args, 512);
        FloatArray a = FloatArray.fromArray(ExampleCheck.randomFloats(size * size, 5)), b = FloatArray.fromArray(ExampleCheck.randomFloats(size * size, 6));
        FloatArray c = new FloatArray(size * size), expected = new FloatArray(size * size);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", MatrixMultiplication::matrixMultiplication, a, b, c, size)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> matrixMultiplication(a, b, expected, size));
            // size products of magnitude < 1 each: both results within gamma(size) * size of the exact one
            ExampleCheck.finish("MatrixMultiplication", size, plan, t, j, ExampleCheck.maxDiff(expected.toHeapArray(), c.toHeapArray()),
                    2 * ExampleCheck.gammaFloat(size) * size);
        }
    }
}
