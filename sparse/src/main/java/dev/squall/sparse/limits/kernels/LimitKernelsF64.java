package dev.squall.sparse.limits.kernels;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;

/**
 * Kernels of the measured limits that the commands compare their rates with: the gather limit of CSR-byte SpMV and the
 * copy kernel of the copy bandwidth. The compiler generates the single-precision twin {@code LimitKernelsF32} ({@link
 * Fp32Variant}) and typed handles on both, {@code LimitKernels} ({@code LimitKernels.gatherLimit.at(precision)}).
 */
@Fp32Variant(value = "LimitKernelsF32", handles = "LimitKernels")
public final class LimitKernelsF64 {
    private LimitKernelsF64() {
    }

    /**
     * The gather limit of CSR-byte SpMV (a measurement, not a product): work-group {@code g} streams entries
     * {@code [g * perGroup, min((g + 1) * perGroup, nnz))} of {@code col} and {@code val} (schedule order),
     * its work-items striding by the group size, so every sub-group step reads whole 32-byte sectors; each
     * work-item gathers {@code x[col]}, four entries in flight, and writes its sum to {@code out[global id]}
     * (so nothing is optimized away; one value per work-item, about one per row). No row pointers, lanes,
     * reductions or bins: what is left is the streams and the x gathers every CSR-byte format must make.
     */
    @Kernel
    public static void gatherLimit(KernelContext ctx, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray x,
                                   @NoAlias DoubleArray out, int nnz, int perGroup) {
        int size = ctx.localGroupSizeX;
        int k0 = ctx.groupIdx * perGroup;
        int k1 = Math.min(k0 + perGroup, nnz);
        double s0 = 0;
        double s1 = 0;
        int k = k0 + ctx.localIdx;
        while (k + 3 * size < k1) {
            int c0 = col.get(k);
            int c1 = col.get(k + size);
            int c2 = col.get(k + 2 * size);
            int c3 = col.get(k + 3 * size);
            double v0 = val.get(k);
            double v1 = val.get(k + size);
            double v2 = val.get(k + 2 * size);
            double v3 = val.get(k + 3 * size);
            s0 += v0 * x.get(c0) + v2 * x.get(c2);
            s1 += v1 * x.get(c1) + v3 * x.get(c3);
            k += 4 * size;
        }
        while (k < k1) {
            s0 += val.get(k) * x.get(col.get(k));
            k += size;
        }
        out.set(ctx.globalIdx, s0 + s1);
    }

    /** b = a: the copy kernel whose bandwidth the SpMV figures are compared with. */
    @Kernel
    public static void copy(@ReadOnly DoubleArray a, @NoAlias DoubleArray b, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            b.set(i, a.get(i));
        }
    }
}
