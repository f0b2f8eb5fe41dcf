package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.linalg.cholesky.CholeskyFactor;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class GaussianProcessTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /**
     * CG with the H2 covariance plus a nugget solves to the dense Cholesky solve (to the H2 accuracy), for two kernels
     * and two nuggets; the log-likelihood from the CG weights and the factor's log det matches the Cholesky one, and the
     * factor's log det matches a plain-Java Cholesky.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void cgWithH2MatchesTheDenseCholeskySolve(Device device) {
        PointCloud sites = PointCloud.perturbedGrid(600, 2, 50L);
        double[] y = H2MatrixTest.random(sites.size(), 51L);
        for (CovarianceKernel k : new CovarianceKernel[] {CovarianceKernel.exponential(0.1), CovarianceKernel.matern52(0.15)}) {
            for (double nugget : new double[] {1e-1, 1e-3}) {
                CholeskyFactor f = GaussianProcess.denseFactor(sites, k, nugget, device);
                double[] exact = GaussianProcess.denseSolve(f, y, device);
                try (H2Matrix a = H2Matrix.build(sites, k, H2Options.defaults().withLeafSize(32).withDevice(device))) {
                    GaussianProcess.Solve s = GaussianProcess.solve(a, nugget, y, 1e-10, 2000);
                    assertTrue(s.converged() && s.relativeResidual() < 1e-8, k + ", nugget " + nugget + ": " + s.iterations() + " iterations, residual " + s.relativeResidual());
                    double err = H2MatrixTest.relativeError(s.x(), exact);
                    // the solve's error is the H2 error amplified by the condition number, about 1 / nugget
                    assertTrue(err < 1e-5 / nugget * 1e-1, k + ", nugget " + nugget + ": CG solution differs from Cholesky by " + err);
                    double llDense = GaussianProcess.logLikelihood(f, y, device);
                    double llH2 = GaussianProcess.logLikelihood(y, s.x(), f.logDeterminant());
                    // the data-fit terms differ by y^T (alpha - exact) <= |y| |exact| err
                    double bound = Math.sqrt(dot(y, y) * dot(exact, exact)) * err;
                    assertEquals(llDense, llH2, 0.5 * bound + 1e-9 * Math.abs(llDense), k + ", nugget " + nugget);
                }
                double[] c = new double[sites.size() * sites.size()];
                int n = sites.size();
                for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) c[j * n + i] = k.evaluate(sites, i, sites, j) + (i == j ? nugget : 0);
                double[] l = ReferenceCholesky.factor(n, c);
                double logDet = 0;
                for (int i = 0; i < n; i++) logDet += 2 * Math.log(l[i * n + i]);
                assertEquals(logDet, f.logDeterminant(), 1e-9 * Math.abs(logDet));
            }
        }
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }

    @Test
    void badArgumentsAreNamed() {
        PointCloud p = PointCloud.uniform(200, 2, 1L);
        try (H2Matrix a = H2Matrix.build(p, CovarianceKernel.exponential(0.1), H2Options.defaults().withDevice(Devices.jvm()));
                H2Matrix r = H2Matrix.build(p, PointCloud.uniform(100, 2, 2L), CovarianceKernel.exponential(0.1),
                        H2Options.defaults().withDevice(Devices.jvm()))) {
            double[] y = new double[200];
            assertTrue(assertThrows(IllegalArgumentException.class, () -> GaussianProcess.solve(r, 0.1, new double[200], 1e-8, 10))
                    .getMessage().contains("200 x 100"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> GaussianProcess.solve(a, -1, y, 1e-8, 10)).getMessage().contains("nugget"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> GaussianProcess.solve(a, 0.1, new double[5], 1e-8, 10)).getMessage().contains("200 rows"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> GaussianProcess.solve(a, 0.1, y, 0, 10)).getMessage().contains("tolerance"));
            assertEquals(0, GaussianProcess.solve(a, 0.1, y, 1e-8, 10).iterations(), "b = 0 needs no iteration");
        }
    }
}
