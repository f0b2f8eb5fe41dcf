package dev.squall.hmatrix.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SmallMatricesTest {
    @Test
    void qrReconstructsWithOrthonormalQ() {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int[] mn : new int[][] {{9, 5}, {5, 9}, {7, 7}, {1, 4}}) {
            int m = mn[0], n = mn[1], r = Math.min(m, n);
            double[] a = rnd.doubles(m * n, -1, 1).toArray();
            double[][] qr = SmallMatrices.qr(a, m, n);
            double[] back = SmallMatrices.multiply(qr[0], qr[1], m, r, n);
            for (int i = 0; i < a.length; i++) assertEquals(a[i], back[i], 1e-14);
            double[] qtq = SmallMatrices.transposedMultiply(qr[0], qr[0], m, r, r);
            for (int i = 0; i < r; i++) for (int j = 0; j < r; j++) assertEquals(i == j ? 1 : 0, qtq[i * r + j], 1e-14);
            for (int i = 0; i < r; i++) for (int j = 0; j < i; j++) assertEquals(0, qr[1][i * n + j], 0.0, "R is upper triangular");
        }
    }

    /** A matrix with known singular values 10^0 .. 10^-9: Jacobi finds them to high relative accuracy. */
    @Test
    void svdFindsGradedSingularValues() {
        int m = 12, n = 10;
        double[][] qa = SmallMatrices.qr(new SplittableRandom(2).doubles(m * n, -1, 1).toArray(), m, n);
        double[][] qb = SmallMatrices.qr(new SplittableRandom(3).doubles(n * n, -1, 1).toArray(), n, n);
        double[] sd = new double[n * n];
        for (int i = 0; i < n; i++) sd[i * n + i] = Math.pow(10, -i);
        double[] a = SmallMatrices.multiplyTransposed(SmallMatrices.multiply(qa[0], sd, m, n, n), qb[0], m, n, n);
        double[][] svd = SmallMatrices.svdLeft(a, m, n);
        for (int i = 0; i < n; i++) assertEquals(Math.pow(10, -i), svd[0][i], 1e-6 * Math.pow(10, -i), "sigma " + i);
        // left vectors: |<u_i, qa_i>| = 1
        for (int i = 0; i < n; i++) {
            double d = 0;
            for (int p = 0; p < m; p++) d += svd[1][p * n + i] * qa[0][p * n + i];
            assertTrue(Math.abs(Math.abs(d) - 1) < 1e-6, "vector " + i + ": " + d);
        }
    }
}
