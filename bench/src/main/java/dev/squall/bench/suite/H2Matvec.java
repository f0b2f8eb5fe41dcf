package dev.squall.bench.suite;

import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Memory;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.runtime.Device;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code y = A x} with the H2 matrix of an exponential covariance kernel over a perturbed 2-D grid
 * ({@link H2Matrix}, leaf 64, eta 1). The time is the host's wall time of one product (x in, y out); the bytes are
 * the H2 literature's (dense blocks, couplings, leaf bases, transfers), so the rate is memory-bound. Verified against
 * the exact kernel sums ({@link CovarianceKernel#evaluate}) on 100 sampled rows: the relative 2-norm error is the H2
 * approximation's, and must stay under the order's tolerance.
 */
public final class H2Matvec extends Workload {
    private static final CovarianceKernel KERNEL = CovarianceKernel.exponential(0.1);
    private final int n;
    private final int order;
    private final double tolerance;

    /** {@code n} points, Chebyshev {@code order} per dimension, {@code tolerance} on the sampled relative error. */
    public H2Matvec(int n, int order, double tolerance) {
        super("h2", "H2 matvec, " + KERNEL, "points", "fp64", Bound.MEMORY);
        this.n = n;
        this.order = order;
        this.tolerance = tolerance;
    }

    @Override
    public String size() {
        return String.format(Locale.ROOT, "2d n=%d p=%d", n, order);
    }

    @Override
    public double scale() {
        return n;
    }

    @Override
    protected Run start(Device device) {
        PointCloud pts = PointCloud.perturbedGrid(n, 2, 1);
        H2Matrix a = H2Matrix.build(pts, KERNEL, new H2Options(64, order, 1.0, device));
        double[] x = new SplittableRandom(2).doubles(a.cols(), -1, 1).toArray();
        return new Run() {
            double[] y;

            @Override
            public double sample() {
                long t0 = System.nanoTime();
                y = a.multiply(x);
                return (System.nanoTime() - t0) / 1e6;
            }

            @Override
            public double work() {
                H2Memory m = a.memory();
                return m.streamedBytes();
            }

            @Override
            public String note(double medianMs) {
                return String.format(Locale.ROOT, "rank %d, %.1f MB", a.rank(), a.memory().total() / 1e6);
            }

            @Override
            public Check check(ResultHook hook) {
                hook.accept(name(), y);
                int[] rows = new SplittableRandom(3).ints(0, n).distinct().limit(Math.min(100, n)).toArray();
                double num = 0, den = 0;
                for (int i : rows) {
                    double exact = 0;
                    for (int j = 0; j < n; j++) exact += KERNEL.evaluate(pts, i, pts, j) * x[j];
                    double d = y[i] - exact;
                    num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
                    den += exact * exact;
                }
                return new Check(Math.sqrt(num / den), tolerance, "exact kernel sums on " + rows.length + " rows, relative 2-norm");
            }

            @Override
            public void close() {
                a.close();
            }
        };
    }
}
