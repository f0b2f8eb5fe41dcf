package dev.squall.linalg.cli;

import dev.squall.cli.Progress;
import dev.squall.cli.RunOptions;
import dev.squall.tasks.runtime.ExecutionPlan;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/** Device times (milliseconds) of repeated runs after one warm-up: median and minimum. */
record Timing(double medianMs, double minMs, double warmupMs) {
    /** One warm-up and {@code run.repeat()} timed runs of {@code runMillis}, with a progress bar on long runs. */
    static Timing measure(String task, RunOptions run, DoubleSupplier runMillis) {
        int repeat = run.repeat();
        double[] t = new double[repeat];
        double warm;
        try (Progress p = Progress.open(run.progress(), task, repeat + 1L, "runs")) {
            warm = runMillis.getAsDouble();
            System.err.println(String.format(Locale.ROOT, "warm-up (builds kernels): %.1f ms", warm));
            p.step();
            for (int i = 0; i < repeat; i++) {
                t[i] = runMillis.getAsDouble();
                p.step();
            }
        }
        Arrays.sort(t);
        return new Timing(t[repeat / 2], t[0], warm);
    }

    /** Kernel times of {@code plan} (profiled) over {@code run.repeat()} executions after one warm-up. */
    static Timing ofKernels(String task, ExecutionPlan plan, RunOptions run) {
        return measure(task, run, () -> plan.execute().profile().kernelMillis());
    }

    double gflops(double flops) {
        return flops / (medianMs * 1e6);
    }
}
