package dev.squall.permanent.kernel;

import dev.squall.tasks.api.*;

/**
 * The generic (not per-matrix) Gray-code permanent kernels, the baseline for the generated ones:
 * each work-item keeps its x vector in a private array (local/stack memory on GPUs, since it is
 * indexed at run time), starts from {@code x^(start)} and writes a compensated partial
 * {@code (sum, compensation)} of {@code (-1)^g prod x^(g)} over its chunk; the host reduces the
 * partials in order. {@code plan} holds {@code offset, delta, totalSteps} of the launch
 * ({@link LaunchPlan}).
 *
 * <p>The three kernels share one sweep skeleton through device functions: chunk bounds, Gray-code
 * sign, compensated accumulation in a private {@code acc = {sum, comp}}; only the x updates differ
 * (dense private, dense local, sparse private). The local-memory variants are separate functions
 * because a device function's array parameter has one address space.
 */
public final class PermanentKernels {
    /** Size of the private x array: the largest order the sweep supports, rounded up. */
    public static final int MAX_N = 64;
    /** Work-group size of every launch; {@link #denseChunksLocal} sizes its local array by it. */
    public static final int GROUP = 64;

    private PermanentKernels() {
    }

    /** Dense: {@code cols} is the matrix column-major, every step updates all n rows. */
    @Kernel
    public static void denseChunks(KernelContext ctx, @ReadOnly DoubleArray cols, @ReadOnly DoubleArray xInit,
                                   @ReadOnly LongArray plan, DoubleArray partials, int n, int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        long start = chunkStart(plan, t);
        long end = chunkEnd(plan, start);
        double[] acc = new double[2];
        if (start < end) {
            double[] x = new double[MAX_N];
            for (int i = 0; i < n; i++) x[i] = xInit.get(i);
            for (int j = 0; j < n - 1; j++) if (inGrayCode(start, j)) denseAdd(x, cols, j * n, 1.0, n);
            acc[0] = signed(start, product(x, n));
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                compensatedAdd(acc, signed(g, denseAdd(x, cols, j * n, graySign(g, j), n)));
            }
        }
        writePartial(partials, t, acc);
    }

    /**
     * Dense with x in the work-group's local memory (the "x in local memory" baseline):
     * {@code MAX_N * GROUP} doubles (32 KiB) per group, work-item {@code l} owning the strided slots
     * {@code x[i * GROUP + l]} so that a warp's accesses to one x_i fall in distinct banks.
     * Needs work-groups of exactly {@link #GROUP}.
     */
    @Kernel
    public static void denseChunksLocal(KernelContext ctx, @ReadOnly DoubleArray cols, @ReadOnly DoubleArray xInit,
                                        @ReadOnly LongArray plan, DoubleArray partials, int n, int threads) {
        double[] x = ctx.allocateDoubleLocalArray(MAX_N * GROUP);
        int t = ctx.globalIdx;
        int l = ctx.localIdx;
        if (t >= threads) return;
        long start = chunkStart(plan, t);
        long end = chunkEnd(plan, start);
        double[] acc = new double[2];
        if (start < end) {
            for (int i = 0; i < n; i++) x[i * GROUP + l] = xInit.get(i);
            for (int j = 0; j < n - 1; j++) if (inGrayCode(start, j)) denseAddLocal(x, l, cols, j * n, 1.0, n);
            acc[0] = signed(start, productLocal(x, l, n));
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                compensatedAdd(acc, signed(g, denseAddLocal(x, l, cols, j * n, graySign(g, j), n)));
            }
        }
        writePartial(partials, t, acc);
    }

    /** Sparse: columns in CSC ({@code colStart}, {@code rowIdx}, {@code vals}); a step updates one column's nonzeros. */
    @Kernel
    public static void sparseChunks(KernelContext ctx, @ReadOnly IntArray colStart, @ReadOnly IntArray rowIdx,
                                    @ReadOnly DoubleArray vals, @ReadOnly DoubleArray xInit,
                                    @ReadOnly LongArray plan, DoubleArray partials, int n, int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        long start = chunkStart(plan, t);
        long end = chunkEnd(plan, start);
        double[] acc = new double[2];
        if (start < end) {
            double[] x = new double[MAX_N];
            for (int i = 0; i < n; i++) x[i] = xInit.get(i);
            for (int j = 0; j < n - 1; j++) if (inGrayCode(start, j)) sparseAdd(x, colStart, rowIdx, vals, j, 1.0);
            acc[0] = signed(start, product(x, n));
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                sparseAdd(x, colStart, rowIdx, vals, j, graySign(g, j));
                compensatedAdd(acc, signed(g, product(x, n)));
            }
        }
        writePartial(partials, t, acc);
    }

    /**
     * Sparse, in double-double arithmetic (about 106-bit significands, as {@code cpu.DoubleDoubleGraySweep} on the JVM
     * threads): x, each step's product and the sum are unevaluated sums {@code hi + lo}. Additions are Knuth's TwoSum
     * (additions only, so no contraction into FMA changes them); products use the FMA two-product
     * {@code e = fma(a, b, -a*b)}, exact wherever fma is fused (Hida, Li and Bailey, "Library for double-double and
     * quad-double arithmetic", 2007); a compiler that contracts {@code a*b + e} into one FMA only rounds the high part
     * once instead of twice, and the renormalisation after it keeps the pair's error at ~2^-104. Each work-item builds its start vector in double-double from the CSC columns
     * ({@code x_i = a_(i,n-1) - sum_j a_ij / 2 + sum of the chosen columns}: halves are exact) and writes its partial
     * {@code (hi, lo)}.
     */
    @Kernel
    public static void sparseChunksDoubleDouble(KernelContext ctx, @ReadOnly IntArray colStart, @ReadOnly IntArray rowIdx, @ReadOnly DoubleArray vals,
                                    @ReadOnly LongArray plan, DoubleArray partials, int n, int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        long start = chunkStart(plan, t);
        long end = chunkEnd(plan, start);
        double[] acc = new double[2];
        if (start < end) {
            double[] hi = new double[MAX_N];
            double[] lo = new double[MAX_N];
            for (int i = 0; i < n; i++) {
                hi[i] = 0.0;
                lo[i] = 0.0;
            }
            // x_i = a_(i,n-1) - (1/2) sum_j a_ij + sum over the chosen columns: +-a_ij/2 per nonzero (halves are exact)
            for (int j = 0; j < n; j++) {
                boolean plus = j == n - 1 || inGrayCode(start, j);
                int kEnd = colStart.get(j + 1);
                for (int k = colStart.get(j); k < kEnd; k++) {
                    double w = plus ? 0.5 * vals.get(k) : -0.5 * vals.get(k);
                    addTo(hi, lo, rowIdx.get(k), w);
                }
            }
            for (long g = start; g < end; g++) {
                if (g > start) {
                    int j = Long.numberOfTrailingZeros(g);
                    double s = graySign(g, j);
                    int kEnd = colStart.get(j + 1);
                    for (int k = colStart.get(j); k < kEnd; k++) addTo(hi, lo, rowIdx.get(k), s * vals.get(k));
                }
                // prod x in double-double: (ph + pl) (hi_i + lo_i), the high product's error exact through fma
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
                accumulate(acc, ph, pl);
            }
        }
        partials.set(2 * t, acc[0]);
        partials.set(2 * t + 1, acc[1]);
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

    /** {@code acc = {hi, lo}} += {@code (ph, pl)} in double-double. */
    @DeviceFunction
    static void accumulate(double[] acc, double ph, double pl) {
        double h = acc[0];
        double s = h + ph;
        double bb = s - h;
        double e = (h - (s - bb)) + (ph - bb) + acc[1] + pl;
        double nh = s + e;
        acc[0] = nh;
        acc[1] = e - (nh - s);
    }

    // ---- the shared sweep skeleton ----

    /** First step of work-item t's chunk (Elbek and Kaya, Algorithm 2: aligned power-of-two chunks). */
    @DeviceFunction
    static long chunkStart(LongArray plan, int t) {
        return plan.get(0) + (long) t * plan.get(1);
    }

    @DeviceFunction
    static long chunkEnd(LongArray plan, long start) {
        return Math.min(start + plan.get(1), plan.get(2));
    }

    /** Whether column j is in the subset gray(g) = g ^ (g >>> 1). */
    @DeviceFunction
    static boolean inGrayCode(long g, int j) {
        return (((g ^ (g >>> 1)) >>> j) & 1L) != 0;
    }

    /** Step g flips column j = ctz(g): +1 when it enters the subset (bit j+1 of g is 0), -1 when it leaves. */
    @DeviceFunction
    static double graySign(long g, int j) {
        return ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
    }

    /** {@code (-1)^g v}: the popcount of gray(g) has the parity of g. */
    @DeviceFunction
    static double signed(long g, double v) {
        return (g & 1L) == 0 ? v : -v;
    }

    /**
     * Adds {@code term} into {@code acc = {sum, comp}} with Neumaier's compensation (the branch
     * on magnitudes keeps the rounding error of the larger operand's side).
     */
    @DeviceFunction
    static void compensatedAdd(double[] acc, double term) {
        double sum = acc[0];
        double tt = sum + term;
        if (Math.abs(sum) >= Math.abs(term)) acc[1] += (sum - tt) + term;
        else acc[1] += (term - tt) + sum;
        acc[0] = tt;
    }

    @DeviceFunction
    static void writePartial(DoubleArray partials, int t, double[] acc) {
        partials.set(2 * t, acc[0]);
        partials.set(2 * t + 1, acc[1]);
    }

    @DeviceFunction
    static double product(double[] x, int n) {
        double p = 1.0;
        for (@Unroll(4) int i = 0; i < n; i++) p *= x[i];
        return p;
    }

    @DeviceFunction
    static double productLocal(double[] x, int l, int n) {
        double p = 1.0;
        for (@Unroll(4) int i = 0; i < n; i++) p *= x[i * GROUP + l];
        return p;
    }

    /** {@code x += s * column} (column starting at {@code cols[off]}) and returns the new {@code prod x}. */
    @DeviceFunction
    static double denseAdd(double[] x, DoubleArray cols, int off, double s, int n) {
        double prod = 1.0;
        for (@Unroll(4) int i = 0; i < n; i++) {
            double v = x[i] + s * cols.get(off + i);
            x[i] = v;
            prod *= v;
        }
        return prod;
    }

    /** {@link #denseAdd} on the strided local-memory x of work-item l. */
    @DeviceFunction
    static double denseAddLocal(double[] x, int l, DoubleArray cols, int off, double s, int n) {
        double prod = 1.0;
        for (@Unroll(4) int i = 0; i < n; i++) {
            double v = x[i * GROUP + l] + s * cols.get(off + i);
            x[i * GROUP + l] = v;
            prod *= v;
        }
        return prod;
    }

    /** {@code x += s * column j} over the column's nonzeros. */
    @DeviceFunction
    static void sparseAdd(double[] x, IntArray colStart, IntArray rowIdx, DoubleArray vals, int j, double s) {
        int kEnd = colStart.get(j + 1);
        for (int k = colStart.get(j); k < kEnd; k++) x[rowIdx.get(k)] += s * vals.get(k);
    }
}
