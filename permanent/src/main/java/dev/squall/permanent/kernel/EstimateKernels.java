package dev.squall.permanent.kernel;

import dev.squall.tasks.api.*;

/**
 * The Gray-code rounding-error estimate's re-computation ({@code cpu.RyserRoundingEstimate}) on a device, in the same
 * arithmetic as the JVM code it mirrors, so that a device sweep's estimate needs no host threads. A work-group of
 * {@link #GROUP} work-items walks one stretch of steps, work-item {@code l} holding row {@code l} of x (in registers:
 * a step updates every row with a nonzero in the changed column at once, where one work-item would update them one
 * after another through memory); the products are formed in local memory (a double product in one left-to-right chain,
 * as the JVM sample's; double-double products and drift terms by {@link #PRODUCT_GROUP}-row groups) and the first
 * work-item accumulates them:
 * <ul>
 * <li>{@link #roundingChunks}: the sampled chunks, each in double (a group per stretch of x from a fresh start:
 * Neumaier-compensated sum and the sum of squared terms) and in double-double (a group per part of a chunk, each
 * from its own double-double start vector, as {@code cpu.DoubleDoubleGraySweep});</li>
 * <li>{@link #driftParts}: the first-order effect of x's drift over whole run chunks ({@code driftSum}), each run chunk
 * split into parts: a part's group walks x and its exact error from the run chunk's start (no products: cheap) and
 * sums the effect over its own steps only.</li>
 * </ul>
 * {@code cols} is the matrix column-major; {@code starts} the first steps of the chunks or run chunks
 * ({@code LongArray}: 64-bit offsets need no scalar long argument); {@code out} one value (or triple) per group,
 * reduced on the host in group order.
 */
public final class EstimateKernels {
    /** Work-items per group: one per row (orders up to 63). */
    public static final int GROUP = 64;
    /** Rows a group's leading work-items multiply, each one group of them (as {@code RyserRoundingEstimate.PRODUCT_GROUP}). */
    public static final int PRODUCT_GROUP = 8;

    private EstimateKernels() {
    }

