package dev.squall.linalg.triangular;

import dev.squall.tasks.api.*;

/**
 * Stan's {@code diag_inv} in double precision: inverts the {@code tb x tb} lower-triangular
 * blocks on the diagonal of a batch of matrices in one launch (Stan Math's OpenCL triangular
 * inverse, Češnovar et al.). The off-diagonal blocks are then assembled by
 * {@link TriangularInverse} with GEMMs ({@code C3 = -C2 A3 C1}).
 *
 * <p>The compiler generates the single-precision twin {@code TriangularKernelsF32} from this class
 * and the typed handles on both, {@code TriangularKernels} ({@code @Fp32Variant}): {@code TriangularKernels.kernel.at(precision)} is the kernel to launch.
 */
@dev.squall.tasks.api.Fp32Variant(value = "TriangularKernelsF32", handles = "TriangularKernels")
public final class TriangularKernelsF64 {
    /** Largest diagonal block {@link #diagInv} inverts; also its work-group size. */
    public static final int MAX_BLOCK = 64;

    private TriangularKernelsF64() {
    }

    /**
     * Work-group {@code g} inverts diagonal block {@code g % blocks} of matrix {@code g / blocks}
     * (at {@code wOff + e * stride}, leading dimension {@code ldw}, order {@code n}); the block
     * is cut at {@code n}. Work-item {@code j} computes column {@code j} of the block's inverse by
     * forward substitution ({@code x_i = -sum_{k=j}^{i-1} L_ik x_k / L_ii}) in private memory, then
     * writes it over the block once every work-item has finished reading the block.
     */
    @Kernel
    public static void diagInv(KernelContext ctx, DoubleArray w, int wOff, int ldw, int stride, int n, int tb, int blocks) {
        double[] l = ctx.allocateDoubleLocalArray(MAX_BLOCK * MAX_BLOCK);
        double[] x = new double[MAX_BLOCK];
        int e = ctx.groupIdx / blocks;
        int k0 = (ctx.groupIdx - e * blocks) * tb;
        int bs = Math.min(tb, n - k0);
        int base = wOff + e * stride + k0 + k0 * ldw;
        int j = ctx.localIdx;
        for (int idx = j; idx < bs * bs; idx += MAX_BLOCK) {
            int r = idx % bs, c = idx / bs;
            l[r + c * MAX_BLOCK] = w.get(base + r + c * ldw);
        }
        ctx.localBarrier();
        if (j < bs) {
            x[j] = 1 / l[j + j * MAX_BLOCK];
            for (int i = j + 1; i < bs; i++) {
                double s = 0;
                for (int k = j; k < i; k++) s += l[i + k * MAX_BLOCK] * x[k];
                x[i] = -s / l[i + i * MAX_BLOCK];
            }
        }
        ctx.localBarrier();
        if (j < bs) {
            for (int i = 0; i < bs; i++) l[i + j * MAX_BLOCK] = i < j ? 0 : x[i];
        }
        ctx.localBarrier();
        for (int idx = j; idx < bs * bs; idx += MAX_BLOCK) {
            int r = idx % bs, c = idx / bs;
            w.set(base + r + c * ldw, l[r + c * MAX_BLOCK]);
        }
    }
}
