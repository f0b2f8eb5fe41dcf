package dev.squall.hmatrix.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.points.PointCloud;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GaussianKernelTest {

    @Test
    void twoPointClosedForm() {
        // |(0,0) - (3,4)|^2 = 25, l = 5: k = exp(-25 / 50) = exp(-1/2)
        PointCloud p = PointCloud.of(2, 0, 0, 3, 4);
        double[] k = new GaussianKernel(5).matrix(p);
        double e = Math.exp(-0.5);
        assertArrayEquals(new double[] {1, e, e, 1}, k, 1e-15);
        // its eigenvalues are 1 +- e, both positive
        assertEquals(1 - e * e, k[0] * k[3] - k[1] * k[2], 1e-15);
    }

    @Test
    void symmetricWithUnitDiagonal() {
        for (int d = 2; d <= 3; d++) {
            PointCloud p = PointCloud.uniform(120, d, 11L + d);
            GaussianKernel g = new GaussianKernel(0.3);
            double[] k = g.matrix(p);
            int n = p.size();
            for (int i = 0; i < n; i++) {
                assertEquals(1.0, k[i * n + i], 0.0);
                for (int j = 0; j < n; j++) {
                    assertEquals(k[i * n + j], k[j * n + i], 0.0);
                    assertTrue(k[i * n + j] > 0 && k[i * n + j] <= 1);
                }
            }
            // the general builder agrees with the symmetric one
            assertArrayEquals(k, g.matrix(p, p), 0.0);
        }
    }

    @Test
    void positiveDefiniteOnRandomVectors() {
        PointCloud p = PointCloud.uniform(80, 3, 3L);
        int n = p.size();
        double[] k = new GaussianKernel(0.2).matrix(p);
        Random rnd = new Random(17);
        for (int trial = 0; trial < 50; trial++) {
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = rnd.nextGaussian();
            }
            double q = 0;
            for (int i = 0; i < n; i++) {
                double row = 0;
                for (int j = 0; j < n; j++) {
                    row += k[i * n + j] * x[j];
                }
                q += x[i] * row;
            }
            assertTrue(q > 0, "x^T K x = " + q);
        }
    }

    @Test
    void rectangularMatrixMatchesPointwiseFormula() {
        PointCloud a = PointCloud.uniform(7, 2, 1L);
        PointCloud b = PointCloud.uniform(5, 2, 2L);
        GaussianKernel g = new GaussianKernel(0.5);
        double[] k = g.matrix(a, b);
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 5; j++) {
                double dx = a.coord(i, 0) - b.coord(j, 0);
                double dy = a.coord(i, 1) - b.coord(j, 1);
                assertEquals(Math.exp(-(dx * dx + dy * dy) / (2 * 0.25)), k[i * 5 + j], 1e-15);
            }
        }
    }

    @Test
    void rejectsBadLengthScale() {
        assertThrows(IllegalArgumentException.class, () -> new GaussianKernel(0));
        assertThrows(IllegalArgumentException.class, () -> new GaussianKernel(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new GaussianKernel(Double.POSITIVE_INFINITY));
    }
}
