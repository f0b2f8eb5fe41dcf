package dev.squall.bench.demo;

import dev.squall.tasks.api.*;

/** Two small kernels: one loop-parallel, one SPMD with local memory and sub-group sums ({@link dev.squall.bench.jmh.JvmWorkGroupBenchmark} times the second). */
public final class DemoKernels {
    private DemoKernels() {
    }

    @Kernel
    public static void saxpy(@ReadOnly FloatArray x, @NoAlias FloatArray y, float a, int n) {
        for (@Parallel int i = 0; i < n; i++) y.set(i, a * x.get(i) + y.get(i));
    }

    /** Sums of squares per work-group: each sub-group reduces in registers, then one value per sub-group goes through local memory. */
    @Kernel
    public static void sumSquares(KernelContext ctx, @ReadOnly DoubleArray x, DoubleArray partial, int n) {
        double[] perSubgroup = ctx.allocateDoubleLocalArray(32);
        double s = 0;
        for (int i = ctx.globalIdx; i < n; i += ctx.globalGroupSizeX) s += x.get(i) * x.get(i);
        s = ctx.subgroupReduceAdd(s);
        int sg = ctx.localIdx / ctx.subgroupSize();
        if (ctx.subgroupLocalId() == 0) perSubgroup[sg] = s;
        ctx.localBarrier();
        if (ctx.localIdx == 0) {
            double t = 0;
            for (int k = 0; k < ctx.localGroupSizeX / ctx.subgroupSize(); k++) t += perSubgroup[k];
            partial.set(ctx.groupIdx, t);
        }
    }
}
