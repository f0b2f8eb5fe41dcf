package dev.squall.sparse.limits;

import dev.squall.sparse.limits.kernels.LimitKernelsF64;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * STREAM-style copy bandwidth of a device, measured with a copy kernel in this module: the
 * limit that SpMV's counted bandwidth is compared with.
 *
 * <pre>{@code
 * double gbs = CopyBandwidth.measure(device, 1 << 24, 10);   // bytes read + written per second / 1e9
 * }</pre>
 */
public final class CopyBandwidth {
    private CopyBandwidth() {
    }

    /** Best of {@code runs} copies of {@code n} doubles, in GB/s (2 · 8 · n bytes per copy). */
    public static double measure(Device device, int n, int runs) {
        DoubleArray a = new DoubleArray(n);
        DoubleArray b = new DoubleArray(n);
        a.init(1.0);
        TaskGraph g = new TaskGraph("copybw").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("copy", LimitKernelsF64::copy, a, b, n);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(device).withProfiler(true);
            plan.execute();
            double best = Double.POSITIVE_INFINITY;
            for (int r = 0; r < runs; r++) best = Math.min(best, plan.execute().profile().kernelMillis());
            plan.freeDeviceMemory();
            return 16.0 * n / (best * 1e-3) / 1e9;
        }
    }
}
