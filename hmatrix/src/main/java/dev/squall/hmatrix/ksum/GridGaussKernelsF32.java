package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.KernelMath;
import dev.squall.tasks.api.LaunchBounds;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.ReadOnly;

/**
 * The fp32 Gaussian in 3 dimensions, one column, over the kept tiles of a block-sparse product, with the dense
 * kernel's per-pair work ({@link GaussSumKernelsF32#gaussExpandedDense3}: the expanded exponent, {@link #TARGETS}
 * targets a work-item, seven of their exponentials on the special-function unit and the eighth on the multiply-add pipe
 * ({@link #exp2Fma}), sources staged {@link #STAGE} a barrier) for clusters of any size.
 *
 * <p>A work-group is one warp of {@link #LANES} work-items and serves one tile: up to {@code TARGETS * LANES} targets
 * of one cluster. A tile of {@code s} targets uses {@code TL = ceil(s / TARGETS)} target lanes, and the warp's other
 * lanes are put to work on the same targets as {@code SL = LANES / TL} source lanes: work-item {@code lid} holds
 * targets {@code tile start + tl + t TL} ({@code tl = lid % TL}, {@code t < TARGETS}) and adds every {@code SL}-th
 * staged source from {@code lid / TL} on; the {@code SL} sums of a target are added in order at the end. A cluster of
 * 64 targets keeps all 32 lanes busy with 8 targets each, as a dense tile does, instead of a quarter-filled
 * work-group of 64 targets. The sources of the cluster's ranges are staged as one stream ({@code STAGE} at a time
 * across range ends), so short ranges do not leave part-filled stages.
 *
 * <p>Each lane adds its sources of one stage into a partial sum and the partials into its total (at most
 * {@code STAGE / SL} terms a partial), so fp32 rounding grows like {@code sqrt(STAGE) + sqrt(kept / STAGE)} units.
 * The order of addition is fixed by the tile, so results do not depend on the device's scheduling.
 */
public final class GridGaussKernelsF32 {
    /** Targets a work-item. */
    public static final int TARGETS = 8;
    /** Work-items a work-group: one warp. */
    public static final int LANES = 32;
    /** Largest tile: {@code TARGETS * LANES} targets. */
    public static final int TILE = TARGETS * LANES;
    /** Sources staged a barrier. */
    public static final int STAGE = 256;
    /** {@code 1.5 * 2^23}: adding it rounds a float below {@code 2^22} in magnitude to an integer in the low bits. */
    private static final float ROUNDER = 12582912.0f;
    /** The degree-5 fit of {@code 2^f = 1 + f P(f)} on {@code [-1/2, 1/2]} of {@link GaussSumKernelsF32#exp2Fma}. */
    private static final float P1 = 0.6931470632553101f, P2 = 0.24022217094898224f, P3 = 0.0555061511695385f,
            P4 = 0.0096729202196002f, P5 = 0.0013302182778716087f;

    private GridGaussKernelsF32() {
    }

    /**
     * {@code 2^e} on the multiply-add pipe: {@link GaussSumKernelsF32#exp2Fma}, of which kernels of this class need their
     * own copy (the kernel language calls device functions of the kernel's own class only). Arguments below {@code -126}
     * count as {@code -126}; relative error below 2e-7.
     */
    @DeviceFunction
    public static float exp2Fma(float e) {
        float c = Math.max(e, -126.0f);
        float t = c + ROUNDER;
        float f = c - (t - ROUNDER);
        float p = KernelMath.fma(f, KernelMath.fma(f, KernelMath.fma(f, KernelMath.fma(f, KernelMath.fma(f, P5, P4), P3), P2), P1), 1.0f);
        return Float.intBitsToFloat(Float.floatToRawIntBits(p) + (Float.floatToRawIntBits(t) << 23));
    }

