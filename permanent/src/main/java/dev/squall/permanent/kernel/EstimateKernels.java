package dev.squall.permanent.kernel;

import dev.squall.tasks.api.*;

/**
 * The Gray-code rounding-error estimate's re-computation ({@code cpu.RyserRoundingEstimate}) on a device, in the same
 * arithmetic as the JVM code it mirrors, so that a device sweep's estimate needs no host threads:
 * <ul>
 * <li>{@link #roundingChunks}: the sampled chunks, each in double (one work-item per stretch of x from a fresh start,
 * Neumaier-compensated sum and the sum of squared terms, as the JVM's {@code sweep}) and in double-double (split into
 * parts, each from its own double-double start vector, as {@code cpu.DoubleDoubleGraySweep});</li>
 * <li>{@link #driftParts}: the first-order effect of x's drift over whole run chunks (as the JVM's {@code driftSum}),
 * each run chunk split into parts: a part walks x and its exact error from the run chunk's start and sums the
 * effect over its own steps only.</li>
 * </ul>
 * {@code a} is the matrix row-major (start vectors), {@code colStart/rowIdx/vals} its columns in CSC (updates);
 * {@code starts} the first steps of the chunks or run chunks ({@code LongArray}, so 64-bit offsets need no scalar
 * long argument), {@code out} one value (or triple) per work-item, reduced on the host in work-item order.
 */
public final class EstimateKernels {
    /** Size of the private vectors: the largest order, rounded up. */
    public static final int MAX_N = 64;

    private EstimateKernels() {
    }

    /**
     * Work-items {@code t < doubleItems}: chunk {@code t / segments}, its stretch {@code t % segments} of {@code restart}
     * steps in double from a fresh x; writes {@code out[3t..3t+2] = sum, compensation, sum of squared terms}. Work-items
     * {@code doubleItems <= t < threads}: chunk {@code u / parts}, part {@code u % parts} ({@code u = t - doubleItems}) of
     * {@code length / parts} steps in double-double; writes {@code out[3t..3t+1] = hi, lo}.
     */
    @Kernel
    public static void roundingChunks(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly IntArray colStart, @ReadOnly IntArray rowIdx,
                                      @ReadOnly DoubleArray vals, @ReadOnly LongArray starts, DoubleArray out, int n, int length, int restart,
                                      int segments, int parts, int doubleItems, int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        if (t < doubleItems) {
            long from = starts.get(t / segments) + (long) (t % segments) * restart;
            double[] x = new double[MAX_N];
            startVector(a, n, from, x);
            double[] acc = new double[2];
            double squares = 0.0;
            for (long g = from; g < from + restart; g++) {
                if (g > from) {
                    int j = Long.numberOfTrailingZeros(g);
                    double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
                    int kEnd = colStart.get(j + 1);
                    for (int k = colStart.get(j); k < kEnd; k++) x[rowIdx.get(k)] += s * vals.get(k);
                }
                double prod = 1.0;
                for (int i = 0; i < n; i++) prod *= x[i];
                compensatedAdd(acc, (g & 1L) == 0 ? prod : -prod);
                squares += prod * prod;
            }
            out.set(3 * t, acc[0]);
            out.set(3 * t + 1, acc[1]);
            out.set(3 * t + 2, squares);
        } else {
            int u = t - doubleItems;
            int partLength = length / parts;
            long from = starts.get(u / parts) + (long) (u % parts) * partLength;
            double[] hi = new double[MAX_N];
            double[] lo = new double[MAX_N];
            startVectorDoubleDouble(a, n, from, hi, lo);
            double sumHi = 0.0;
            double sumLo = 0.0;
            for (long g = from; g < from + partLength; g++) {
                if (g > from) {
                    int j = Long.numberOfTrailingZeros(g);
                    boolean add = ((g >>> (j + 1)) & 1L) == 0;
                    int kEnd = colStart.get(j + 1);
                    for (int k = colStart.get(j); k < kEnd; k++) {
                        double w = add ? vals.get(k) : -vals.get(k);
                        addTo(hi, lo, rowIdx.get(k), w);
                    }
                }
                // product in double-double: (ph + pl) (hi_i + lo_i), the high product's error exact through fma
                double ph = hi[0];
                double pl = lo[0];
                for (int i = 1; i < n; i++) {
                    double p = ph * hi[i];
                    double e = Math.fma(ph, hi[i], -p) + (ph * lo[i] + pl * hi[i]);
                    ph = p + e;
                    pl = e - (ph - p);
                }
                if ((g & 1L) != 0) {
                    ph = -ph;
                    pl = -pl;
                }
                double s = sumHi + ph;
                double bb = s - sumHi;
                double e = (sumHi - (s - bb)) + (ph - bb) + sumLo + pl;
                sumHi = s + e;
                sumLo = e - (sumHi - s);
            }
            out.set(3 * t, sumHi);
            out.set(3 * t + 1, sumLo);
            out.set(3 * t + 2, 0.0);
        }
    }

