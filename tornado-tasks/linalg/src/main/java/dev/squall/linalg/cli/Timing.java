package dev.squall.linalg.cli;

import dev.squall.tasks.runtime.ExecutionPlan;

import java.util.Arrays;
import java.util.function.DoubleSupplier;

/** Device times (milliseconds) of repeated runs after one warm-up: median and minimum. */
record Timing(double medianMs, double minMs, double warmupMs) {
    static Timing measure(int repeat, DoubleSupplier runMillis) {
        System.err.print("warm-up (builds kernels) ... ");
        double warm = runMillis.getAsDouble();
        System.err.println(String.format("%.1f ms", warm));
        double[] t = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            t[i] = runMillis.getAsDouble();
            System.err.print("\rrun " + (i + 1) + "/" + repeat);
        }
        System.err.println();
        Arrays.sort(t);
        return new Timing(t[repeat / 2], t[0], warm);
    }

    /** Kernel times of {@code plan} (profiled) over {@code repeat} executions after one warm-up. */
    static Timing ofKernels(ExecutionPlan plan, int repeat) {
        return measure(repeat, () -> plan.execute().profile().kernelMillis());
    }

    double gflops(double flops) {
        return flops / (medianMs * 1e6);
    }
}
