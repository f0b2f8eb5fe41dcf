package dev.squall.sparse.limits;

import dev.squall.sparse.limits.kernels.LimitKernelsF64;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * STREAM-style copy bandwidth of a device, measured with the one fp64 copy kernel of the project: the limit that
 * SpMV's, the H2 product's and the STREAM suite's bandwidths are compared with. Other modules add the kernel to their
 * own graphs through {@link #copyTask}, since the kernel package is not exported.
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
        TaskGraph g = new TaskGraph("copybw").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b);
        copyTask(g, "copy", a, b, n);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(device).withProfiler(true);
            plan.execute();
            double best = Double.POSITIVE_INFINITY;
            for (int r = 0; r < runs; r++) best = Math.min(best, plan.execute().profile().kernelMillis());
            plan.freeDeviceMemory();
            return 16.0 * n / (best * 1e-3) / 1e9;
        }
    }

    /** Adds the copy kernel {@code b[i] = a[i]} for {@code i < n} to {@code g} as task {@code name}; returns {@code g}. */
    public static TaskGraph copyTask(TaskGraph g, String name, DoubleArray a, DoubleArray b, int n) {
        return g.task(name, LimitKernelsF64::copy, a, b, n);
    }
}