    /**
     * Groups {@code u < doubleUnits}: chunk {@code u / segments}, its stretch {@code u % segments} of {@code restart}
     * steps in double from a fresh x; writes {@code out[3u..3u+2] = sum, compensation, sum of squared terms}. Groups
     * {@code doubleUnits <= u < units}: chunk {@code v / parts}, part {@code v % parts} ({@code v = u - doubleUnits}) of
     * {@code length / parts} steps in double-double; writes {@code out[3u..3u+1] = hi, lo}.
     */
    @Kernel
    public static void roundingChunks(KernelContext ctx, @ReadOnly DoubleArray cols, @ReadOnly LongArray starts, DoubleArray out, int n, int length,
                                      int restart, int segments, int parts, int doubleUnits, int units) {
        double[] xs = ctx.allocateDoubleLocalArray(GROUP);
        double[] ls = ctx.allocateDoubleLocalArray(GROUP);
        double[] part = ctx.allocateDoubleLocalArray(2 * PRODUCT_GROUP);
        int u = ctx.groupIdx;
        int l = ctx.localIdx;
        if (u >= units) return;
        boolean dbl = u < doubleUnits;
        int v = u - doubleUnits;
        int partLength = length / parts;
        long from = dbl ? starts.get(u / segments) + (long) (u % segments) * restart : starts.get(v / parts) + (long) (v % parts) * partLength;
        long to = from + (dbl ? restart : partLength);
        int groups = (n + PRODUCT_GROUP - 1) / PRODUCT_GROUP;
        // row l of x^(from): in double as NijenhuisWilf.startVector, in double-double as DoubleDoubleGraySweep.startVector
        double xh = 1.0;
        double xl = 0.0;
        if (l < n) {
            if (dbl) xh = startRow(cols, n, from, l);
            else {
                xh = cols.get((n - 1) * n + l);
                long code = from ^ (from >>> 1);
                for (int j = 0; j < n; j++) {
                    double a = cols.get(j * n + l);
                    if (a != 0.0) {
                        double w = (j < n - 1 && ((code >>> j) & 1L) != 0) ? 0.5 * a : -0.5 * a;
                        double s = xh + w;
                        double bb = s - xh;
                        double e = (xh - (s - bb)) + (w - bb) + xl;
                        xh = s + e;
                        xl = e - (xh - s);
                    }
                }
            }
        }
        double sum = 0.0;
        double comp = 0.0;
        double squares = 0.0;
        for (long g = from; g < to; g++) {
            if (g > from && l < n) {
                int j = Long.numberOfTrailingZeros(g);
                double a = cols.get(j * n + l);
                if (a != 0.0) {
                    double w = ((g >>> (j + 1)) & 1L) == 0 ? a : -a;
                    if (dbl) xh += w;
                    else {
                        double s = xh + w;
                        double bb = s - xh;
                        double e = (xh - (s - bb)) + (w - bb) + xl;
                        xh = s + e;
                        xl = e - (xh - s);
                    }
                }
            }
            xs[l] = xh;
            ls[l] = xl;
            ctx.localBarrier();
            if (l < groups) {
                int i0 = l * PRODUCT_GROUP;
                int i1 = Math.min(n, i0 + PRODUCT_GROUP);
                if (dbl) {
                    // the double product is one left-to-right chain (the JVM sample's, as calibrated): formed by work-item 0
                    if (l == 0) {
                        double p = 1.0;
                        for (int i = 0; i < n; i++) p *= xs[i];
                        part[0] = p;
                    }
                } else {
                    double ph = xs[i0];
                    double pl = ls[i0];
                    for (int i = i0 + 1; i < i1; i++) {
                        double p = ph * xs[i];
                        double e = Math.fma(ph, xs[i], -p) + (ph * ls[i] + pl * xs[i]);
                        ph = p + e;
                        pl = e - (ph - p);
                    }
                    part[l] = ph;
                    part[PRODUCT_GROUP + l] = pl;
                }
            }
            ctx.localBarrier();
            if (l == 0) {
                if (dbl) {
                    double prod = part[0];
                    double term = (g & 1L) == 0 ? prod : -prod;
                    double tt = sum + term;
                    if (Math.abs(sum) >= Math.abs(term)) comp += (sum - tt) + term;
                    else comp += (term - tt) + sum;
                    sum = tt;
                    squares += prod * prod;
                } else {
                    double ph = part[0];
                    double pl = part[PRODUCT_GROUP];
                    for (int k = 1; k < groups; k++) {
                        double p = ph * part[k];
                        double e = Math.fma(ph, part[k], -p) + (ph * part[PRODUCT_GROUP + k] + pl * part[k]);
                        ph = p + e;
                        pl = e - (ph - p);
                    }
                    if ((g & 1L) != 0) {
                        ph = -ph;
                        pl = -pl;
                    }
                    double s = sum + ph;
                    double bb = s - sum;
                    double e = (sum - (s - bb)) + (ph - bb) + comp + pl;
                    sum = s + e;
                    comp = e - (sum - s);
                }
            }
        }
        if (l == 0) {
            out.set(3L * u, sum);
            out.set(3L * u + 1, comp);
            out.set(3L * u + 2, squares);
        }
    }

