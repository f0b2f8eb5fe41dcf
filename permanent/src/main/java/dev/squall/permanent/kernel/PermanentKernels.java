package dev.squall.permanent.kernel;

import dev.squall.tasks.api.*;

/**
 * The generic (not per-matrix) Gray-code permanent kernels, the baseline for the generated ones:
 * each work-item keeps its x vector in a private array (local/stack memory on GPUs, since it is
 * indexed at run time), starts from {@code x^(start)} and writes a compensated partial
 * {@code (sum, compensation)} of {@code (-1)^g prod x^(g)} over its chunk; the host reduces the
 * partials in order. {@code plan} holds {@code offset, delta, totalSteps} of the launch
 * ({@link LaunchPlan}).
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
        long start = plan.get(0) + (long) t * plan.get(1);
        long end = Math.min(start + plan.get(1), plan.get(2));
        double sum = 0.0;
        double comp = 0.0;
        if (start < end) {
            double[] x = new double[MAX_N];
            long code = start ^ (start >>> 1);
            for (int i = 0; i < n; i++) x[i] = xInit.get(i);
            for (int j = 0; j < n - 1; j++) {
                if (((code >>> j) & 1L) != 0) {
                    for (int i = 0; i < n; i++) x[i] += cols.get(j * n + i);
                }
            }
            double p = 1.0;
            for (int i = 0; i < n; i++) p *= x[i];
            sum = (start & 1L) == 0 ? p : -p;
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
                int off = j * n;
                double prod = 1.0;
                for (int i = 0; i < n; i++) {
                    double v = x[i] + s * cols.get(off + i);
                    x[i] = v;
                    prod *= v;
                }
                double term = (g & 1L) == 0 ? prod : -prod;
                double tt = sum + term;
                if (Math.abs(sum) >= Math.abs(term)) comp += (sum - tt) + term;
                else comp += (term - tt) + sum;
                sum = tt;
            }
        }
        partials.set(2 * t, sum);
        partials.set(2 * t + 1, comp);
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
        long start = plan.get(0) + (long) t * plan.get(1);
        long end = Math.min(start + plan.get(1), plan.get(2));
        double sum = 0.0;
        double comp = 0.0;
        if (start < end) {
            long code = start ^ (start >>> 1);
            for (int i = 0; i < n; i++) x[i * GROUP + l] = xInit.get(i);
            for (int j = 0; j < n - 1; j++) {
                if (((code >>> j) & 1L) != 0) {
                    for (int i = 0; i < n; i++) x[i * GROUP + l] += cols.get(j * n + i);
                }
            }
            double p = 1.0;
            for (int i = 0; i < n; i++) p *= x[i * GROUP + l];
            sum = (start & 1L) == 0 ? p : -p;
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
                int off = j * n;
                double prod = 1.0;
                for (int i = 0; i < n; i++) {
                    double v = x[i * GROUP + l] + s * cols.get(off + i);
                    x[i * GROUP + l] = v;
                    prod *= v;
                }
                double term = (g & 1L) == 0 ? prod : -prod;
                double tt = sum + term;
                if (Math.abs(sum) >= Math.abs(term)) comp += (sum - tt) + term;
                else comp += (term - tt) + sum;
                sum = tt;
            }
        }
        partials.set(2 * t, sum);
        partials.set(2 * t + 1, comp);
    }

    /** Sparse: columns in CSC ({@code colStart}, {@code rowIdx}, {@code vals}); a step updates one column's nonzeros. */
    @Kernel
    public static void sparseChunks(KernelContext ctx, @ReadOnly IntArray colStart, @ReadOnly IntArray rowIdx,
                                    @ReadOnly DoubleArray vals, @ReadOnly DoubleArray xInit,
                                    @ReadOnly LongArray plan, DoubleArray partials, int n, int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        long start = plan.get(0) + (long) t * plan.get(1);
        long end = Math.min(start + plan.get(1), plan.get(2));
        double sum = 0.0;
        double comp = 0.0;
        if (start < end) {
            double[] x = new double[MAX_N];
            long code = start ^ (start >>> 1);
            for (int i = 0; i < n; i++) x[i] = xInit.get(i);
            for (int j = 0; j < n - 1; j++) {
                if (((code >>> j) & 1L) != 0) {
                    for (int k = colStart.get(j); k < colStart.get(j + 1); k++) x[rowIdx.get(k)] += vals.get(k);
                }
            }
            double p = 1.0;
            for (int i = 0; i < n; i++) p *= x[i];
            sum = (start & 1L) == 0 ? p : -p;
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
                int kEnd = colStart.get(j + 1);
                for (int k = colStart.get(j); k < kEnd; k++) {
                    int r = rowIdx.get(k);
                    x[r] += s * vals.get(k);
                }
                double prod = 1.0;
                for (int i = 0; i < n; i++) prod *= x[i];
                double term = (g & 1L) == 0 ? prod : -prod;
                double tt = sum + term;
                if (Math.abs(sum) >= Math.abs(term)) comp += (sum - tt) + term;
                else comp += (term - tt) + sum;
                sum = tt;
            }
        }
        partials.set(2 * t, sum);
        partials.set(2 * t + 1, comp);
    }
}
