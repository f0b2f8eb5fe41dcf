package dev.squall.bench.jmh;

import dev.squall.tasks.api.*;

/** The SPMD kernel of {@link JvmWorkGroupBenchmark}: a local-memory tiled GEMM. */
public final class WorkGroupKernels {
    /** Tile edge; work-groups are TILE x TILE. */
    public static final int TILE = 16;

    private WorkGroupKernels() {
    }

    /** C = A B for n x n row-major matrices (n a multiple of 16): one 16 x 16 tile of C per group, tiles of A and B staged in local memory. */
    @Kernel
    public static void tiledGemm(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, int n) {
        double[] as = ctx.allocateDoubleLocalArray(TILE * TILE);
        double[] bs = ctx.allocateDoubleLocalArray(TILE * TILE);
        int tx = ctx.localIdx, ty = ctx.localIdy;
        int row = ctx.globalIdy, col = ctx.globalIdx;
        double sum = 0;
        for (int t = 0; t < n; t += TILE) {
            as[ty * TILE + tx] = a.get(row * n + t + tx);
            bs[ty * TILE + tx] = b.get((t + ty) * n + col);
            ctx.localBarrier();
            for (int k = 0; k < TILE; k++) sum += as[ty * TILE + k] * bs[k * TILE + tx];
            ctx.localBarrier();
        }
        c.set(row * n + col, sum);
    }
}