    /**
     * {@code a[i] = 2^(-|u_i|^2) sum_j 2^(B_j + 2 u_i . v_j) b_j} over the kept sources of the tile's cluster, with
     * {@code u = scale x - c}, {@code v = scale y - c}, {@code B_j = -|v_j|^2} and {@code c = centres[3q..3q+2]}
     * (already scaled) for the tile's cluster {@code q}: the Gaussian {@code exp(-|x - y|^2 / (2 l^2))} for
     * {@code scale = sqrt(log2(e) / (2 l^2))}. Work-group {@code g} serves tile {@code tiles[3g..3g+2]} (start, end,
     * cluster; at most {@link #TILE} targets) and the ranges {@code ranges[2r], ranges[2r+1]} for
     * {@code rangeOffsets[q] <= r < rangeOffsets[q+1]}.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = 32, minGroupsPerUnit = 16)
    public static void gaussTiles3(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray y, @ReadOnly FloatArray b,
            @NoAlias FloatArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            @ReadOnly FloatArray centres, float scale) {
        float[] ys = ctx.allocateFloatLocalArray(4 * STAGE);
        float[] bs = ctx.allocateFloatLocalArray(STAGE);
        float[] sums = ctx.allocateFloatLocalArray(TILE);
        int lid = ctx.localIdx;
        int g = ctx.groupIdx;
        int tileStart = tiles.get(3 * g);
        int tileEnd = tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        int targetLanes = (tileEnd - tileStart + TARGETS - 1) / TARGETS;
        int sourceLanes = LANES / targetLanes;
        int tl = lid % targetLanes;
        int sl = lid / targetLanes;
        float c0 = centres.get(3 * cluster);
        float c1 = centres.get(3 * cluster + 1);
        float c2 = centres.get(3 * cluster + 2);
        float[] u0 = new float[TARGETS];
        float[] u1 = new float[TARGETS];
        float[] u2 = new float[TARGETS];
        float[] acc = new float[TARGETS];
        float[] part = new float[TARGETS];
        for (int t = 0; t < TARGETS; t++) {
            int i = tileStart + tl + t * targetLanes;
            u0[t] = 0.0f;
            u1[t] = 0.0f;
            u2[t] = 0.0f;
            if (i < tileEnd) {
                u0[t] = 2.0f * KernelMath.fma(scale, x.get(3 * i), -c0);
                u1[t] = 2.0f * KernelMath.fma(scale, x.get(3 * i + 1), -c1);
                u2[t] = 2.0f * KernelMath.fma(scale, x.get(3 * i + 2), -c2);
            }
            acc[t] = 0.0f;
            part[t] = 0.0f;
        }
        boolean active = sl < sourceLanes;
        int rEnd = rangeOffsets.get(cluster + 1);
        // the stream's cursor: range cr, source cj (every lane walks it the same way)
        int cr = rangeOffsets.get(cluster);
        int cj = 0;
        if (cr < rEnd) {
            cj = ranges.get(2 * cr);
        }
        while (cr < rEnd) {
            // stage slots lid, lid + LANES, ...: this lane's walk from the cursor
            int rr = cr;
            int jj = cj + lid;
            for (int k = 0; k < STAGE / LANES; k++) {
                while (rr < rEnd && jj >= ranges.get(2 * rr + 1)) {
                    int over = jj - ranges.get(2 * rr + 1);
                    rr++;
                    jj = 0;
                    if (rr < rEnd) {
                        jj = ranges.get(2 * rr) + over;
                    }
                }
                if (rr < rEnd) {
                    int h = lid + k * LANES;
                    float v0 = KernelMath.fma(scale, y.get(3 * jj), -c0);
                    float v1 = KernelMath.fma(scale, y.get(3 * jj + 1), -c1);
                    float v2 = KernelMath.fma(scale, y.get(3 * jj + 2), -c2);
                    ys[4 * h] = v0;
                    ys[4 * h + 1] = v1;
                    ys[4 * h + 2] = v2;
                    ys[4 * h + 3] = -(v0 * v0 + v1 * v1 + v2 * v2);
                    bs[h] = b.get(jj);
                }
                jj += LANES;
            }
            // the cursor moves by STAGE sources (fewer at the stream's end)
            int len = 0;
            while (cr < rEnd && len < STAGE) {
                int take = Math.min(ranges.get(2 * cr + 1) - cj, STAGE - len);
                len += take;
                cj += take;
                if (cj >= ranges.get(2 * cr + 1)) {
                    cr++;
                    if (cr < rEnd) {
                        cj = ranges.get(2 * cr);
                    }
                }
            }
            ctx.localBarrier();
            if (active) {
                for (int p = sl; p < len; p += sourceLanes) {
                    float v0 = ys[4 * p];
                    float v1 = ys[4 * p + 1];
                    float v2 = ys[4 * p + 2];
                    float bj = ys[4 * p + 3];
                    float bp = bs[p];
                    for (int t = 0; t < TARGETS - 1; t++) {
                        float e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                        part[t] = KernelMath.fma(KernelMath.fastExp2(e), bp, part[t]);
                    }
                    float e7 = KernelMath.fma(u0[TARGETS - 1], v0, KernelMath.fma(u1[TARGETS - 1], v1, KernelMath.fma(u2[TARGETS - 1], v2, bj)));
                    part[TARGETS - 1] = KernelMath.fma(exp2Fma(e7), bp, part[TARGETS - 1]);
                }
                for (int t = 0; t < TARGETS; t++) {
                    acc[t] += part[t];
                    part[t] = 0.0f;
                }
            }
            ctx.localBarrier();
        }
        for (int t = 0; t < TARGETS; t++) {
            sums[t * LANES + lid] = acc[t];
        }
        ctx.localBarrier();
        if (sl == 0) {
            for (int t = 0; t < TARGETS; t++) {
                int i = tileStart + tl + t * targetLanes;
                if (i < tileEnd) {
                    double s = 0.0;
                    for (int q = 0; q < sourceLanes; q++) {
                        s += sums[t * LANES + tl + q * targetLanes];
                    }
                    double h0 = 0.5 * u0[t];
                    double h1 = 0.5 * u1[t];
                    double h2 = 0.5 * u2[t];
                    a.set(i, (float) (Math.pow(2.0, -(h0 * h0 + h1 * h1 + h2 * h2)) * s));
                }
            }
        }
    }
}
