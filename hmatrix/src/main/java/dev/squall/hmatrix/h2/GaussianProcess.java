package dev.squall.hmatrix.h2;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.linalg.cholesky.CholeskyFactor;
import dev.squall.linalg.cholesky.CholeskyRun;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

/**
 * Gaussian-process regression with a covariance matrix {@code C = K + sigma^2 I} ({@code K} a covariance kernel over
 * the observation sites, {@code sigma^2} the nugget, the variance of the observation noise): the weights
 * {@code alpha = C^-1 y} by conjugate gradients whose products are those of an {@link H2Matrix} of {@code K} (each
 * iteration is one {@code O(n)} H2 product plus the nugget), and, for small {@code n}, the exact solve and the
 * log-likelihood {@code log N(y | 0, C)} through the dense Cholesky factor of {@code tornado-tasks/linalg}, the check
 * of the H2 solve. The posterior mean at the sites is {@code K alpha}.
 *
 * <pre>{@code
 * PointCloud sites = PointCloud.uniform(100_000, 2, 1L);
 * try (H2Matrix k = H2Matrix.build(sites, CovarianceKernel.matern32(0.1), H2Options.defaults())) {
 *     GaussianProcess.Solve s = GaussianProcess.solve(k, 1e-2, y, 1e-8, 1000);   // (K + 0.01 I) alpha = y
 *     double[] mean = k.multiply(s.x());
 * }
 * }</pre>
 */
public final class GaussianProcess {
    private GaussianProcess() {
    }

    /** A CG solution: {@code x}, the iterations taken, and the final relative residual {@code |b - C x| / |b|}. */
    public record Solve(double[] x, int iterations, double relativeResidual, boolean converged) {
    }

    /**
     * Solves {@code (A + nugget I) x = b} by conjugate gradients, {@code A} symmetric positive semi-definite (a
     * covariance H2 matrix over one point set), until the relative residual is below {@code tol} or after
     * {@code maxIterations}.
     *
     * @throws IllegalArgumentException for a rectangular matrix, a negative nugget, a wrong length of {@code b}, or
     *                                  {@code tol} not in (0, 1)
     */
    public static Solve solve(H2Matrix a, double nugget, double[] b, double tol, int maxIterations) {
        if (a.rows() != a.cols()) throw new IllegalArgumentException("a Gaussian-process covariance is square; this H2 matrix is " + a.rows() + " x " + a.cols());
        if (!(nugget >= 0) || Double.isInfinite(nugget)) throw new IllegalArgumentException("nugget must be finite and non-negative, not " + nugget);
        if (b.length != a.rows()) throw new IllegalArgumentException("b has " + b.length + " values; the covariance has " + a.rows() + " rows");
        if (!(tol > 0 && tol < 1)) throw new IllegalArgumentException("tolerance must be in (0, 1), not " + tol);
        if (maxIterations < 1) throw new IllegalArgumentException("at least one iteration, not " + maxIterations);
        int n = b.length;
        double[] x = new double[n], r = b.clone(), p = b.clone();
        double bb = dot(b, b);
        if (bb == 0) return new Solve(x, 0, 0, true);
        double rr = bb;
        int it = 0;
        while (it < maxIterations && Math.sqrt(rr / bb) > tol) {
            double[] q = a.multiply(p);
            for (int i = 0; i < n; i++) q[i] += nugget * p[i];
            double alpha = rr / dot(p, q);
            for (int i = 0; i < n; i++) {
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            double rr1 = dot(r, r);
            double beta = rr1 / rr;
            for (int i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
            rr = rr1;
            it++;
        }
        // the true residual, not the recurrence's
        double[] cx = a.multiply(x);
        double res = 0;
        for (int i = 0; i < n; i++) {
            double d = b[i] - cx[i] - nugget * x[i];
            res += d * d;
        }
        double rel = Math.sqrt(res / bb);
        return new Solve(x, it, rel, Math.sqrt(rr / bb) <= tol);
    }

    /**
     * The dense covariance {@code K + nugget I} over {@code sites}, column-major {@code n x n}, factored by the
     * linalg Cholesky on {@code device}.
     *
     * @throws dev.squall.linalg.reference.NotPositiveDefiniteException when the matrix is not numerically positive
     *                                                                  definite (a nugget too small for duplicates)
     */
    public static CholeskyFactor denseFactor(PointCloud sites, CovarianceKernel kernel, double nugget, Device device) {
        int n = sites.size();
        DoubleArray c = new DoubleArray(Math.multiplyExact(n, n));
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) c.set((long) j * n + i, kernel.evaluate(sites, i, sites, j) + (i == j ? nugget : 0));
        }
        try (CholeskyRun run = new CholeskyRun(device, c, n)) {
            run.execute();
            return run.factor();
        }
    }

    /** {@code (K + nugget I)^-1 y} through the dense Cholesky factor. */
    public static double[] denseSolve(CholeskyFactor f, double[] y, Device device) {
        return Precision.toDoubles(f.solve(device, DoubleArray.fromArray(y), 1));
    }

    /** {@code log N(y | 0, K + nugget I)} through the dense Cholesky factor. */
    public static double logLikelihood(CholeskyFactor f, double[] y, Device device) {
        return f.gaussianLogLikelihood(device, DoubleArray.fromArray(y));
    }

    /**
     * {@code log N(y | 0, C) = -(y^T alpha + log det C + n log 2 pi) / 2} given {@code alpha = C^-1 y} (from
     * {@link #solve}) and {@code log det C} (from a factor, or an estimate): the data-fit term through the H2 solve.
     */
    public static double logLikelihood(double[] y, double[] alpha, double logDeterminant) {
        return -0.5 * (dot(y, alpha) + logDeterminant + y.length * Math.log(2 * Math.PI));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }
}
