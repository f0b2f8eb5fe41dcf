package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.DoubleArray;

/**
 * Two graphs in one plan sharing device data: the first writes {@code y} on the device, the second reads it there; the
 * host asks for {@code y} only on demand, after the run.
 */
public class SharedDeviceData {
    public static void polynomial(DoubleArray x, DoubleArray y) {
        for (@Parallel int i = 0; i < x.getSize(); i++) {
            double v = x.get(i);
            y.set(i, ((0.5 * v - 1.25) * v + 2.0) * v - 0.75);
        }
    }

    public static void smooth(DoubleArray y, DoubleArray out) {
        for (@Parallel int i = 0; i < y.getSize(); i++) {
            int l = Math.max(i - 1, 0), r = Math.min(i + 1, y.getSize() - 1);
            out.set(i, 0.25 * y.get(l) + 0.5 * y.get(i) + 0.25 * y.get(r));
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        DoubleArray x = new DoubleArray(n), y = new DoubleArray(n), out = new DoubleArray(n), ey = new DoubleArray(n), eout = new DoubleArray(n);
        java.util.Random r = new java.util.Random(15);
        for (int i = 0; i < n; i++) x.set(i, 4 * r.nextDouble() - 2);
        TaskGraph first = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", SharedDeviceData::polynomial, x, y)
                .transferToHost(DataTransferMode.UNDER_DEMAND, y);
        TaskGraph second = new TaskGraph("s1")
                .task("t0", SharedDeviceData::smooth, y, out)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(first.snapshot(), second.snapshot())) {
            TornadoExecutionResult[] last = new TornadoExecutionResult[1];
            double t = ExampleCheck.time(() -> last[0] = plan.execute());
            last[0].transferToHost(y);
            double j = ExampleCheck.time(() -> {
                polynomial(x, ey);
                smooth(ey, eout);
            });
            double err = Math.max(ExampleCheck.maxDiff(ey.toHeapArray(), y.toHeapArray()), ExampleCheck.maxDiff(eout.toHeapArray(), out.toHeapArray()));
            // |y| < 6.5 and fused multiply-adds may round differently: a few ulp of 8
            ExampleCheck.finish("SharedDeviceData", n, plan, t, j, err, 8 * 0x1p-50);
        }
    }
}
