package dev.squall.bench.suite;

import dev.squall.tasks.api.*;

/**
 * The compute limit of {@link DeviceLimits}: each work-item runs eight independent multiply-add chains, so the
 * device's floating-point units, not memory or latency, bound the time. The values stay finite (a contraction
 * towards 1), and the result is written so that no compiler can drop the loop.
 */
public final class LimitKernels {
    /** Independent chains per work-item: enough to cover the latency of a multiply-add. */
    public static final int CHAINS = 8;

    private LimitKernels() {
    }

    /** {@code out[i]} = the sum of eight chains of {@code iterations} steps {@code v = v * m + c}: 16 flops a step. */
    @Kernel
    public static void fma64(@NoAlias DoubleArray out, double m, double c, int iterations, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            double a0 = i * 1e-9, a1 = a0 + 0.1, a2 = a0 + 0.2, a3 = a0 + 0.3, a4 = a0 + 0.4, a5 = a0 + 0.5, a6 = a0 + 0.6, a7 = a0 + 0.7;
            for (int k = 0; k < iterations; k++) {
                a0 = a0 * m + c;
                a1 = a1 * m + c;
                a2 = a2 * m + c;
                a3 = a3 * m + c;
                a4 = a4 * m + c;
                a5 = a5 * m + c;
                a6 = a6 * m + c;
                a7 = a7 * m + c;
            }
            out.set(i, a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7);
        }
    }
}
