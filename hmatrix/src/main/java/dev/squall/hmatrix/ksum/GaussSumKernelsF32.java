package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.KernelMath;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.ReadOnly;

/**
 * The fp32 Gaussian sum in 3 dimensions, one column: the reference problem's kernel, without the kernel-family branch
 * of {@link KernelSumKernelsF64#sum3} and with the hardware exponential ({@link KernelMath#fastExp}: on CUDA
 * {@code __expf}, one multiply and one {@code ex2.approx}, instead of about eight instructions). Its relative error,
 * about {@code 2^-22 + |x| 2^-24} for {@code exp(x)}, stays below 1e-6 for every term above 1e-7 and is far below the
 * fp32 rounding of the sum. Tiles, ranges and the order of addition (partials per aligned block of
 * {@link KernelSumKernelsF64#PARTIAL} sources) are those of {@code sum3}, so dense and block-sparse products agree in
 * the same way.
 */
public final class GaussSumKernelsF32 {
    private GaussSumKernelsF32() {
    }

    /**
     * {@code a[i * cols + col] = sum_j exp(minusHalfC |x_i - y_j|^2) b[j * cols + col]} over the tiles and ranges, with
     * {@code minusHalfC = -1 / (2 l^2)}.
     */
    @Kernel
    public static void gauss3(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray y, @ReadOnly FloatArray b,
            @NoAlias FloatArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            int cols, int col, float minusHalfC) {
        float[] ys = ctx.allocateFloatLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int i = tiles.get(3 * g) + lid;
        boolean active = i < tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        float x0 = 0.0f;
        float x1 = 0.0f;
        float x2 = 0.0f;
        if (active) {
            x0 = x.get(3 * i);
            x1 = x.get(3 * i + 1);
            x2 = x.get(3 * i + 2);
        }
        float acc = 0.0f;
        float part = 0.0f;
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += w) {
                int j = t0 + lid;
                if (j < s1) {
                    ys[4 * lid] = y.get(3 * j);
                    ys[4 * lid + 1] = y.get(3 * j + 1);
                    ys[4 * lid + 2] = y.get(3 * j + 2);
                    ys[4 * lid + 3] = b.get(j * cols + col);
                }
                ctx.localBarrier();
                int len = Math.min(w, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + KernelSumKernelsF64.PARTIAL - (t0 + q) % KernelSumKernelsF64.PARTIAL);
                        for (int p = q; p < stop; p++) {
                            float d0 = x0 - ys[4 * p];
                            float d1 = x1 - ys[4 * p + 1];
                            float d2 = x2 - ys[4 * p + 2];
                            float r2 = d0 * d0;
                            r2 += d1 * d1;
                            r2 += d2 * d2;
                            part += KernelMath.fastExp(minusHalfC * r2) * ys[4 * p + 3];
                        }
                        q = stop;
                        if ((t0 + q) % KernelSumKernelsF64.PARTIAL == 0) {
                            acc += part;
                            part = 0.0f;
                        }
                    }
                }
                ctx.localBarrier();
            }
            acc += part;
            part = 0.0f;
        }
        if (active) {
            a.set(i * cols + col, acc);
        }
    }
}
