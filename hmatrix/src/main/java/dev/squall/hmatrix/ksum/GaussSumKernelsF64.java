package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.KernelMath;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.ReadOnly;

/**
 * The fp64 Gaussian sum in 3 dimensions, one column, with the exponent expanded as in
 * {@link GaussSumKernelsF32#gaussExpanded3} and a cheaper exponential than the library's {@code exp}: per pair three
 * multiply-adds for the inner exponent {@code e = B_j + 2 u_i . v_j} (log2 units) and {@link #exp2} (ten fp64
 * operations), then the multiply-add of the sum; the target factor {@code 2^(-|u_i|^2)} is applied once a target.
 * Each work-item owns {@link #TARGETS} targets. Tiles, ranges and the order of addition (partials per aligned block of
 * {@link KernelSumKernelsF64#PARTIAL} sources) are those of {@link KernelSumKernelsF64#sum3}.
 */
public final class GaussSumKernelsF64 {
    /** Targets per work-item. */
    public static final int TARGETS = 4;
    /** Entries of the table of {@code 2^(k/256)}. */
    static final int TABLE = 256;
    /** {@code 1.5 * 2^52}: adding it rounds a double below {@code 2^51} in magnitude to an integer in the low bits. */
    private static final double ROUNDER = 6755399441055744.0;
    /** Taylor coefficients of {@code 2^r = sum (r ln 2)^n / n!}, n = 1..4. */
    private static final double C1 = 0.6931471805599453, C2 = 0.2402265069591007, C3 = 0.055504108664821576,
            C4 = 0.009618129107628477;

    private GaussSumKernelsF64() {
    }

    /**
     * {@code 2^e} for {@code e <= 1000}, to about two units in the last place: {@code e = k + i/256 + r} with
     * {@code k} an integer, {@code 0 <= i < 256} and {@code |r| <= 1/512} ({@code n = round(256 e)} by the
     * {@link #ROUNDER} addition, exact; the low 32 bits of the sum are {@code n}), {@code 2^e = 2^k * table[i] * 2^r},
     * {@code 2^r} by its Taylor polynomial of degree 4 (truncation below {@code 4e-17} relative), {@code 2^k} added to
     * the exponent bits. Arguments below {@code -1020} count as {@code -1020}: such a term is at most {@code 2^-1019}
     * instead of its smaller true value. Per call: ten fp64 operations (the clamp, the rounding, the reduction, four
     * for the polynomial, the table multiply-add), a shared-memory load and a few integer operations.
     */
    @DeviceFunction
    public static double exp2(double e, double[] table) {
        double c = Math.max(e, -1020.0);
        double t = KernelMath.fma(c, 256.0, ROUNDER);
        double r = KernelMath.fma(t - ROUNDER, -0.00390625, c);
        int n = (int) Double.doubleToRawLongBits(t);
        double q = r * KernelMath.fma(r, KernelMath.fma(r, KernelMath.fma(r, C4, C3), C2), C1);
        double ti = table[n & 255];
        double v = KernelMath.fma(ti, q, ti);
        return Double.longBitsToDouble(Double.doubleToRawLongBits(v) + ((long) (n >> 8) << 52));
    }

    /**
     * {@code a[i * cols + col] = sum_j exp(-|x_i - y_j|^2 / (2 l^2)) b[j * cols + col]} over the tiles and ranges, with
     * {@code scale = sqrt(log2(e) / (2 l^2))} and {@code centres[3q..3q+2]} the scaled centre of cluster {@code q}; a
     * work-group of {@code w} work-items serves a tile of up to {@code TARGETS w} targets.
     */
    @Kernel
    public static void gaussExpanded3(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @NoAlias DoubleArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            @ReadOnly DoubleArray centres, int cols, int col, double scale) {
        double[] ys = ctx.allocateDoubleLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        double[] bs = ctx.allocateDoubleLocalArray(KernelSumKernelsF64.MAX_TILE);
        double[] table = ctx.allocateDoubleLocalArray(TABLE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        for (int h = lid; h < TABLE; h += w) {
            table[h] = Math.pow(2.0, h / 256.0);
        }
        int tileStart = tiles.get(3 * g);
        int tileEnd = tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        double c0 = centres.get(3 * cluster);
        double c1 = centres.get(3 * cluster + 1);
        double c2 = centres.get(3 * cluster + 2);
        double[] u0 = new double[TARGETS];
        double[] u1 = new double[TARGETS];
        double[] u2 = new double[TARGETS];
        double[] acc = new double[TARGETS];
        double[] part = new double[TARGETS];
        for (int t = 0; t < TARGETS; t++) {
            int i = tileStart + lid + t * w;
            u0[t] = 0.0;
            u1[t] = 0.0;
            u2[t] = 0.0;
            if (i < tileEnd) {
                u0[t] = 2.0 * (scale * x.get(3 * i) - c0);
                u1[t] = 2.0 * (scale * x.get(3 * i + 1) - c1);
                u2[t] = 2.0 * (scale * x.get(3 * i + 2) - c2);
            }
            acc[t] = 0.0;
            part[t] = 0.0;
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
                        double v0 = scale * y.get(3 * j) - c0;
                        double v1 = scale * y.get(3 * j + 1) - c1;
                        double v2 = scale * y.get(3 * j + 2) - c2;
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
                            double v0 = ys[4 * p];
                            double v1 = ys[4 * p + 1];
                            double v2 = ys[4 * p + 2];
                            double bj = ys[4 * p + 3];
                            double bp = bs[p];
                            for (int t = 0; t < TARGETS; t++) {
                                double e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                                part[t] = KernelMath.fma(exp2(e, table), bp, part[t]);
                            }
                        }
                        q = stop;
                        if ((t0 + q) % KernelSumKernelsF64.PARTIAL == 0) {
                            for (int t = 0; t < TARGETS; t++) {
                                acc[t] += part[t];
                                part[t] = 0.0;
                            }
                        }
                    }
                }
                ctx.localBarrier();
            }
            for (int t = 0; t < TARGETS; t++) {
                acc[t] += part[t];
                part[t] = 0.0;
            }
        }
        for (int t = 0; t < TARGETS; t++) {
            int i = tileStart + lid + t * w;
            if (i < tileEnd) {
                double h0 = 0.5 * u0[t];
                double h1 = 0.5 * u1[t];
                double h2 = 0.5 * u2[t];
                a.set(i * cols + col, Math.pow(2.0, -(h0 * h0 + h1 * h1 + h2 * h2)) * acc[t]);
            }
        }
    }
}
