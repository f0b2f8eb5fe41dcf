package dev.squall.hmatrix.examples;

import dev.squall.hmatrix.h2.GaussianProcess;
import dev.squall.hmatrix.h2.H2CompressionReport;
import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.linalg.cholesky.CholeskyFactor;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import java.util.SplittableRandom;

/**
 * Gaussian-process regression with an H2 covariance: build the H2 matrix of a Matérn 3/2 kernel over random sites,
 * recompress it, solve {@code (K + sigma^2 I) alpha = y} by conjugate gradients and compare with the dense Cholesky
 * solve and log-likelihood (small n, so the dense check fits). Run with {@code -Dsquall.device=jvm} or any device id.
 */
public final class GaussianProcessExample {
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        Device device = Devices.select(null);
        PointCloud sites = PointCloud.uniform(n, 2, 1L);
        CovarianceKernel kernel = CovarianceKernel.matern32(0.1);
        double nugget = 1e-2;
        SplittableRandom rnd = new SplittableRandom(2L);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) y[i] = Math.sin(6 * sites.coord(i, 0)) * Math.cos(4 * sites.coord(i, 1)) + 0.1 * rnd.nextGaussian();
        try (H2Matrix k = H2Matrix.build(sites, kernel, H2Options.defaults().withDevice(device))) {
            H2CompressionReport c = k.compress(1e-8);
            System.out.printf("H2 covariance %s, memory %.1f -> %.1f MB%n", k, c.memoryBefore().total() / 1e6, c.memoryAfter().total() / 1e6);
            GaussianProcess.Solve s = GaussianProcess.solve(k, nugget, y, 1e-10, 5000);
            System.out.printf("CG: %d iterations, relative residual %.2e%n", s.iterations(), s.relativeResidual());
            CholeskyFactor f = GaussianProcess.denseFactor(sites, kernel, nugget, device);
            double[] exact = GaussianProcess.denseSolve(f, y, device);
            double num = 0, den = 0;
            for (int i = 0; i < n; i++) {
                num += (s.x()[i] - exact[i]) * (s.x()[i] - exact[i]);
                den += exact[i] * exact[i];
            }
            System.out.printf("weights vs dense Cholesky solve: relative difference %.2e%n", Math.sqrt(num / den));
            System.out.printf("log-likelihood: dense %.6f, H2 weights with the dense log det %.6f%n",
                    GaussianProcess.logLikelihood(f, y, device), GaussianProcess.logLikelihood(y, s.x(), f.logDeterminant()));
        }
    }
}
