package dev.squall.bench.suite;

import dev.squall.bench.stream.StreamBench;
import dev.squall.bench.stream.StreamResult;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;

import java.util.Arrays;
import java.util.List;

/**
 * What a device can do at best, measured once per device and run: the STREAM copy bandwidth (GB/s, the four STREAM
 * kernels built and warmed before any is timed, arrays larger than a CPU's caches) and the multiply-add throughput
 * ({@link LimitKernels#fma64}, GFLOP/s, fp64). Memory-bound workloads are compared with the first, compute-bound ones
 * with the second.
 *
 * @param device      device id
 * @param copyGbs     STREAM copy, GB/s (bytes read + written), median of the timed runs
 * @param copyElements elements per STREAM array
 * @param fmaGflops   multiply-add throughput, GFLOP/s, best of the timed runs
 * @param millis      wall time of the two measurements
 */
public record DeviceLimits(String device, double copyGbs, long copyElements, double fmaGflops, double millis) {
    /** Measures both limits on {@code device} (about a second on a CPU; the STREAM warm-up dominates). */
    public static DeviceLimits measure(Device device) {
        long t0 = System.nanoTime();
        int n = device.info().isGpu() ? 1 << 26 : 1 << 23;
        List<StreamResult> stream = StreamBench.bandwidth(device, n, device.info().fp64() ? "fp64" : "fp32", 15, null);
        double copy = stream.getFirst().gbPerSecond();
        double fma = fmaGflops(device);
        return new DeviceLimits(device.id(), copy, n, fma, (System.nanoTime() - t0) / 1e6);
    }

    /** The limit a workload of {@code bound} is compared with. */
    public double limit(Bound bound) {
        return bound == Bound.MEMORY ? copyGbs : fmaGflops;
    }

    /** Best of 5 timed runs of {@link LimitKernels#fma64} after two untimed ones, in GFLOP/s. */
    static double fmaGflops(Device device) {
        boolean gpu = device.info().isGpu();
        int n = gpu ? 1 << 21 : 1 << 14;
        int iterations = gpu ? 4096 : 1024;
        DoubleArray out = new DoubleArray(n);
        TaskGraph g = new TaskGraph("fmaLimit").task("fma", LimitKernels::fma64, out, 0.999, 0.001, iterations, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true)) {
            plan.execute();
            plan.execute();
            double best = Double.POSITIVE_INFINITY;
            for (int r = 0; r < 5; r++) best = Math.min(best, plan.execute().profile().kernelMillis());
            double sum = Arrays.stream(out.toHeapArray()).sum();
            if (!Double.isFinite(sum)) throw new IllegalStateException("the multiply-add limit kernel returned " + sum + " on " + device.id());
            return 2.0 * LimitKernels.CHAINS * iterations * (double) n / (best * 1e-3) / 1e9;
        }
    }
}
