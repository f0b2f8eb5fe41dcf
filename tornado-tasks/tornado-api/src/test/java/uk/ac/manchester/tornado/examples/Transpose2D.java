package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid2D;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** A rows x (rows + 37) transpose through a 16 x 16 tile of local memory: a 2D WorkerGrid, local arrays and a barrier. */
public class Transpose2D {
    public static void transpose(KernelContext context, FloatArray in, FloatArray out, int rows, int cols) {
        float[] tile = context.allocateFloatLocalArray(272);
        int lx = context.localIdx, ly = context.localIdy;
        int i = context.groupIdy * 16 + ly, j = context.groupIdx * 16 + lx;
        if (i < rows && j < cols) {
            tile[ly * 17 + lx] = in.get(i * cols + j);
        }
        context.localBarrier();
        int oi = context.groupIdx * 16 + ly, oj = context.groupIdy * 16 + lx;
        if (oi < cols && oj < rows) {
            out.set(oi * rows + oj, tile[lx * 17 + ly]);
        }
    }

    public static void main(String[] args) throws Exception {
        int rows = ExampleCheck.size(args, 2000), cols = rows + 37;
        FloatArray in = FloatArray.fromArray(ExampleCheck.randomFloats(rows * cols, 10)), out = new FloatArray(rows * cols);
        float[] expected = new float[rows * cols];
        WorkerGrid2D worker = new WorkerGrid2D((cols + 15) / 16 * 16, (rows + 15) / 16 * 16);
        worker.setLocalWork(16, 16, 1);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, in)
                .task("t0", Transpose2D::transpose, new KernelContext(), in, out, rows, cols)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            plan.withGridScheduler(new GridScheduler("s0.t0", worker));
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> {
                for (int i = 0; i < rows; i++) for (int k = 0; k < cols; k++) expected[k * rows + i] = in.get(i * cols + k);
            });
            ExampleCheck.finish("Transpose2D", rows, plan, t, j, ExampleCheck.maxDiff(expected, out.toHeapArray()), 0);
        }
    }
}
