package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.Profile;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Objects;

/**
 * Dense kernel sums on a device: {@code a_i = sum_j k(x_i, y_j) b_j} for {@code M} targets {@code x} and {@code N}
 * sources {@code y} without storing the {@code M x N} matrix, the transposed product {@code b'_j = sum_i k(x_i, y_j)
 * a_i}, and the gradient of {@code sum_i a_i . (K b)_i} with respect to the targets. Right-hand sides hold
 * {@code cols} columns, row by row ({@code b[j * cols + c]}). Built-in kernels run in the tiled kernels of
 * {@link KernelSumKernelsF64} in the chosen precision; a user kernel runs in fp64 through its own mapping kernel.
 *
 * <pre>{@code
 * KernelSum ks = new KernelSum(PairKernel.parse("gauss:0.1"), Precision.FP32, Devices.select(null));
 * KernelSum.Result r = ks.apply(x, y, b, 1);     // r.values(): M values
 * }</pre>
 */
public final class KernelSum {
    /** Work-group width of dense products. */
    static final int DENSE_WIDTH = 256;
    /** Target rows per block of a user kernel's distance matrix: a block holds at most about 2^24 values. */
    private static final long USER_BLOCK_VALUES = 1L << 24;

    private final PairKernel kernel;
    private final Precision precision;
    private final Device device;
    private final boolean expand;

    /**
     * @throws IllegalArgumentException for a user kernel in fp32 (user kernels map fp64 distance arrays)
     */
    public KernelSum(PairKernel kernel, Precision precision, Device device) {
        this(kernel, precision, device, true);
    }

    private KernelSum(PairKernel kernel, Precision precision, Device device, boolean expand) {
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.precision = Objects.requireNonNull(precision, "precision");
        this.device = Objects.requireNonNull(device, "device");
        this.expand = expand;
        if (kernel.isUser() && precision != Precision.FP64) {
            throw new IllegalArgumentException("user kernel " + kernel + " runs in fp64 (its mapping kernel takes a DoubleArray); use --precision fp64");
        }
    }

    /**
     * This sum with the Gaussian's exponent expanded where accurate ({@code true}, the default: in 3 dimensions with
     * one column, {@code -|x - y|^2 = -|x - c|^2 - |y - c|^2 + 2 (x - c).(y - c)} about a centre {@code c} of the
     * targets, the targets' part taken out of the sum, while the scaled reach of the targets from {@code c} is small)
     * or always as {@code |x - y|^2} per pair ({@code false}).
     */
    public KernelSum withExpansion(boolean expandWhereAccurate) {
        return new KernelSum(kernel, precision, device, expandWhereAccurate);
    }

    /** Whether the Gaussian's exponent may be expanded ({@link #withExpansion}). */
    public boolean expands() {
        return expand;
    }

    public PairKernel kernel() {
        return kernel;
    }

    public Precision precision() {
        return precision;
    }

    public Device device() {
        return device;
    }

    /**
     * What a kernel sum returned.
     *
     * @param values      the result, row by row
     * @param profile     device time of the product's execution (kernels, transfers)
     * @param pairs       kernel evaluations done
     * @param keptFraction evaluated pairs over all {@code M N} pairs (1 for a dense product)
     * @param rowBounds   for each row, a bound on the absolute error the dropped pairs cause in any column (all 0 for
     *                    a dense product); rounding is not included
     * @param rangesMillis wall time of finding the kept ranges (0 for a dense product)
     * @param firstMillis wall time of the first execution of the kernels, with their build and the uploads
     */
    public record Result(double[] values, Profile profile, long pairs, double keptFraction, double[] rowBounds, double rangesMillis,
            double firstMillis) {
        /** The largest row bound. */
        public double maxBound() {
            double m = 0;
            for (double v : rowBounds) m = Math.max(m, v);
            return m;
        }
    }

    /** {@code a = K b}: {@code b} holds {@code N x cols} values, the result {@code M x cols}. */
    public Result apply(PointSet targets, PointSet sources, double[] b, int cols) {
        return apply(targets, sources, b, cols, 0);
    }

    /**
     * {@code a = K b}, executed once and then {@code repeat} more times on the resident data; the profile is that of
     * the repeat with the median kernel time (of the first execution when {@code repeat == 0}).
     */
    public Result apply(PointSet targets, PointSet sources, double[] b, int cols, int repeat) {
        check(targets, sources, b, cols, sources.size(), "b");
        if (repeat < 0) throw new IllegalArgumentException("repeat count must not be negative, got " + repeat);
        if (kernel.isUser()) return applyUser(targets, sources, b, cols);
        try (TiledReduction r = dense(targets, sources, b, cols)) {
            Profile first = r.run();
            Profile p = r.median(first, repeat);
            int m = targets.size();
            return new Result(r.result(m * cols), p, (long) m * sources.size(), 1.0, new double[m], 0, first.hostMicros() / 1e3);
        }
    }

    /** {@code b' = K^T a}: {@code a} holds {@code M x cols} values (one per target), the result {@code N x cols}. */
    public Result applyTransposed(PointSet targets, PointSet sources, double[] a, int cols) {
        return apply(sources, targets, a, cols);
    }

