package dev.squall.bench.suite;

import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PairKernel;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * What the dense and block-sparse kernel sums share: a Gaussian kernel over {@code n} uniform target and {@code n}
 * source points drawn apart in {@code dim} dimensions, fp32, compute-bound; a sample is the device time of one
 * execution; the counted flops of a pair; and the check of a result against the exact fp64 sums on sampled rows, with
 * the tolerance {@code squall ksum --verify} applies row by row (the dropped-term bound plus 4 u sqrt(N) sum |k b|),
 * taken as a whole: the largest error over the largest exact value.
 */
abstract sealed class KernelSumWorkload extends Workload permits KernelSumDense, KernelSumBlockSparse {
    private final int n;
    private final int dim;
    private final double length;

    /** {@code n} points a side in {@code dim} dimensions, Gaussian kernel of {@code length}. */
    KernelSumWorkload(String name, String title, int n, int dim, double length) {
        super(name, title, "points", "fp32", Bound.COMPUTE);
        this.n = n;
        this.dim = dim;
        this.length = length;
    }

    /** Sets up the sum over {@code x} and {@code y} (clusterings, ranges); the function computes it for one {@code b}. */
    abstract Function<double[], KernelSum.Result> prepare(KernelSum engine, PointSet x, PointSet y, Device device);

    @Override
    public String size() {
        return String.format(Locale.ROOT, "%dd n=%d", dim, n);
    }

    @Override
    public double scale() {
        return n;
    }

    @Override
    protected Run start(Device device) {
        PairKernel k = PairKernel.gaussian(length);
        PointSet x = PointSet.uniform(n, dim, 1), y = PointSet.uniform(n, dim, 2);
        double[] b = new SplittableRandom(3).doubles(n, 0, 1).toArray();
        KernelSum engine = new KernelSum(k, Precision.FP32, device);
        Function<double[], KernelSum.Result> sum = prepare(engine, x, y, device);
        return new Run() {
            KernelSum.Result r;

            @Override
            public double sample() {
                r = sum.apply(b);
                return r.profile().kernelMillis();
            }

            @Override
            public double work() {
                return r.pairs() * flopsPerPair(dim);
            }

            @Override
            public String note(double medianMs) {
                return KernelSumWorkload.note(r.pairs(), r.keptFraction(), medianMs);
            }

            @Override
            public Check check(ResultHook hook) {
                return KernelSumWorkload.check(name(), hook, r, k, Precision.FP32, x, y, b);
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * Flops of one pair in {@code dim} dimensions: a subtraction, a multiplication and an addition per coordinate for
     * the squared distance, the scaling, the exponential (counted as one) and the multiply-add into the sum.
     */
    static double flopsPerPair(int dim) {
        return 3.0 * dim + 3;
    }

    static String note(long pairs, double keptFraction, double medianMs) {
        String rate = String.format(Locale.ROOT, "%.3g pairs/s", pairs / (medianMs * 1e-3));
        return keptFraction < 1 ? rate + String.format(Locale.ROOT, ", %.1f%% of pairs kept", 100 * keptFraction) : rate;
    }

    /** The exact sums on 100 sampled rows against {@code r}'s values (after {@code hook}). */
    static Check check(String workload, ResultHook hook, KernelSum.Result r, PairKernel k, Precision p, PointSet x, PointSet y, double[] b) {
        double[] got = r.values().clone();
        hook.accept(workload, got);
        int[] rows = new SplittableRandom(3).ints(0, x.size()).distinct().limit(Math.min(100, x.size())).toArray();
        double err = 0, scale = 0, allowed = 0;
        for (int i : rows) {
            double exact = 0, abs = 0;
            for (int j = 0; j < y.size(); j++) {
                double v = k.evaluate(x.distance(i, y, j)) * b[j];
                exact += v;
                abs += Math.abs(v);
            }
            double e = Math.abs(got[i] - exact);
            err = Math.max(err, Double.isNaN(e) ? Double.POSITIVE_INFINITY : e);
            scale = Math.max(scale, Math.abs(exact));
            allowed = Math.max(allowed, r.rowBounds()[i] + 4 * p.epsilon() * Math.sqrt(y.size()) * abs);
        }
        return new Check(err / scale, allowed / scale, "exact fp64 sums on " + rows.length + " rows, max error / max value");
    }
}
