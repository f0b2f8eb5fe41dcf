package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;
import dev.squall.tasks.api.Unroll;

/**
 * Kernel-sum kernels, double precision: {@code a_i = sum_j k(x_i, y_j) b_j} over point clouds stored point by point
 * ({@code x[i * dim + d]}), right-hand sides stored row by row ({@code b[j * cols + c]}).
 *
 * <p>Every reduction walks <em>tiles</em>: work-group {@code g} owns the targets {@code [tiles[3g], tiles[3g+1])} of
 * target cluster {@code tiles[3g+2]}, and sums over that cluster's source ranges
 * {@code [ranges[2r], ranges[2r+1])} for {@code r} in {@code [rangeOffsets[q], rangeOffsets[q+1])}, staging the
 * sources through local memory one work-group width at a time. A dense product is the case of one cluster with the
 * one range {@code [0, n)}; a block-sparse product (KeOps' scheme) lists only the kept ranges. Each work-item adds its
 * sources in increasing order, into a partial sum per block of {@link #PARTIAL} source indices (blocks aligned to
 * multiples of it, and cut at the end of each range) added in order to its accumulator, so the result of a target
 * depends only on the ranges it visits, not on how they were staged: a block-sparse product that keeps everything
 * (one range {@code [0, n)}) equals the dense one bit for bit when it runs on the same (sorted) points.
 *
 * <p>The kernel family is an int {@code kind} ({@link PairKernel} gives the codes) with {@code c = 1 / l^2}; the
 * values are functions of the squared distance, so the Gaussian, Cauchy and inverse multiquadric kernels need no
 * square root. The compiler generates the single-precision twin {@code KernelSumKernelsF32} and the typed handles
 * {@code KernelSumKernels} ({@link Fp32Variant}).
 */
@Fp32Variant(value = "KernelSumKernelsF32", handles = "KernelSumKernels")
public final class KernelSumKernelsF64 {
    /** Largest work-group width (sources staged per step). */
    public static final int MAX_TILE = 256;
    /** Largest dimension. */
    public static final int MAX_DIM = 8;
    /** Most columns of b one launch of the general kernel handles. */
    public static final int MAX_COLS = 8;

    /**
     * Sources are added in blocks of this many consecutive indices (a partial sum per block, then the partials in
     * order): the rounding error of a sum of N terms grows like {@code sqrt(256) + sqrt(N / 256)} rather than
     * {@code sqrt(N)} units. Blocks are aligned to multiples of this in the source index, so they do not depend on
     * the staging width.
     */
    public static final int PARTIAL = 256;

    static final int GAUSS = 0, EXPONENTIAL = 1, MATERN32 = 2, MATERN52 = 3, IMQ = 4, CAUCHY = 5;
    private static final double SQRT3 = 1.7320508075688772;
    private static final double SQRT5 = 2.23606797749979;

    private KernelSumKernelsF64() {
    }

    /** The kernel of family {@code kind} at squared distance {@code r2}, with {@code c = 1 / l^2}. */
    @DeviceFunction
    public static double kernelOfSquared(int kind, double r2, double c) {
        double s2 = r2 * c;
        if (kind == GAUSS) {
            return Math.exp(-0.5 * s2);
        }
        if (kind == CAUCHY) {
            return 1.0 / (1.0 + s2);
        }
        if (kind == IMQ) {
            return 1.0 / Math.sqrt(1.0 + s2);
        }
        double s = Math.sqrt(s2);
        if (kind == EXPONENTIAL) {
            return Math.exp(-s);
        }
        if (kind == MATERN32) {
            double t = SQRT3 * s;
            return (1.0 + t) * Math.exp(-t);
        }
        double t = SQRT5 * s;
        return (1.0 + t + t * t / 3.0) * Math.exp(-t);
    }

