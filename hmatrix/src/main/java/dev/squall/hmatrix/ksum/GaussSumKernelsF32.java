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
import dev.squall.tasks.api.Unroll;

/**
 * The fp32 Gaussian sum in 3 dimensions, one column: the reference problem's kernel, without the kernel-family branch
 * of {@link KernelSumKernelsF64#sum3}. Three things make it cheaper per pair than {@code sum3}:
 * <ul>
 * <li>coordinates are scaled by {@code sqrt(log2(e) / (2 l^2))} as they are loaded, so a term is
 * {@code 2^(-|x' - y'|^2)} and the exponential is one hardware {@code ex2} ({@link KernelMath#fastExp2}) with no
 * multiply in front; its relative error, about {@code 2^-22} plus {@code 2^-24} times the argument, stays below 1e-6 for
 * every term above 1e-7 and far below the fp32 rounding of the sum;</li>
 * <li>each work-item owns {@link #TARGETS} targets, {@code lid + t w} of a tile of up to {@code TARGETS w}, so every
 * source read from local memory (four loads) serves that many pairs, and the loop's own instructions are shared too;</li>
 * <li>sources are staged {@code TARGETS} per work-item, {@code TARGETS w} per barrier.</li>
 * </ul>
 * Tiles, ranges and the order of addition (partials per aligned block of {@link KernelSumKernelsF64#PARTIAL} sources)
 * are those of {@code sum3}, so dense and block-sparse products agree in the same way.
 */
public final class GaussSumKernelsF32 {
    /** Targets per work-item. */
    public static final int TARGETS = 4;
    /** Targets per work-item of {@link #gaussExpandedDense3}. */
    public static final int DENSE_TARGETS = 8;
    /** {@code fmaShare} of {@link #gaussExpandedDenseSplit3}: one exponential in eight on {@link #exp2Fma}. */
    public static final int FMA_SHARE_ONE_OF_EIGHT = 0;
    /** {@code fmaShare} of {@link #gaussExpandedDenseSplit3}: three exponentials in sixteen on {@link #exp2Fma}. */
    public static final int FMA_SHARE_THREE_OF_SIXTEEN = 1;
    /** {@code 1.5 * 2^23}: adding it rounds a float below {@code 2^22} in magnitude to an integer in the low bits. */
    private static final float ROUNDER = 12582912.0f;
    /**
     * Near-minimax fit of {@code 2^f = 1 + f P(f)} on {@code [-1/2, 1/2]} (relative error, iteratively reweighted least
     * squares), degree 5: 1.1e-7, 1.6e-7 evaluated in fp32, against about 2.4e-7 for {@code ex2.approx}.
     */
    private static final float P1 = 0.6931470632553101f, P2 = 0.24022217094898224f, P3 = 0.0555061511695385f,
            P4 = 0.0096729202196002f, P5 = 0.0013302182778716087f;

    private GaussSumKernelsF32() {
    }

