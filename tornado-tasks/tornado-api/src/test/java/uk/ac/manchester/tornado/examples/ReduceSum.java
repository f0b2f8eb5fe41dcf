package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.annotations.Reduce;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** TornadoVM's reduction example: a @Reduce parameter summed in a parallel loop. */
public class ReduceSum {
    public static void reduce(FloatArray input, @Reduce FloatArray result) {
        result.set(0, 0.0f);
        for (@Parallel int i = 0; i < input.getSize(); i++) {
            result.set(0, result.get(0) + input.get(i));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 4_000_000);
        FloatArray input = FloatArray.fromArray(ExampleCheck.randomFloats(n, 16)), result = new FloatArray(1), expected = new FloatArray(1);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, input)
                .task("t0", ReduceSum::reduce, input, result)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, result);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> reduce(input, expected));
            // against the sum in double (error gamma_n(double) sum|x|); the device's float sum is within gamma(depth) sum|x|
            double exact = 0, abs = 0;
            for (int i = 0; i < n; i++) {
                exact += input.get(i);
                abs += Math.abs(input.get(i));
            }
            double bound = (ExampleCheck.gammaFloat(ExampleCheck.reductionDepth(n)) + ExampleCheck.gammaDouble(n)) * abs;
            if (Math.abs(expected.get(0) - exact) > ExampleCheck.gammaFloat(n) * abs) throw new AssertionError("the Java sum is off: " + expected.get(0));
            ExampleCheck.finish("ReduceSum", n, plan, t, j, Math.abs(exact - result.get(0)), bound);
        }
    }
}