    /**
     * Work-item t: run chunk {@code t / parts} (first step {@code starts[t / parts]}, {@code runChunk} steps), part
     * {@code q = t % parts}: x in double and its error {@code eps} (exact minus double, each update's rounding by TwoSum)
     * walked from the run chunk's start; over the part's steps {@code [from, from + runChunk / parts)} it sums
     * {@code (-1)^g sum_i eps_i prod_(k != i) x_k} (two product chains of n/2 rows); the first part adds the run chunk's
     * first step. Writes {@code out[t]} (compensated).
     */
    @Kernel
    public static void driftParts(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly IntArray colStart, @ReadOnly IntArray rowIdx,
                                  @ReadOnly DoubleArray vals, @ReadOnly LongArray starts, DoubleArray out, int n, int runChunk, int parts,
                                  int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        long run = starts.get(t / parts);
        int partLength = runChunk / parts;
        long from = run + (long) (t % parts) * partLength;
        long to = from + partLength;
        double[] x = new double[MAX_N];
        double[] hi = new double[MAX_N];
        double[] lo = new double[MAX_N];
        double[] eps = new double[MAX_N];
        startVector(a, n, run, x);
        startVectorDoubleDouble(a, n, run, hi, lo);
        for (int i = 0; i < n; i++) eps[i] = (hi[i] - x[i]) + lo[i];
        double[] acc = new double[2];
        if (from == run) {
            // the run's first step: sum_i eps_i prod_(k != i) x_k in one chain
            double s1 = 0.0;
            double p1 = 1.0;
            for (int i = 0; i < n; i++) {
                s1 = s1 * x[i] + eps[i] * p1;
                p1 *= x[i];
            }
            compensatedAdd(acc, (run & 1L) == 0 ? s1 : -s1);
        }
        int half = n / 2;
        for (long g = run + 1; g < to; g++) {
            int j = Long.numberOfTrailingZeros(g);
            double sg = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
            int kEnd = colStart.get(j + 1);
            for (int k = colStart.get(j); k < kEnd; k++) {
                int row = rowIdx.get(k);
                double old = x[row];
                double w = sg * vals.get(k);
                double nx = old + w;
                double bb = nx - old;
                eps[row] += (old - (nx - bb)) + (w - bb);
                x[row] = nx;
            }
            if (g >= from) {
                double s1 = 0.0;
                double p1 = 1.0;
                double s2 = 0.0;
                double p2 = 1.0;
                for (int i = 0; i < half; i++) {
                    s1 = s1 * x[i] + eps[i] * p1;
                    p1 *= x[i];
                    s2 = s2 * x[half + i] + eps[half + i] * p2;
                    p2 *= x[half + i];
                }
                if ((n & 1) != 0) {
                    s2 = s2 * x[n - 1] + eps[n - 1] * p2;
                    p2 *= x[n - 1];
                }
                double term = s1 * p2 + p1 * s2;
                compensatedAdd(acc, (g & 1L) == 0 ? term : -term);
            }
        }
        out.set(t, acc[0] + acc[1]);
    }

    /** x^(g) in double as {@code NijenhuisWilf.startVector}: {@code a_(i,n-1) - rowSum/2 + sum of the chosen columns}. */
    @DeviceFunction
    static void startVector(DoubleArray a, int n, long g, double[] x) {
        long code = g ^ (g >>> 1);
        for (int i = 0; i < n; i++) {
            double rowSum = 0.0;
            double inSet = 0.0;
            for (int j = 0; j < n; j++) {
                double v = a.get(i * n + j);
                rowSum += v;
                if (j < n - 1 && ((code >>> j) & 1L) != 0) inSet += v;
            }
            x[i] = a.get(i * n + n - 1) - 0.5 * rowSum + inSet;
        }
    }

    /** x^(g) in double-double as {@code DoubleDoubleGraySweep.startVector}: halves of the nonzeros added by TwoSum. */
    @DeviceFunction
    static void startVectorDoubleDouble(DoubleArray a, int n, long g, double[] hi, double[] lo) {
        long code = g ^ (g >>> 1);
        for (int i = 0; i < n; i++) {
            double h = a.get(i * n + n - 1);
            double l = 0.0;
            for (int j = 0; j < n; j++) {
                double v = a.get(i * n + j);
                if (v != 0.0) {
                    double w = (j < n - 1 && ((code >>> j) & 1L) != 0) ? 0.5 * v : -0.5 * v;
                    double s = h + w;
                    double bb = s - h;
                    double e = (h - (s - bb)) + (w - bb) + l;
                    h = s + e;
                    l = e - (h - s);
                }
            }
            hi[i] = h;
            lo[i] = l;
        }
    }

    /** {@code (hi[r], lo[r]) += w}: TwoSum of the high parts, the low part folded in, renormalised. */
    @DeviceFunction
    static void addTo(double[] hi, double[] lo, int r, double w) {
        double h = hi[r];
        double s = h + w;
        double bb = s - h;
        double e = (h - (s - bb)) + (w - bb) + lo[r];
        double nh = s + e;
        hi[r] = nh;
        lo[r] = e - (nh - s);
    }

    /** Neumaier's compensated {@code acc = {sum, comp}} += term, as {@code numeric.KahanSum}. */
    @DeviceFunction
    static void compensatedAdd(double[] acc, double term) {
        double sum = acc[0];
        double tt = sum + term;
        if (Math.abs(sum) >= Math.abs(term)) acc[1] += (sum - tt) + term;
        else acc[1] += (term - tt) + sum;
        acc[0] = tt;
    }
}