    /**
     * {@code a[i * cols + col] = sum_j 2^(-scale^2 |x_i - y_j|^2) b[j * cols + col]} over the tiles and ranges, with
     * {@code scale = sqrt(log2(e) / (2 l^2))}: the Gaussian {@code exp(-|x - y|^2 / (2 l^2))}. A work-group of {@code w}
     * work-items serves a tile of up to {@code TARGETS w} targets.
     */
    @Kernel
    public static void gauss3(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray y, @ReadOnly FloatArray b,
            @NoAlias FloatArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            int cols, int col, float scale) {
        float[] ys = ctx.allocateFloatLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int tileEnd = tiles.get(3 * g + 1);
        int i0 = tiles.get(3 * g) + lid;
        int i1 = i0 + w;
        int i2 = i1 + w;
        int i3 = i2 + w;
        boolean active0 = i0 < tileEnd;
        boolean active1 = i1 < tileEnd;
        boolean active2 = i2 < tileEnd;
        boolean active3 = i3 < tileEnd;
        int cluster = tiles.get(3 * g + 2);
        float x00 = 0.0f;
        float x01 = 0.0f;
        float x02 = 0.0f;
        float x10 = 0.0f;
        float x11 = 0.0f;
        float x12 = 0.0f;
        float x20 = 0.0f;
        float x21 = 0.0f;
        float x22 = 0.0f;
        float x30 = 0.0f;
        float x31 = 0.0f;
        float x32 = 0.0f;
        if (active0) {
            x00 = scale * x.get(3 * i0);
            x01 = scale * x.get(3 * i0 + 1);
            x02 = scale * x.get(3 * i0 + 2);
        }
        if (active1) {
            x10 = scale * x.get(3 * i1);
            x11 = scale * x.get(3 * i1 + 1);
            x12 = scale * x.get(3 * i1 + 2);
        }
        if (active2) {
            x20 = scale * x.get(3 * i2);
            x21 = scale * x.get(3 * i2 + 1);
            x22 = scale * x.get(3 * i2 + 2);
        }
        if (active3) {
            x30 = scale * x.get(3 * i3);
            x31 = scale * x.get(3 * i3 + 1);
            x32 = scale * x.get(3 * i3 + 2);
        }
        float acc0 = 0.0f;
        float part0 = 0.0f;
        float acc1 = 0.0f;
        float part1 = 0.0f;
        float acc2 = 0.0f;
        float part2 = 0.0f;
        float acc3 = 0.0f;
        float part3 = 0.0f;
        int stage = TARGETS * w;
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += stage) {
                for (int h = lid; h < stage; h += w) {
                    int j = t0 + h;
                    if (j < s1) {
                        ys[4 * h] = scale * y.get(3 * j);
                        ys[4 * h + 1] = scale * y.get(3 * j + 1);
                        ys[4 * h + 2] = scale * y.get(3 * j + 2);
                        ys[4 * h + 3] = b.get(j * cols + col);
                    }
                }
                ctx.localBarrier();
                int len = Math.min(stage, s1 - t0);
                if (active0) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + KernelSumKernelsF64.PARTIAL - (t0 + q) % KernelSumKernelsF64.PARTIAL);
                        for (int p = q; p < stop; p++) {
                            float y0 = ys[4 * p];
                            float y1 = ys[4 * p + 1];
                            float y2 = ys[4 * p + 2];
                            float bp = ys[4 * p + 3];
                            float d00 = x00 - y0;
                            float d01 = x01 - y1;
                            float d02 = x02 - y2;
                            part0 += KernelMath.fastExp2(-(d00 * d00 + d01 * d01 + d02 * d02)) * bp;
                            float d10 = x10 - y0;
                            float d11 = x11 - y1;
                            float d12 = x12 - y2;
                            part1 += KernelMath.fastExp2(-(d10 * d10 + d11 * d11 + d12 * d12)) * bp;
                            float d20 = x20 - y0;
                            float d21 = x21 - y1;
                            float d22 = x22 - y2;
                            part2 += KernelMath.fastExp2(-(d20 * d20 + d21 * d21 + d22 * d22)) * bp;
                            float d30 = x30 - y0;
                            float d31 = x31 - y1;
                            float d32 = x32 - y2;
                            part3 += KernelMath.fastExp2(-(d30 * d30 + d31 * d31 + d32 * d32)) * bp;
                        }
                        q = stop;
                        if ((t0 + q) % KernelSumKernelsF64.PARTIAL == 0) {
                            acc0 += part0;
                            part0 = 0.0f;
                            acc1 += part1;
                            part1 = 0.0f;
                            acc2 += part2;
                            part2 = 0.0f;
                            acc3 += part3;
                            part3 = 0.0f;
                        }
                    }
                }
                ctx.localBarrier();
            }
            acc0 += part0;
            part0 = 0.0f;
            acc1 += part1;
            part1 = 0.0f;
            acc2 += part2;
            part2 = 0.0f;
            acc3 += part3;
            part3 = 0.0f;
        }
        if (active0) {
            a.set(i0 * cols + col, acc0);
        }
        if (active1) {
            a.set(i1 * cols + col, acc1);
        }
        if (active2) {
            a.set(i2 * cols + col, acc2);
        }
        if (active3) {
            a.set(i3 * cols + col, acc3);
        }
    }
    /**
     * The same sum with the exponent expanded: with {@code u = scale (x - c)}, {@code v = scale (y - c)} for the tile's
     * centre {@code c} ({@code centres[3q..3q+2]}, already scaled, for the tile's cluster {@code q}),
     * {@code -|u - v|^2 = -|u|^2 + (-|v|^2 + 2 u . v)}. The first part is the target's and leaves the sum:
     * {@code a_i = 2^(-|u_i|^2) sum_j 2^(B_j + 2 u_i . v_j) b_j} with {@code B_j = -|v_j|^2} computed once per staged
     * source, so a pair costs three multiply-adds, one {@code ex2} and the multiply-add of the sum. The inner exponent
     * is at most {@code |u_i|^2} (it is {@code |u_i|^2 - |u_i - v_j|^2}), so nothing overflows while the host keeps
     * {@code scale^2 |x - c|^2} and {@code log2(N max|b|)} small ({@code TiledReduction} checks); an inner exponent
     * below {@code -126} is a term below {@code 2^-126} even before the factor. The rounding of the inner exponent is
     * a few units of {@code |v_j|^2}, so the host uses this form only while {@code scale^2 |x - c|^2} stays small.
     * The target factor {@code 2^(-|u_i|^2)} is formed in fp64 from the fp32 {@code u_i} (exact products), once a
     * target.
     */
    @Kernel
    public static void gaussExpanded3(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray y, @ReadOnly FloatArray b,
            @NoAlias FloatArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            @ReadOnly FloatArray centres, int cols, int col, float scale) {
        float[] ys = ctx.allocateFloatLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        float[] bs = ctx.allocateFloatLocalArray(KernelSumKernelsF64.MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int tileStart = tiles.get(3 * g);
        int tileEnd = tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        float c0 = centres.get(3 * cluster);
        float c1 = centres.get(3 * cluster + 1);
        float c2 = centres.get(3 * cluster + 2);
        float[] u0 = new float[TARGETS];
        float[] u1 = new float[TARGETS];
        float[] u2 = new float[TARGETS];
        float[] acc = new float[TARGETS];
        float[] part = new float[TARGETS];
        for (int t = 0; t < TARGETS; t++) {
            int i = tileStart + lid + t * w;
            u0[t] = 0.0f;
            u1[t] = 0.0f;
            u2[t] = 0.0f;
            if (i < tileEnd) {
                u0[t] = 2.0f * (scale * x.get(3 * i) - c0);
                u1[t] = 2.0f * (scale * x.get(3 * i + 1) - c1);
                u2[t] = 2.0f * (scale * x.get(3 * i + 2) - c2);
            }
            acc[t] = 0.0f;
            part[t] = 0.0f;
        }
        boolean active = tileStart + lid < tileEnd;
        int stage = TARGETS * w;
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += stage) {
                for (int h = lid; h < stage; h += w) {
                    int j = t0 + h;
                    if (j < s1) {
                        float v0 = scale * y.get(3 * j) - c0;
                        float v1 = scale * y.get(3 * j + 1) - c1;
                        float v2 = scale * y.get(3 * j + 2) - c2;
                        ys[4 * h] = v0;
                        ys[4 * h + 1] = v1;
                        ys[4 * h + 2] = v2;
                        ys[4 * h + 3] = -(v0 * v0 + v1 * v1 + v2 * v2);
                        bs[h] = b.get(j * cols + col);
                    }
                }
                ctx.localBarrier();
                int len = Math.min(stage, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + KernelSumKernelsF64.PARTIAL - (t0 + q) % KernelSumKernelsF64.PARTIAL);
                        for (int p = q; p < stop; p++) {
                            float v0 = ys[4 * p];
                            float v1 = ys[4 * p + 1];
                            float v2 = ys[4 * p + 2];
                            float bj = ys[4 * p + 3];
                            float bp = bs[p];
                            for (int t = 0; t < TARGETS; t++) {
                                float e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                                part[t] = KernelMath.fma(KernelMath.fastExp2(e), bp, part[t]);
                            }
                        }
                        q = stop;
                        if ((t0 + q) % KernelSumKernelsF64.PARTIAL == 0) {
                            for (int t = 0; t < TARGETS; t++) {
                                acc[t] += part[t];
                                part[t] = 0.0f;
                            }
                        }
                    }
                }
                ctx.localBarrier();
            }
            for (int t = 0; t < TARGETS; t++) {
                acc[t] += part[t];
                part[t] = 0.0f;
            }
        }
        for (int t = 0; t < TARGETS; t++) {
            int i = tileStart + lid + t * w;
            if (i < tileEnd) {
                double h0 = 0.5 * u0[t];
                double h1 = 0.5 * u1[t];
                double h2 = 0.5 * u2[t];
                a.set(i * cols + col, (float) (Math.pow(2.0, -(h0 * h0 + h1 * h1 + h2 * h2)) * acc[t]));
            }
        }
    }
    /**
     * {@code 2^e} on the multiply-add pipe instead of the special-function unit: {@code e = n + f} with
     * {@code n = round(e)} (the {@link #ROUNDER} addition leaves {@code n} in the low bits), {@code |f| <= 1/2},
     * {@code 2^f} by a polynomial of degree 5 (relative error below 2e-7, like {@code ex2.approx}), {@code n} added to
     * the exponent bits. Arguments below {@code -126} count as {@code -126} (a term of at most {@code 2^-125} instead
     * of a smaller one or the 0 of {@code ex2.approx.ftz}). Ten instructions: clamp, three adds, five multiply-adds,
     * one shift-and-add.
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
     * {@link #gaussExpanded3} for dense tiles, {@link #DENSE_TARGETS} targets per work-item, with the exponentials
     * split between the two pipes: the special-function unit takes 16 exponentials a clock per multiprocessor, the
     * issue slots 128 instructions, and a pair costs five slots with {@code ex2}, fifteen with {@link #exp2Fma}; with
     * seven targets on {@code ex2} and the eighth on {@link #exp2Fma} both limits are reached together (about 18
     * pairs a clock per multiprocessor instead of 16).
     */
    @Kernel
    public static void gaussExpandedDense3(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray y, @ReadOnly FloatArray b,
            @NoAlias FloatArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            @ReadOnly FloatArray centres, int cols, int col, float scale) {
        float[] ys = ctx.allocateFloatLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        float[] bs = ctx.allocateFloatLocalArray(KernelSumKernelsF64.MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int tileStart = tiles.get(3 * g);
        int tileEnd = tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        float c0 = centres.get(3 * cluster);
        float c1 = centres.get(3 * cluster + 1);
        float c2 = centres.get(3 * cluster + 2);
        float[] u0 = new float[DENSE_TARGETS];
        float[] u1 = new float[DENSE_TARGETS];
        float[] u2 = new float[DENSE_TARGETS];
        float[] acc = new float[DENSE_TARGETS];
        float[] part = new float[DENSE_TARGETS];
        for (int t = 0; t < DENSE_TARGETS; t++) {
            int i = tileStart + lid + t * w;
            u0[t] = 0.0f;
            u1[t] = 0.0f;
            u2[t] = 0.0f;
            if (i < tileEnd) {
                u0[t] = 2.0f * (scale * x.get(3 * i) - c0);
                u1[t] = 2.0f * (scale * x.get(3 * i + 1) - c1);
                u2[t] = 2.0f * (scale * x.get(3 * i + 2) - c2);
            }
            acc[t] = 0.0f;
            part[t] = 0.0f;
        }
        boolean active = tileStart + lid < tileEnd;
        int stage = DENSE_TARGETS * w;
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += stage) {
                for (int h = lid; h < stage; h += w) {
                    int j = t0 + h;
                    if (j < s1) {
                        float v0 = scale * y.get(3 * j) - c0;
                        float v1 = scale * y.get(3 * j + 1) - c1;
                        float v2 = scale * y.get(3 * j + 2) - c2;
                        ys[4 * h] = v0;
                        ys[4 * h + 1] = v1;
                        ys[4 * h + 2] = v2;
                        ys[4 * h + 3] = -(v0 * v0 + v1 * v1 + v2 * v2);
                        bs[h] = b.get(j * cols + col);
                    }
                }
                ctx.localBarrier();
                int len = Math.min(stage, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + KernelSumKernelsF64.PARTIAL - (t0 + q) % KernelSumKernelsF64.PARTIAL);
                        for (int p = q; p < stop; p++) {
                            float v0 = ys[4 * p];
                            float v1 = ys[4 * p + 1];
                            float v2 = ys[4 * p + 2];
                            float bj = ys[4 * p + 3];
                            float bp = bs[p];
                            for (int t = 0; t < DENSE_TARGETS - 1; t++) {
                                float e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                                part[t] = KernelMath.fma(KernelMath.fastExp2(e), bp, part[t]);
                            }
                            float e7 = KernelMath.fma(u0[DENSE_TARGETS - 1], v0, KernelMath.fma(u1[DENSE_TARGETS - 1], v1,
                                    KernelMath.fma(u2[DENSE_TARGETS - 1], v2, bj)));
                            part[DENSE_TARGETS - 1] = KernelMath.fma(exp2Fma(e7), bp, part[DENSE_TARGETS - 1]);
                        }
                        q = stop;
                        if ((t0 + q) % KernelSumKernelsF64.PARTIAL == 0) {
                            for (int t = 0; t < DENSE_TARGETS; t++) {
                                acc[t] += part[t];
                                part[t] = 0.0f;
                            }
                        }
                    }
                }
                ctx.localBarrier();
            }
            for (int t = 0; t < DENSE_TARGETS; t++) {
                acc[t] += part[t];
                part[t] = 0.0f;
            }
        }
        for (int t = 0; t < DENSE_TARGETS; t++) {
            int i = tileStart + lid + t * w;
            if (i < tileEnd) {
                double h0 = 0.5 * u0[t];
                double h1 = 0.5 * u1[t];
                double h2 = 0.5 * u2[t];
                a.set(i * cols + col, (float) (Math.pow(2.0, -(h0 * h0 + h1 * h1 + h2 * h2)) * acc[t]));
            }
        }
    }

    /**
     * {@link #gaussExpandedDense3} over one segment of the sources: work-group {@code g} serves the dense tile
     * {@code g / splits} ({@code DENSE_TARGETS w} targets from {@code (g / splits) DENSE_TARGETS w}) against sources
     * {@code [s chunk, min(n, (s + 1) chunk))}, {@code s = g % splits}, and writes its unscaled sums to
     * {@code partials[s m + i]}; {@link #combineSplits} adds the segments. Splitting the sources gives the device many
     * short work-groups instead of one long one per tile, so every multiprocessor stays busy to the end (one tile a
     * work-group leaves a partial wave and unequal loads). {@code chunk} is a multiple of
     * {@link KernelSumKernelsF64#PARTIAL}, so every segment adds its partials per aligned block of sources as the
     * unsplit kernel does. The staging loop has a fixed trip count ({@link #DENSE_TARGETS} sources a work-item), so
     * the compiler issues all its loads before the first store.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = 128, minGroupsPerUnit = 8)
    public static void gaussExpandedDenseSplit3(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray y, @ReadOnly FloatArray b,
            @NoAlias FloatArray partials, @ReadOnly FloatArray centres, int m, int n, int chunk, int splits, float scale,
            int fmaShare) {
        float[] ys = ctx.allocateFloatLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        float[] bs = ctx.allocateFloatLocalArray(KernelSumKernelsF64.MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int seg = g % splits;
        int stage = KernelSumKernelsF64.MAX_TILE;
        int tileStart = (g / splits) * (DENSE_TARGETS * w);
        int tileEnd = Math.min(m, tileStart + DENSE_TARGETS * w);
        float c0 = centres.get(0);
        float c1 = centres.get(1);
        float c2 = centres.get(2);
        float[] u0 = new float[DENSE_TARGETS];
        float[] u1 = new float[DENSE_TARGETS];
        float[] u2 = new float[DENSE_TARGETS];
        float[] acc = new float[DENSE_TARGETS];
        float[] part = new float[DENSE_TARGETS];
        for (int t = 0; t < DENSE_TARGETS; t++) {
            int i = tileStart + lid + t * w;
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
        boolean active = tileStart + lid < tileEnd;
        int s0 = seg * chunk;
        int s1 = Math.min(n, s0 + chunk);
        for (int t0 = s0; t0 < s1; t0 += stage) {
            for (int k = 0; k < DENSE_TARGETS; k++) {
                int h = lid + k * w;
                int j = t0 + h;
                if (h < stage && j < s1) {
                    float v0 = scale * y.get(3 * j) - c0;
                    float v1 = scale * y.get(3 * j + 1) - c1;
                    float v2 = scale * y.get(3 * j + 2) - c2;
                    ys[4 * h] = v0;
                    ys[4 * h + 1] = v1;
                    ys[4 * h + 2] = v2;
                    ys[4 * h + 3] = -(v0 * v0 + v1 * v1 + v2 * v2);
                    bs[h] = b.get(j);
                }
            }
            ctx.localBarrier();
            int len = Math.min(stage, s1 - t0);
            if (active && len == stage && fmaShare == FMA_SHARE_THREE_OF_SIXTEEN) {
                for (@Unroll(1) int k = 0; k < KernelSumKernelsF64.MAX_TILE; k += 4) {
                    for (@Unroll int s = 0; s < 4; s++) {
                        int p = k + s;
                        float v0 = ys[4 * p];
                        float v1 = ys[4 * p + 1];
                        float v2 = ys[4 * p + 2];
                        float bj = ys[4 * p + 3];
                        float bp = bs[p];
                        for (@Unroll int t = 0; t < DENSE_TARGETS - 2; t++) {
                            float e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                            part[t] = KernelMath.fma(KernelMath.fastExp2(e), bp, part[t]);
                        }
                        float e6 = KernelMath.fma(u0[6], v0, KernelMath.fma(u1[6], v1, KernelMath.fma(u2[6], v2, bj)));
                        part[6] = KernelMath.fma((s & 1) == 1 ? exp2Fma(e6) : KernelMath.fastExp2(e6), bp, part[6]);
                        float e7 = KernelMath.fma(u0[7], v0, KernelMath.fma(u1[7], v1, KernelMath.fma(u2[7], v2, bj)));
                        part[7] = KernelMath.fma(exp2Fma(e7), bp, part[7]);
                    }
                }
                for (int t = 0; t < DENSE_TARGETS; t++) {
                    acc[t] += part[t];
                    part[t] = 0.0f;
                }
            } else if (active && len == stage) {
                for (@Unroll(1) int k = 0; k < KernelSumKernelsF64.MAX_TILE; k += 4) {
                    for (@Unroll int s = 0; s < 4; s++) {
                        int p = k + s;
                        float v0 = ys[4 * p];
                        float v1 = ys[4 * p + 1];
                        float v2 = ys[4 * p + 2];
                        float bj = ys[4 * p + 3];
                        float bp = bs[p];
                        for (@Unroll int t = 0; t < DENSE_TARGETS - 1; t++) {
                            float e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                            part[t] = KernelMath.fma(KernelMath.fastExp2(e), bp, part[t]);
                        }
                        float e7 = KernelMath.fma(u0[7], v0, KernelMath.fma(u1[7], v1, KernelMath.fma(u2[7], v2, bj)));
                        part[7] = KernelMath.fma(exp2Fma(e7), bp, part[7]);
                    }
                }
                for (int t = 0; t < DENSE_TARGETS; t++) {
                    acc[t] += part[t];
                    part[t] = 0.0f;
                }
            } else if (active) {
                int q = 0;
                while (q < len) {
                    int stop = Math.min(len, q + KernelSumKernelsF64.PARTIAL - (t0 + q) % KernelSumKernelsF64.PARTIAL);
                    for (int p = q; p < stop; p++) {
                        float v0 = ys[4 * p];
                        float v1 = ys[4 * p + 1];
                        float v2 = ys[4 * p + 2];
                        float bj = ys[4 * p + 3];
                        float bp = bs[p];
                        for (int t = 0; t < DENSE_TARGETS - 1; t++) {
                            float e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                            part[t] = KernelMath.fma(KernelMath.fastExp2(e), bp, part[t]);
                        }
                        float e7 = KernelMath.fma(u0[DENSE_TARGETS - 1], v0, KernelMath.fma(u1[DENSE_TARGETS - 1], v1,
                                KernelMath.fma(u2[DENSE_TARGETS - 1], v2, bj)));
                        part[DENSE_TARGETS - 1] = KernelMath.fma(exp2Fma(e7), bp, part[DENSE_TARGETS - 1]);
                    }
                    q = stop;
                    if ((t0 + q) % KernelSumKernelsF64.PARTIAL == 0) {
                        for (int t = 0; t < DENSE_TARGETS; t++) {
                            acc[t] += part[t];
                            part[t] = 0.0f;
                        }
                    }
                }
            }
            ctx.localBarrier();
        }
        for (int t = 0; t < DENSE_TARGETS; t++) {
            int i = tileStart + lid + t * w;
            if (i < tileEnd) {
                partials.set(seg * m + i, acc[t] + part[t]);
            }
        }
    }

    /**
     * {@code a[i] = 2^(-|u_i|^2) sum_s partials[s m + i]} for {@code i < m}: the segments of
     * {@link #gaussExpandedDenseSplit3} added in order in fp64, times the target factor of the expanded exponent
     * ({@code u_i / 2} formed with the same fp32 multiply-add as there, written out so that no compiler contracts one
     * and not the other: a factor from a different rounding of {@code u_i} than the exponent's costs ~1e-6).
     */
    @Kernel
    public static void combineSplits(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly FloatArray partials, @NoAlias FloatArray a,
            @ReadOnly FloatArray centres, int m, int splits, float scale) {
        int i = ctx.globalIdx;
        if (i < m) {
            double sum = 0.0;
            for (int s = 0; s < splits; s++) {
                sum += partials.get(s * m + i);
            }
            double h0 = KernelMath.fma(scale, x.get(3 * i), -centres.get(0));
            double h1 = KernelMath.fma(scale, x.get(3 * i + 1), -centres.get(1));
            double h2 = KernelMath.fma(scale, x.get(3 * i + 2), -centres.get(2));
            a.set(i, (float) (Math.pow(2.0, -(h0 * h0 + h1 * h1 + h2 * h2)) * sum));
        }
    }
}