    /**
     * Group u: run chunk {@code u / parts} (first step {@code starts[u / parts]}, {@code runChunk} steps), part
     * {@code q = u % parts}: x in double and its error {@code eps} (exact minus double, each update's rounding by TwoSum)
     * walked from the run chunk's start; over the part's steps {@code [from, from + runChunk / parts)} it sums
     * {@code (-1)^g sum_i eps_i prod_(k != i) x_k} ({@code RyserRoundingEstimate.driftTerm}'s groups); the first part
     * adds the run chunk's first step. Writes {@code out[u]} (compensated).
     */
    @Kernel
    public static void driftParts(KernelContext ctx, @ReadOnly DoubleArray cols, @ReadOnly LongArray starts, DoubleArray out, int n, int runChunk,
                                  int parts, int units) {
        double[] xs = ctx.allocateDoubleLocalArray(GROUP);
        double[] es = ctx.allocateDoubleLocalArray(GROUP);
        double[] part = ctx.allocateDoubleLocalArray(2 * PRODUCT_GROUP);
        int u = ctx.groupIdx;
        int l = ctx.localIdx;
        if (u >= units) return;
        long run = starts.get(u / parts);
        int partLength = runChunk / parts;
        long from = run + (long) (u % parts) * partLength;
        long to = from + partLength;
        int groups = (n + PRODUCT_GROUP - 1) / PRODUCT_GROUP;
        double x = 1.0;
        double eps = 0.0;
        if (l < n) {
            x = startRow(cols, n, run, l);
            double h = cols.get((n - 1) * n + l);
            double lo = 0.0;
            long code = run ^ (run >>> 1);
            for (int j = 0; j < n; j++) {
                double a = cols.get(j * n + l);
                if (a != 0.0) {
                    double w = (j < n - 1 && ((code >>> j) & 1L) != 0) ? 0.5 * a : -0.5 * a;
                    double s = h + w;
                    double bb = s - h;
                    double e = (h - (s - bb)) + (w - bb) + lo;
                    h = s + e;
                    lo = e - (h - s);
                }
            }
            eps = (h - x) + lo;
        }
        double sum = 0.0;
        double comp = 0.0;
        // from the run's start: steps before the part only walk (x, eps); the part's steps also sum the effect (the
        // first part's first step, g = run, is the run's start vector itself)
        for (long g = from == run ? run : run + 1; g < to; g++) {
            if (g > run && l < n) {
                int j = Long.numberOfTrailingZeros(g);
                double a = cols.get(j * n + l);
                if (a != 0.0) {
                    double w = ((g >>> (j + 1)) & 1L) == 0 ? a : -a;
                    double nx = x + w;
                    double bb = nx - x;
                    eps += (x - (nx - bb)) + (w - bb);
                    x = nx;
                }
            }
            if (g >= from) {
                xs[l] = x;
                es[l] = eps;
                ctx.localBarrier();
                if (l < groups) {
                    int i0 = l * PRODUCT_GROUP;
                    int i1 = Math.min(n, i0 + PRODUCT_GROUP);
                    double s = 0.0;
                    double p = 1.0;
                    for (int i = i0; i < i1; i++) {
                        s = s * xs[i] + es[i] * p;
                        p *= xs[i];
                    }
                    part[l] = s;
                    part[PRODUCT_GROUP + l] = p;
                }
                ctx.localBarrier();
                if (l == 0) {
                    double sTotal = 0.0;
                    double pTotal = 1.0;
                    for (int k = 0; k < groups; k++) {
                        sTotal = sTotal * part[PRODUCT_GROUP + k] + pTotal * part[k];
                        pTotal *= part[PRODUCT_GROUP + k];
                    }
                    double term = (g & 1L) == 0 ? sTotal : -sTotal;
                    double tt = sum + term;
                    if (Math.abs(sum) >= Math.abs(term)) comp += (sum - tt) + term;
                    else comp += (term - tt) + sum;
                    sum = tt;
                }
            }
        }
        if (l == 0) out.set(u, sum + comp);
    }

    /** Row l of x^(g) in double as {@code NijenhuisWilf.startVector}: {@code a_(l,n-1) - rowSum/2 + sum of the chosen columns}. */
    @DeviceFunction
    static double startRow(DoubleArray cols, int n, long g, int l) {
        long code = g ^ (g >>> 1);
        double rowSum = 0.0;
        double inSet = 0.0;
        for (int j = 0; j < n; j++) {
            double a = cols.get(j * n + l);
            rowSum += a;
            if (j < n - 1 && ((code >>> j) & 1L) != 0) inSet += a;
        }
        return cols.get((n - 1) * n + l) - 0.5 * rowSum + inSet;
    }
}
