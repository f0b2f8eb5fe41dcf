package dev.squall.tasks.runtime;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;

/** Kernels written once in double, with a generated fp32 twin and typed handles ({@code Axpy}). */
@Fp32Variant(value = "VariantKernelsF32", handles = "Axpy")
public final class VariantKernels {
    private VariantKernels() {
    }

    @Kernel
    public static void axpy(@ReadOnly DoubleArray x, DoubleArray y, double a, int n) {
        for (@Parallel int i = 0; i < n; i++) y.set(i, a * x.get(i) + y.get(i));
    }

    @Kernel
    public static void scaleSpmd(KernelContext ctx, DoubleArray y, double a, int n) {
        int i = ctx.globalIdx;
        if (i < n) y.set(i, a * y.get(i));
    }
}
