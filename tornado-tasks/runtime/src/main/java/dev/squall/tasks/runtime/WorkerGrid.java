package dev.squall.tasks.runtime;

import java.util.Arrays;

/**
 * A launch grid: global sizes (work-items per dimension) and optionally work-group sizes.
 * SPMD kernels need one; loop-parallel kernels get one from their trip counts unless given.
 *
 * <pre>{@code WorkerGrid g = WorkerGrid.of(1 << 20).withLocal(256); }</pre>
 */
public record WorkerGrid(long[] global, long[] local) {
    public WorkerGrid {
        if (global.length < 1 || global.length > 3) throw new IllegalArgumentException("a grid has 1 to 3 dimensions, got " + global.length);
        for (long g : global) if (g < 1) throw new IllegalArgumentException("global sizes must be >= 1: " + Arrays.toString(global));
        if (local != null) {
            if (local.length != global.length) throw new IllegalArgumentException("local " + Arrays.toString(local) + " and global " + Arrays.toString(global) + " differ in dimensions");
            for (int d = 0; d < local.length; d++) {
                if (local[d] < 1 || global[d] % local[d] != 0) {
                    throw new IllegalArgumentException("global size " + global[d] + " is not a multiple of local size " + local[d] + " in dimension " + d);
                }
            }
        }
        global = global.clone();
        local = local == null ? null : local.clone();
    }

    public static WorkerGrid of(long... global) {
        return new WorkerGrid(global, null);
    }

    public WorkerGrid withLocal(long... local) {
        return new WorkerGrid(global, local);
    }

    public int dimensions() {
        return global.length;
    }

    @Override
    public String toString() {
        return "global " + Arrays.toString(global) + (local == null ? "" : " local " + Arrays.toString(local));
    }
}
