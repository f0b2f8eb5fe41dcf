package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** TornadoVM's KernelContext reduction: each work-group sums its part in local memory, the host adds the group sums in double. */
public class LocalMemoryReduction {
    public static void groupSums(KernelContext context, FloatArray a, FloatArray partial) {
        int gid = context.globalIdx, lid = context.localIdx, groupSize = context.localGroupSizeX;
        float[] local = context.allocateFloatLocalArray(256);
        local[lid] = gid < a.getSize() ? a.get(gid) : 0.0f;
        for (int stride = groupSize / 2; stride > 0; stride /= 2) {
            context.localBarrier();
            if (lid < stride) {
                local[lid] += local[lid + stride];
            }
        }
        context.localBarrier();
        if (lid == 0) {
            partial.set(context.groupIdx, local[0]);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000), groups = (n + 255) / 256;
        FloatArray a = FloatArray.fromArray(ExampleCheck.randomFloats(n, 11)), partial = new FloatArray(groups);
        WorkerGrid1D worker = new WorkerGrid1D(groups * 256L);
        worker.setLocalWork(256, 1, 1);
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t0", LocalMemoryReduction::groupSums, new KernelContext(), a, partial)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partial);
        double[] sums = new double[2];
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            plan.withGridScheduler(new GridScheduler("s0.t0", worker));
            double t = ExampleCheck.time(() -> {
                plan.execute();
                double s = 0;
                for (int g = 0; g < groups; g++) s += partial.get(g);
                sums[0] = s;
            });
            double j = ExampleCheck.time(() -> {
                double s = 0;
                for (int i = 0; i < n; i++) s += a.get(i);
                sums[1] = s;
            });
            double abs = 0;
            for (int i = 0; i < n; i++) abs += Math.abs(a.get(i));
            // 8 float levels in the work-group, then sums in double (both sides): gamma_8(float) + 2 gamma_n(double)
            ExampleCheck.finish("LocalMemoryReduction", n, plan, t, j, Math.abs(sums[0] - sums[1]),
                    (ExampleCheck.gammaFloat(8) + 2 * ExampleCheck.gammaDouble(n)) * abs);
        }
    }
}
