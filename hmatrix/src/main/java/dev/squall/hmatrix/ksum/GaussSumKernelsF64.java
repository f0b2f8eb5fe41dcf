package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.KernelMath;
import dev.squall.tasks.api.LaunchBounds;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.ReadOnly;
import dev.squall.tasks.api.Unroll;

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
    /** Entries of the table of {@code 2^(k/2048)} of {@link #exp2Fine}. */
    static final int FINE_TABLE = 2048;
    /** {@code 2048 * -1020}: the smallest {@code round(2048 e)} whose power of two {@link #exp2Fine} forms. */
    private static final int FINE_LOWEST = -2088960;
    /**
     * Sources a barrier of {@link #gaussExpandedSplit3} at its default width: a full stage of this many runs a loop of
     * constant trip count, four sources an iteration.
     */
    static final int SPLIT_STAGE = 128;
    /** Squared scaled distance from the centre beyond which a staged source counts as far ({@link #gaussExpandedSplit3}). */
    private static final double FAR = 0.9e6;
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

    /**
     * {@code 2^e} for {@code -1e6 < e <= 1000} with a table of {@link #FINE_TABLE} entries {@code 2^(i/2048)} (in local
     * memory) and a Taylor polynomial of degree 3 for {@code 2^r}, {@code |r| <= 1/4096} (truncation below
     * {@code 4e-17} relative): the rounding ({@code n = round(2048 e)} by the {@link #ROUNDER} addition; its low 32
     * bits are {@code n}), the reduction, three for the polynomial and the table multiply-add: seven fp64 operations
     * against ten in {@link #exp2}. The power {@code 2^(n >> 11)} is added to the exponent bits with integer
     * operations (shift, clamp, 64-bit add: four SASS instructions; the table's offset two more), its exponent held at
     * {@code -1020} or above, so an argument below {@code -1020} gives a term between {@code 2^-1020} and
     * {@code 2^-1019} instead of its smaller true value.
     */
    @DeviceFunction
    public static double exp2Fine(double e, double[] table) {
        double t = KernelMath.fma(e, 2048.0, ROUNDER);
        double r = KernelMath.fma(t - ROUNDER, -0.00048828125, e);
        int n = (int) Double.doubleToRawLongBits(t);
        double q = r * KernelMath.fma(r, KernelMath.fma(r, C3, C2), C1);
        double ti = table[n & (FINE_TABLE - 1)];
        double v = KernelMath.fma(ti, q, ti);
        return Double.longBitsToDouble(Double.doubleToRawLongBits(v) + ((long) Math.max(n >> 11, FINE_LOWEST >> 11) << 52));
    }

    /**
     * The dense form of {@link #gaussExpanded3} over one segment of the sources, with {@link #exp2Fine}: work-group
     * {@code g} serves the tile {@code g / splits} ({@code TARGETS w} targets from {@code (g / splits) TARGETS w}) against
     * sources {@code [s chunk, min(n, (s + 1) chunk))}, {@code s = g % splits}, staging {@code w} sources a barrier, and
     * writes its unscaled sums to {@code partials[s m + i]}; {@link #combineSplits} adds the segments. {@code chunk} is
     * a multiple of {@link KernelSumKernelsF64#PARTIAL}, so the partials per aligned block of sources are those of the
     * unsplit kernel. {@code fineTable} holds {@code 2^(i/2048)} ({@link #fineTable}). A staged source farther than
     * {@code sqrt(FAR)} from the centre (scaled; its terms are below {@code 2^-3000000} of the target factor's range)
     * is staged as {@code v = 0}, {@code B = -2048}: a term of about {@code 2^-1020}, which keeps {@code 2048 e} within
     * the 32 bits {@link #exp2Fine} reads.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = 128, minGroupsPerUnit = 8)
    public static void gaussExpandedSplit3(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @NoAlias DoubleArray partials, @ReadOnly DoubleArray centres, @ReadOnly DoubleArray fineTable, int m, int n, int chunk,
            int splits, double scale) {
        double[] ys = ctx.allocateDoubleLocalArray(4 * KernelSumKernelsF64.MAX_TILE);
        double[] bs = ctx.allocateDoubleLocalArray(KernelSumKernelsF64.MAX_TILE);
        double[] table = ctx.allocateDoubleLocalArray(FINE_TABLE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        for (int h = lid; h < FINE_TABLE; h += w) {
            table[h] = fineTable.get(h);
        }
        int seg = g % splits;
        int tileStart = (g / splits) * (TARGETS * w);
        int tileEnd = Math.min(m, tileStart + TARGETS * w);
        double c0 = centres.get(0);
        double c1 = centres.get(1);
        double c2 = centres.get(2);
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
                u0[t] = 2.0 * KernelMath.fma(scale, x.get(3 * i), -c0);
                u1[t] = 2.0 * KernelMath.fma(scale, x.get(3 * i + 1), -c1);
                u2[t] = 2.0 * KernelMath.fma(scale, x.get(3 * i + 2), -c2);
            }
            acc[t] = 0.0;
            part[t] = 0.0;
        }
        boolean active = tileStart + lid < tileEnd;
        int s0 = seg * chunk;
        int s1 = Math.min(n, s0 + chunk);
        for (int t0 = s0; t0 < s1; t0 += w) {
            int j = t0 + lid;
            if (j < s1) {
                double v0 = scale * y.get(3 * j) - c0;
                double v1 = scale * y.get(3 * j + 1) - c1;
                double v2 = scale * y.get(3 * j + 2) - c2;
                double vv = v0 * v0 + v1 * v1 + v2 * v2;
                boolean far = vv > FAR;
                ys[4 * lid] = far ? 0.0 : v0;
                ys[4 * lid + 1] = far ? 0.0 : v1;
                ys[4 * lid + 2] = far ? 0.0 : v2;
                ys[4 * lid + 3] = far ? -2048.0 : -vv;
                bs[lid] = b.get(j);
            }
            ctx.localBarrier();
            int len = Math.min(w, s1 - t0);
            if (active && len == SPLIT_STAGE) {
                for (@Unroll(1) int k = 0; k < SPLIT_STAGE; k += 4) {
                    for (@Unroll int s = 0; s < 4; s++) {
                        int p = k + s;
                        double v0 = ys[4 * p];
                        double v1 = ys[4 * p + 1];
                        double v2 = ys[4 * p + 2];
                        double bj = ys[4 * p + 3];
                        double bp = bs[p];
                        for (@Unroll int t = 0; t < TARGETS; t++) {
                            double e = KernelMath.fma(u0[t], v0, KernelMath.fma(u1[t], v1, KernelMath.fma(u2[t], v2, bj)));
                            part[t] = KernelMath.fma(exp2Fine(e, table), bp, part[t]);
                        }
                    }
                }
                if ((t0 + SPLIT_STAGE) % KernelSumKernelsF64.PARTIAL == 0) {
                    for (int t = 0; t < TARGETS; t++) {
                        acc[t] += part[t];
                        part[t] = 0.0;
                    }
                }
            } else if (active) {
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
                            part[t] = KernelMath.fma(exp2Fine(e, table), bp, part[t]);
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
            int i = tileStart + lid + t * w;
            if (i < tileEnd) {
                partials.set(seg * m + i, acc[t] + part[t]);
            }
        }
    }

    /**
     * {@code a[i] = 2^(-|u_i|^2) sum_s partials[s m + i]} for {@code i < m}: the segments of {@link #gaussExpandedSplit3}
     * added in order, times the target factor ({@code u_i / 2} formed with the same multiply-add as there).
     */
    @Kernel
    public static void combineSplits(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray partials, @NoAlias DoubleArray a,
            @ReadOnly DoubleArray centres, int m, int splits, double scale) {
        int i = ctx.globalIdx;
        if (i < m) {
            double sum = 0.0;
            for (int s = 0; s < splits; s++) {
                sum += partials.get(s * m + i);
            }
            double h0 = KernelMath.fma(scale, x.get(3 * i), -centres.get(0));
            double h1 = KernelMath.fma(scale, x.get(3 * i + 1), -centres.get(1));
            double h2 = KernelMath.fma(scale, x.get(3 * i + 2), -centres.get(2));
            a.set(i, Math.pow(2.0, -(h0 * h0 + h1 * h1 + h2 * h2)) * sum);
        }
    }

    /** {@code 2^(i/2048)}, {@code i < 2048}: the table {@link #exp2Fine} reads. */
    static double[] fineTable() {
        double[] t = new double[FINE_TABLE];
        for (int i = 0; i < FINE_TABLE; i++) t[i] = Math.pow(2.0, i / 2048.0);
        return t;
    }
}