    /**
     * The gradient of {@code sum_i a_i . (K b)_i} with respect to the targets: {@code M x dim} values,
     * {@code sum_j 2 k'(|x_i - y_j|^2) (a_i . b_j) (x_i - y_j)} ({@code cols <= 8}).
     */
    public double[] gradient(PointSet targets, PointSet sources, double[] b, double[] a, int cols) {
        check(targets, sources, b, cols, sources.size(), "b");
        check(targets, sources, a, cols, targets.size(), "a");
        if (kernel.isUser()) throw new IllegalArgumentException("the gradient needs a built-in kernel; " + kernel + " is a user kernel");
        if (cols > KernelSumKernelsF64.MAX_COLS) {
            throw new IllegalArgumentException("the gradient takes at most " + KernelSumKernelsF64.MAX_COLS + " columns, got " + cols);
        }
        int m = targets.size(), dim = targets.dim();
        KernelArray grad = precision.allocate((long) m * dim);
        try (TiledReduction r = TiledReduction.gradient(device, precision, kernel, precision.fromDoubles(targets.coordinates()),
                precision.fromDoubles(sources.coordinates()), precision.fromDoubles(b), precision.fromDoubles(a), grad, dim, cols,
                TiledReduction.denseTiles(m, DENSE_WIDTH), IntArray.fromArray(0, 1), IntArray.fromArray(0, sources.size()), DENSE_WIDTH)) {
            r.run();
            return r.result(m * dim);
        }
    }

    /**
     * The dense product prepared on the device, to run (and time) repeatedly. Both clouds are moved by the midpoint of
     * their common bounding box before they are rounded to the precision (the kernels depend on differences only), so
     * clouds far from the origin keep their accuracy in fp32; that midpoint is the centre of the expanded Gaussian.
     */
    TiledReduction dense(PointSet targets, PointSet sources, double[] b, int cols) {
        int m = targets.size();
        double[] mid = targets.midpoint(sources);
        TiledReduction.Expansion e = null;
        if (expand) {
            e = new TiledReduction.Expansion(new double[targets.dim()], targets.reach(mid), sources.size() * maxAbs(b), true);
        }
        return TiledReduction.sums(device, precision, kernel, precision.fromDoubles(targets.shiftedCoordinates(mid)),
                precision.fromDoubles(sources.shiftedCoordinates(mid)), precision.fromDoubles(b), precision.allocate((long) m * cols),
                targets.dim(), cols, TiledReduction.denseTiles(m, DENSE_WIDTH), IntArray.fromArray(0, 1),
                IntArray.fromArray(0, sources.size()), DENSE_WIDTH, e);
    }

    static double maxAbs(double[] v) {
        double m = 0;
        for (double t : v) m = Math.max(m, Math.abs(t));
        return m;
    }

    /**
     * A user kernel: blocks of target rows at a time, the distances to every source are written on the device, mapped
     * through the user's kernel, and multiplied by {@code b}.
     */
    private Result applyUser(PointSet targets, PointSet sources, double[] b, int cols) {
        int m = targets.size(), n = sources.size(), dim = targets.dim();
        int rowsPerBlock = (int) Math.max(1, Math.min(m, USER_BLOCK_VALUES / n));
        DoubleArray x = new DoubleArray((long) m * dim), y = new DoubleArray((long) n * dim), bd = new DoubleArray((long) n * cols);
        Precision.write(x, targets.coordinates());
        Precision.write(y, sources.coordinates());
        Precision.write(bd, b);
        DoubleArray values = new DoubleArray((long) rowsPerBlock * n), a = new DoubleArray((long) m * cols);
        double kernelMs = 0, toDev = 0, toHost = 0, compile = 0, host = 0;
        for (int row0 = 0; row0 < m; row0 += rowsPerBlock) {
            int rows = Math.min(rowsPerBlock, m - row0);
            TaskGraph g = new TaskGraph("ksum-user").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, y, bd)
                    .task("distances", KernelSumKernelsF64::pairDistances, x, y, values, row0, rows, n, dim);
            kernel.covariance().addEvaluation(g, "kernel", values, (long) rows * n);
            g.task("products", KernelSumKernelsF64::rowProducts, values, bd, a, row0, rows, n, cols)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, a);
            try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true)) {
                Profile p = plan.execute().profile();
                kernelMs += p.kernelMillis();
                toDev += p.toDeviceMillis();
                toHost += p.toHostMillis();
                compile += p.compileMillis();
                host += p.hostMicros();
            }
        }
        double[] out = Precision.read(a, m * cols);
        device.free(x, y, bd, values, a);
        return new Result(out, new Profile(compile, toDev, kernelMs, toHost, host), (long) m * n, 1.0, new double[m], 0, host / 1e3);
    }

    static void check(PointSet targets, PointSet sources, double[] v, int cols, int rows, String name) {
        Objects.requireNonNull(targets, "targets");
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(v, name);
        if (targets.dim() != sources.dim()) {
            throw new IllegalArgumentException("targets are " + targets.dim() + "-dimensional, sources " + sources.dim() + "-dimensional");
        }
        if (cols < 1) throw new IllegalArgumentException("column count must be at least 1, got " + cols);
        if ((long) rows * cols != v.length) {
            throw new IllegalArgumentException(name + " holds " + v.length + " values; " + rows + " points x " + cols + " columns need "
                    + (long) rows * cols);
        }
        for (int k = 0; k < v.length; k++) {
            if (!Double.isFinite(v[k])) throw new IllegalArgumentException(name + "[" + k + "] is " + v[k] + ": values must be finite");
        }
    }
}
