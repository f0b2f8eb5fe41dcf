package dev.squall.bench.queues;

import dev.squall.tasks.api.*;

/** A kernel whose time is a long dependent loop per work-item, so a few work-groups keep part of a device busy. */
public final class QueueOverlapKernels {
    private QueueOverlapKernels() {
    }

    /** Two dependent fp64 recurrences of {@code iterations} steps per work-item; their sum goes to {@code out}. */
    @Kernel
    public static void spin(KernelContext ctx, DoubleArray out, int iterations) {
        int i = ctx.globalIdx;
        double x = 1.0 + i * 1.0e-6;
        double y = 0.5;
        for (int k = 0; k < iterations; k++) {
            x = x * 0.9999999 + y * 1.0e-7;
            y = y * 0.9999999 + 1.0e-7;
        }
        out.set(i, x + y);
    }

    /** The host reference of {@link #spin} for work-item {@code i}. */
    public static double spinReference(int i, int iterations) {
        double x = 1.0 + i * 1.0e-6;
        double y = 0.5;
        for (int k = 0; k < iterations; k++) {
            x = x * 0.9999999 + y * 1.0e-7;
            y = y * 0.9999999 + 1.0e-7;
        }
        return x + y;
    }
}