    /**
     * The derivative of the kernel with respect to the squared distance, {@code dk / d(r^2)}, so that the gradient in
     * {@code x} is {@code 2 dk/d(r^2) (x - y)}. The exponential kernel is not differentiable at {@code r = 0}; there
     * it gives 0 (the symmetric subgradient).
     */
    @DeviceFunction
    public static double kernelDerivative(int kind, double r2, double c) {
        double s2 = r2 * c;
        if (kind == GAUSS) {
            return -0.5 * c * Math.exp(-0.5 * s2);
        }
        if (kind == CAUCHY) {
            double g = 1.0 / (1.0 + s2);
            return -c * g * g;
        }
        if (kind == IMQ) {
            double g = 1.0 / Math.sqrt(1.0 + s2);
            return -0.5 * c * g * g * g;
        }
        double s = Math.sqrt(s2);
        if (kind == EXPONENTIAL) {
            if (s == 0.0) {
                return 0.0;
            }
            return -0.5 * c * Math.exp(-s) / s;
        }
        if (kind == MATERN32) {
            return -1.5 * c * Math.exp(-SQRT3 * s);
        }
        double t = SQRT5 * s;
        return -(5.0 / 6.0) * c * (1.0 + t) * Math.exp(-t);
    }

    /** One column, points in 1 dimension. */
    @Kernel
    public static void sum1(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @NoAlias DoubleArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            int cols, int col, int kind, double c) {
        double[] y0 = ctx.allocateDoubleLocalArray(MAX_TILE);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int i = tiles.get(3 * g) + lid;
        boolean active = i < tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        double x0 = 0.0;
        if (active) {
            x0 = x.get(i);
        }
        double acc = 0.0;
        double part = 0.0;
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += w) {
                int j = t0 + lid;
                if (j < s1) {
                    y0[lid] = y.get(j);
                    bs[lid] = b.get(j * cols + col);
                }
                ctx.localBarrier();
                int len = Math.min(w, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + PARTIAL - (t0 + q) % PARTIAL);
                        for (int p = q; p < stop; p++) {
                            double d0 = x0 - y0[p];
                            part += kernelOfSquared(kind, d0 * d0, c) * bs[p];
                        }
                        q = stop;
                        if ((t0 + q) % PARTIAL == 0) {
                            acc += part;
                            part = 0.0;
                        }
                    }
                }
                ctx.localBarrier();
            }
            acc += part;
            part = 0.0;
        }
        if (active) {
            a.set(i * cols + col, acc);
        }
    }

    /** One column, points in 2 dimensions. */
    @Kernel
    public static void sum2(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @NoAlias DoubleArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            int cols, int col, int kind, double c) {
        double[] y0 = ctx.allocateDoubleLocalArray(MAX_TILE);
        double[] y1 = ctx.allocateDoubleLocalArray(MAX_TILE);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int i = tiles.get(3 * g) + lid;
        boolean active = i < tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        double x0 = 0.0;
        double x1 = 0.0;
        if (active) {
            x0 = x.get(2 * i);
            x1 = x.get(2 * i + 1);
        }
        double acc = 0.0;
        double part = 0.0;
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += w) {
                int j = t0 + lid;
                if (j < s1) {
                    y0[lid] = y.get(2 * j);
                    y1[lid] = y.get(2 * j + 1);
                    bs[lid] = b.get(j * cols + col);
                }
                ctx.localBarrier();
                int len = Math.min(w, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + PARTIAL - (t0 + q) % PARTIAL);
                        for (int p = q; p < stop; p++) {
                            double d0 = x0 - y0[p];
                            double d1 = x1 - y1[p];
                            double r2 = d0 * d0;
                            r2 += d1 * d1;
                            part += kernelOfSquared(kind, r2, c) * bs[p];
                        }
                        q = stop;
                        if ((t0 + q) % PARTIAL == 0) {
                            acc += part;
                            part = 0.0;
                        }
                    }
                }
                ctx.localBarrier();
            }
            acc += part;
            part = 0.0;
        }
        if (active) {
            a.set(i * cols + col, acc);
        }
    }

    /**
     * One column, points in 3 dimensions: the reference problem's kernel. A staged source is the four consecutive
     * values {@code (y0, y1, y2, b)}, so a GPU reads each with one 16-byte (fp32) shared-memory load.
     */
    @Kernel
    public static void sum3(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @NoAlias DoubleArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            int cols, int col, int kind, double c) {
        double[] ys = ctx.allocateDoubleLocalArray(4 * MAX_TILE);
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int i = tiles.get(3 * g) + lid;
        boolean active = i < tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        double x0 = 0.0;
        double x1 = 0.0;
        double x2 = 0.0;
        if (active) {
            x0 = x.get(3 * i);
            x1 = x.get(3 * i + 1);
            x2 = x.get(3 * i + 2);
        }
        double acc = 0.0;
        double part = 0.0;
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
                        int stop = Math.min(len, q + PARTIAL - (t0 + q) % PARTIAL);
                        for (int p = q; p < stop; p++) {
                            double d0 = x0 - ys[4 * p];
                            double d1 = x1 - ys[4 * p + 1];
                            double d2 = x2 - ys[4 * p + 2];
                            double r2 = d0 * d0;
                            r2 += d1 * d1;
                            r2 += d2 * d2;
                            part += kernelOfSquared(kind, r2, c) * ys[4 * p + 3];
                        }
                        q = stop;
                        if ((t0 + q) % PARTIAL == 0) {
                            acc += part;
                            part = 0.0;
                        }
                    }
                }
                ctx.localBarrier();
            }
            acc += part;
            part = 0.0;
        }
        if (active) {
            a.set(i * cols + col, acc);
        }
    }

    /**
     * Any dimension up to {@link #MAX_DIM}, columns {@code [col0, col0 + ncols)} of b ({@code ncols <=}
     * {@link #MAX_COLS}): each kernel value is used for every column.
     */
    @Kernel
    public static void sumGeneral(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @NoAlias DoubleArray a, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets, @ReadOnly IntArray ranges,
            int dim, int cols, int col0, int ncols, int kind, double c) {
        double[] ys = ctx.allocateDoubleLocalArray(MAX_TILE * MAX_DIM);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_TILE * MAX_COLS);
        double[] xi = new double[MAX_DIM];
        double[] acc = new double[MAX_COLS];
        double[] part = new double[MAX_COLS];
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int i = tiles.get(3 * g) + lid;
        boolean active = i < tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        for (@Unroll int d = 0; d < MAX_DIM; d++) {
            if (active && d < dim) {
                xi[d] = x.get(i * dim + d);
            }
        }
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += w) {
                int j = t0 + lid;
                if (j < s1) {
                    for (int d = 0; d < dim; d++) {
                        ys[d * MAX_TILE + lid] = y.get(j * dim + d);
                    }
                    for (int k = 0; k < ncols; k++) {
                        bs[k * MAX_TILE + lid] = b.get(j * cols + col0 + k);
                    }
                }
                ctx.localBarrier();
                int len = Math.min(w, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + PARTIAL - (t0 + q) % PARTIAL);
                        for (int p = q; p < stop; p++) {
                            double r2 = 0.0;
                            for (@Unroll int d = 0; d < MAX_DIM; d++) {
                                if (d < dim) {
                                    double diff = xi[d] - ys[d * MAX_TILE + p];
                                    r2 += diff * diff;
                                }
                            }
                            double kv = kernelOfSquared(kind, r2, c);
                            for (@Unroll int k = 0; k < MAX_COLS; k++) {
                                if (k < ncols) {
                                    part[k] += kv * bs[k * MAX_TILE + p];
                                }
                            }
                        }
                        q = stop;
                        if ((t0 + q) % PARTIAL == 0) {
                            for (@Unroll int k = 0; k < MAX_COLS; k++) {
                                acc[k] += part[k];
                                part[k] = 0.0;
                            }
                        }
                    }
                }
                ctx.localBarrier();
            }
            for (@Unroll int k = 0; k < MAX_COLS; k++) {
                acc[k] += part[k];
                part[k] = 0.0;
            }
        }
        for (@Unroll int k = 0; k < MAX_COLS; k++) {
            if (active && k < ncols) {
                a.set(i * cols + col0 + k, acc[k]);
            }
        }
    }

    /**
     * The gradient of {@code sum_i w_i . (K b)_i} with respect to the targets: {@code grad[i * dim + d] =
     * sum_j 2 k'(r_ij^2) (w_i . b_j) (x_id - y_jd)}, over the tiles and ranges as the sums walk them ({@code cols <=}
     * {@link #MAX_COLS}).
     */
    @Kernel
    public static void gradient(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @ReadOnly DoubleArray b,
            @ReadOnly DoubleArray weights, @NoAlias DoubleArray grad, @ReadOnly IntArray tiles, @ReadOnly IntArray rangeOffsets,
            @ReadOnly IntArray ranges, int dim, int cols, int kind, double c) {
        double[] ys = ctx.allocateDoubleLocalArray(MAX_TILE * MAX_DIM);
        double[] bs = ctx.allocateDoubleLocalArray(MAX_TILE * MAX_COLS);
        double[] xi = new double[MAX_DIM];
        double[] wi = new double[MAX_COLS];
        double[] acc = new double[MAX_DIM];
        double[] part = new double[MAX_DIM];
        int lid = ctx.localIdx;
        int w = ctx.localGroupSizeX;
        int g = ctx.groupIdx;
        int i = tiles.get(3 * g) + lid;
        boolean active = i < tiles.get(3 * g + 1);
        int cluster = tiles.get(3 * g + 2);
        for (@Unroll int d = 0; d < MAX_DIM; d++) {
            if (active && d < dim) {
                xi[d] = x.get(i * dim + d);
            }
        }
        for (@Unroll int k = 0; k < MAX_COLS; k++) {
            if (active && k < cols) {
                wi[k] = weights.get(i * cols + k);
            }
        }
        int rEnd = rangeOffsets.get(cluster + 1);
        for (int r = rangeOffsets.get(cluster); r < rEnd; r++) {
            int s0 = ranges.get(2 * r);
            int s1 = ranges.get(2 * r + 1);
            for (int t0 = s0; t0 < s1; t0 += w) {
                int j = t0 + lid;
                if (j < s1) {
                    for (int d = 0; d < dim; d++) {
                        ys[d * MAX_TILE + lid] = y.get(j * dim + d);
                    }
                    for (int k = 0; k < cols; k++) {
                        bs[k * MAX_TILE + lid] = b.get(j * cols + k);
                    }
                }
                ctx.localBarrier();
                int len = Math.min(w, s1 - t0);
                if (active) {
                    int q = 0;
                    while (q < len) {
                        int stop = Math.min(len, q + PARTIAL - (t0 + q) % PARTIAL);
                        for (int p = q; p < stop; p++) {
                            double r2 = 0.0;
                            for (@Unroll int d = 0; d < MAX_DIM; d++) {
                                if (d < dim) {
                                    double diff = xi[d] - ys[d * MAX_TILE + p];
                                    r2 += diff * diff;
                                }
                            }
                            double wb = 0.0;
                            for (@Unroll int k = 0; k < MAX_COLS; k++) {
                                if (k < cols) {
                                    wb += wi[k] * bs[k * MAX_TILE + p];
                                }
                            }
                            double f = 2.0 * kernelDerivative(kind, r2, c) * wb;
                            for (@Unroll int d = 0; d < MAX_DIM; d++) {
                                if (d < dim) {
                                    part[d] += f * (xi[d] - ys[d * MAX_TILE + p]);
                                }
                            }
                        }
                        q = stop;
                        if ((t0 + q) % PARTIAL == 0) {
                            for (@Unroll int d = 0; d < MAX_DIM; d++) {
                                acc[d] += part[d];
                                part[d] = 0.0;
                            }
                        }
                    }
                }
                ctx.localBarrier();
            }
            for (@Unroll int d = 0; d < MAX_DIM; d++) {
                acc[d] += part[d];
                part[d] = 0.0;
            }
        }
        for (@Unroll int d = 0; d < MAX_DIM; d++) {
            if (active && d < dim) {
                grad.set(i * dim + d, acc[d]);
            }
        }
    }

    /**
     * Morton (Z-order) key of the grid cell of each point: cell {@code floor((x_d - lo_d) * invCell)} per coordinate,
     * clamped to {@code [0, 2^bits)}, bits interleaved ({@code dim * bits <= 62}). Sorting by key makes every cell's
     * points contiguous and puts nearby cells near each other, so kept source cells merge into long ranges.
     */
    @Kernel
    public static void mortonKeys(@ReadOnly DoubleArray x, @NoAlias LongArray keys, @ReadOnly DoubleArray lo, int n, int dim,
            double invCell, int bits) {
        for (@Parallel int i = 0; i < n; i++) {
            long key = 0L;
            long top = (1L << bits) - 1L;
            for (int d = 0; d < dim; d++) {
                double u = Math.floor((x.get(i * dim + d) - lo.get(d)) * invCell);
                long cell = 0L;
                if (u > 0.0) {
                    cell = u >= (double) top ? top : (long) u;
                }
                for (int bit = 0; bit < bits; bit++) {
                    key = key | (((cell >>> bit) & 1L) << (bit * dim + d));
                }
            }
            keys.set(i, key);
        }
    }

    /**
     * Centroid and radius of each cluster of sorted points (cluster {@code q} holds points
     * {@code [start[q], start[q+1])}); the radius is the largest centroid distance, enlarged by a relative 1e-12 so
     * that the rounding of its computation cannot make it too small. Empty clusters get centroid 0 and radius 0.
     */
    @Kernel
    public static void clusterGeometry(@ReadOnly DoubleArray x, @ReadOnly IntArray start, @NoAlias DoubleArray centroids,
            @NoAlias DoubleArray radii, int clusters, int dim) {
        for (@Parallel int q = 0; q < clusters; q++) {
            int p0 = start.get(q);
            int p1 = start.get(q + 1);
            double inv = p1 > p0 ? 1.0 / (p1 - p0) : 0.0;
            for (int d = 0; d < dim; d++) {
                double s = 0.0;
                for (int p = p0; p < p1; p++) {
                    s += x.get(p * dim + d);
                }
                centroids.set(q * dim + d, s * inv);
            }
            double far = 0.0;
            for (int p = p0; p < p1; p++) {
                double r2 = 0.0;
                for (int d = 0; d < dim; d++) {
                    double diff = x.get(p * dim + d) - centroids.get(q * dim + d);
                    r2 += diff * diff;
                }
                far = Math.max(far, r2);
            }
            radii.set(q, Math.sqrt(far) * (1.0 + 1e-12));
        }
    }

    /** {@code sums[q] = max over columns of sum_{j in cluster q} |b_jc|}: what a dropped cluster could contribute per unit kernel value. */
    @Kernel
    public static void clusterAbsSums(@ReadOnly DoubleArray b, @ReadOnly IntArray start, @NoAlias DoubleArray sums, int clusters,
            int cols) {
        for (@Parallel int q = 0; q < clusters; q++) {
            double best = 0.0;
            for (int k = 0; k < cols; k++) {
                double s = 0.0;
                for (int p = start.get(q); p < start.get(q + 1); p++) {
                    s += Math.abs(b.get(p * cols + k));
                }
                best = Math.max(best, s);
            }
            sums.set(q, best);
        }
    }

    /**
     * For each target cluster {@code t}: which source clusters to keep, merged into contiguous source ranges. A source
     * cluster is kept when {@code mask} says so ({@code maskMode == 1}: entry {@code t * sClusters + s};
     * {@code maskMode == 2}: entry {@code s * tClusters + t}) or else when the smallest possible distance between
     * the two clusters' balls, {@code dmin = max(0, |c_t - c_s| - r_t - r_s)}, is below {@code cutoff}. Empty source
     * clusters neither keep nor break a run. With {@code write == 0} the kernel counts: {@code rangeCounts[t]} ranges,
     * {@code keptPoints[t]} source points kept, and {@code bounds[t] = sum over dropped s of k(dmin) sumAbs[s]}, a
     * bound on what the dropped sources add to any target of {@code t} (the kernel does not increase with distance).
     * With {@code write == 1} it writes the ranges ({@code [start, end)} pairs) from {@code rangeOffsets[t]} on.
     * Only source clusters {@code [scan[2t], scan[2t+1])} are visited, and dropped clusters at {@code dmin >= farRadius}
     * add nothing to the bound: the caller bounds both kinds together.
     */
    @Kernel
    public static void clusterRanges(@ReadOnly DoubleArray tCentroids, @ReadOnly DoubleArray tRadii,
            @ReadOnly DoubleArray sCentroids, @ReadOnly DoubleArray sRadii, @ReadOnly IntArray sStart,
            @ReadOnly DoubleArray sAbsSums, @ReadOnly IntArray mask, int maskMode, double farRadius, int tClusters,
            int sClusters, int dim, double cutoff, int kind, double c, int write, @ReadOnly IntArray rangeOffsets,
            @NoAlias IntArray rangesOut, @NoAlias IntArray rangeCounts, @NoAlias LongArray keptPoints,
            @NoAlias DoubleArray bounds, @ReadOnly IntArray scan) {
        for (@Parallel int t = 0; t < tClusters; t++) {
            int runs = 0;
            long kept = 0L;
            double bound = 0.0;
            boolean inRun = false;
            int out = 0;
            if (write == 1) {
                out = rangeOffsets.get(t);
            }
            int sEnd = scan.get(2 * t + 1);
            for (int s = scan.get(2 * t); s < sEnd; s++) {
                int p0 = sStart.get(s);
                int p1 = sStart.get(s + 1);
                if (p1 > p0) {
                    double d2 = 0.0;
                    for (int d = 0; d < dim; d++) {
                        double diff = tCentroids.get(t * dim + d) - sCentroids.get(s * dim + d);
                        d2 += diff * diff;
                    }
                    double dmin = Math.max(0.0, Math.sqrt(d2) - tRadii.get(t) - sRadii.get(s));
                    boolean keep;
                    if (maskMode > 0) {
                        int at = maskMode == 2 ? s * tClusters + t : t * sClusters + s;
                        keep = mask.get(at) != 0;
                    } else {
                        keep = dmin < cutoff;
                    }
                    if (keep) {
                        if (!inRun) {
                            runs++;
                            inRun = true;
                            if (write == 1) {
                                rangesOut.set(2 * out, p0);
                            }
                        }
                        if (write == 1) {
                            rangesOut.set(2 * out + 1, p1);
                        }
                        kept += p1 - p0;
                    } else {
                        if (inRun && write == 1) {
                            out++;
                        }
                        inRun = false;
                        if (write == 0 && dmin < farRadius) {
                            bound += kernelOfSquared(kind, dmin * dmin, c) * sAbsSums.get(s);
                        }
                    }
                }
            }
            if (write == 0) {
                rangeCounts.set(t, runs);
                keptPoints.set(t, kept);
                bounds.set(t, bound);
            }
        }
    }

    /**
     * The kept source ranges of each target cluster {@code t} over a row-major grid clustering of the sources
     * ({@link GridClusterKernels}, {@link GridBlockSparseSum}). The source clusters visited are those of the cells of
     * the box {@code c_t +- (r_t + reach)}, row by row along dimension 0 (a row's non-empty cells are consecutive
     * clusters), in increasing cluster order; one is kept when {@code dmin = max(0, |c_t - c_s| - r_t - r_s)} is below
     * {@code cutoff}, and consecutive kept clusters merge into one range. With {@code write == 0} it counts:
     * {@code rangeCounts[t]} ranges, {@code keptPoints[t]} source points kept, {@code pairs[0] += |t| keptPoints[t]},
     * and {@code bounds[t] = farBound + sum over dropped visited s with dmin < farRadius of k(dmin) sumAbs[s]}; with
     * {@code write == 1} it writes the ranges from {@code rangeOffsets[t]} on. {@code real}: inverse cell, cutoff,
     * reach, farRadius, c, farBound, then {@code lo[d]}; {@code ints}: dim, kernel code, cell count, then
     * {@code cells[d]}. Clusters outside the box hold no point within {@code reach} of a target of {@code t}; the
     * caller's {@code farBound} covers them and the visited ones at {@code dmin >= farRadius}.
     */
    @Kernel
    public static void gridRanges(KernelContext ctx, @ReadOnly DoubleArray tCentroids, @ReadOnly DoubleArray tRadii,
            @ReadOnly IntArray tStart, @ReadOnly IntArray tClusterOfCell, @ReadOnly DoubleArray sCentroids,
            @ReadOnly DoubleArray sRadii, @ReadOnly IntArray sStart, @ReadOnly DoubleArray sAbsSums,
            @ReadOnly IntArray sClusterOfCell, @ReadOnly DoubleArray real, @ReadOnly IntArray ints, int write,
            @ReadOnly IntArray rangeOffsets, @NoAlias IntArray rangesOut, @NoAlias IntArray rangeCounts,
            @NoAlias LongArray keptPoints, @NoAlias DoubleArray bounds, LongArray pairs) {
        int t = ctx.globalIdx;
        int dim = ints.get(0);
        int cellCount = ints.get(2);
        if (t < tClusterOfCell.get(cellCount)) {
            int kind = ints.get(1);
            double invCell = real.get(0);
            double cutoff = real.get(1);
            double reach = real.get(2);
            double farRadius = real.get(3);
            double c = real.get(4);
            double rt = tRadii.get(t);
            int[] blo = new int[8];
            int[] bhi = new int[8];
            int[] stride = new int[8];
            int st = 1;
            int rows = 1;
            for (int d = 0; d < dim; d++) {
                int top = ints.get(3 + d) - 1;
                double cd = tCentroids.get(t * dim + d);
                double ulo = Math.floor((cd - rt - reach - real.get(6 + d)) * invCell);
                double uhi = Math.floor((cd + rt + reach - real.get(6 + d)) * invCell);
                int clo = ulo <= 0.0 ? 0 : (ulo >= (double) top ? top : (int) ulo);
                int chi = uhi <= 0.0 ? 0 : (uhi >= (double) top ? top : (int) uhi);
                blo[d] = clo;
                bhi[d] = chi;
                stride[d] = st;
                st *= top + 1;
                if (d > 0) {
                    rows *= chi - clo + 1;
                }
            }
            int runs = 0;
            long kept = 0L;
            double bound = 0.0;
            boolean inRun = false;
            int last = -2;
            int out = 0;
            if (write == 1) {
                out = rangeOffsets.get(t);
            }
            for (int r = 0; r < rows; r++) {
                int rem = r;
                int key = blo[0];
                for (int d = 1; d < dim; d++) {
                    int span = bhi[d] - blo[d] + 1;
                    key += (blo[d] + rem % span) * stride[d];
                    rem = rem / span;
                }
                int sEnd = sClusterOfCell.get(key + bhi[0] - blo[0] + 1);
                for (int s = sClusterOfCell.get(key); s < sEnd; s++) {
                    int p0 = sStart.get(s);
                    int p1 = sStart.get(s + 1);
                    double d2 = 0.0;
                    for (int d = 0; d < dim; d++) {
                        double diff = tCentroids.get(t * dim + d) - sCentroids.get(s * dim + d);
                        d2 += diff * diff;
                    }
                    double dmin = Math.max(0.0, Math.sqrt(d2) - rt - sRadii.get(s));
                    if (dmin < cutoff) {
                        if (!(inRun && s == last + 1)) {
                            if (inRun && write == 1) {
                                out++;
                            }
                            runs++;
                            if (write == 1) {
                                rangesOut.set(2 * out, p0);
                            }
                        }
                        if (write == 1) {
                            rangesOut.set(2 * out + 1, p1);
                        }
                        inRun = true;
                        last = s;
                        kept += p1 - p0;
                    } else {
                        if (inRun && write == 1) {
                            out++;
                        }
                        inRun = false;
                        if (write == 0 && dmin < farRadius) {
                            bound += kernelOfSquared(kind, dmin * dmin, c) * sAbsSums.get(s);
                        }
                    }
                }
            }
            if (write == 0) {
                rangeCounts.set(t, runs);
                keptPoints.set(t, kept);
                bounds.set(t, bound + real.get(5));
                ctx.atomicAdd(pairs, 0, (long) (tStart.get(t + 1) - tStart.get(t)) * kept);
            }
        }
    }

    /** {@code out[r * n + j] = |x_{row0 + r} - y_j|} for {@code r < rows}: distances for a user kernel's map. */
    @Kernel
    public static void pairDistances(@ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @NoAlias DoubleArray out, int row0, int rows,
            int n, int dim) {
        for (@Parallel int r = 0; r < rows; r++) {
            for (@Parallel int j = 0; j < n; j++) {
                double r2 = 0.0;
                for (int d = 0; d < dim; d++) {
                    double diff = x.get((row0 + r) * dim + d) - y.get(j * dim + d);
                    r2 += diff * diff;
                }
                out.set((long) r * n + j, Math.sqrt(r2));
            }
        }
    }

    /** {@code a[(row0 + r) * cols + k] = sum_j v[r * n + j] b[j * cols + k]}: the rows of kernel values times b. */
    @Kernel
    public static void rowProducts(@ReadOnly DoubleArray v, @ReadOnly DoubleArray b, @NoAlias DoubleArray a, int row0, int rows,
            int n, int cols) {
        for (@Parallel int r = 0; r < rows; r++) {
            for (@Parallel int k = 0; k < cols; k++) {
                double s = 0.0;
                for (int j = 0; j < n; j++) {
                    s += v.get((long) r * n + j) * b.get(j * cols + k);
                }
                a.set((row0 + r) * cols + k, s);
            }
        }
    }
}
