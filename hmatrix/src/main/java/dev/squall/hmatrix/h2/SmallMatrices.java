package dev.squall.hmatrix.h2;

import java.util.Arrays;

/**
 * Dense operations on the small row-major matrices of H2 compression (at most a few hundred rows and columns):
 * products, Householder QR and the singular value decomposition by one-sided Jacobi rotations (Hestenes), which keeps
 * small singular values to high relative accuracy, as truncation at tight tolerances needs.
 */
final class SmallMatrices {
    private SmallMatrices() {
    }

    /** {@code a (m x k) times b (k x n)}. */
    static double[] multiply(double[] a, double[] b, int m, int k, int n) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int p = 0; p < k; p++) {
                double v = a[i * k + p];
                if (v == 0) continue;
                for (int j = 0; j < n; j++) c[i * n + j] += v * b[p * n + j];
            }
        }
        return c;
    }

    /** {@code a (m x k) times b^T} where {@code b} is {@code n x k}. */
    static double[] multiplyTransposed(double[] a, double[] b, int m, int k, int n) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += a[i * k + p] * b[j * k + p];
                c[i * n + j] = s;
            }
        }
        return c;
    }

    /** {@code a^T (k x m, a is m x k) times b (m x n)}. */
    static double[] transposedMultiply(double[] a, double[] b, int m, int k, int n) {
        double[] c = new double[k * n];
        for (int p = 0; p < m; p++) {
            for (int i = 0; i < k; i++) {
                double v = a[p * k + i];
                if (v == 0) continue;
                for (int j = 0; j < n; j++) c[i * n + j] += v * b[p * n + j];
            }
        }
        return c;
    }

    /** The transpose of {@code a (m x n)}. */
    static double[] transpose(double[] a, int m, int n) {
        double[] t = new double[n * m];
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) t[j * m + i] = a[i * n + j];
        return t;
    }

    /**
     * Householder QR of {@code a (m x n)}: {@code {Q (m x r), R (r x n)}} with {@code r = min(m, n)}, {@code Q}
     * with orthonormal columns and {@code a = Q R}.
     */
    static double[][] qr(double[] a, int m, int n) {
        int r = Math.min(m, n);
        double[] w = a.clone();
        double[][] v = new double[r][];
        for (int j = 0; j < r; j++) {
            double norm = 0;
            for (int i = j; i < m; i++) norm += w[i * n + j] * w[i * n + j];
            norm = Math.sqrt(norm);
            double[] h = new double[m - j];
            if (norm == 0) {
                v[j] = h; // zero column: no reflection
                continue;
            }
            double alpha = w[j * n + j] > 0 ? -norm : norm;
            for (int i = j; i < m; i++) h[i - j] = w[i * n + j];
            h[0] -= alpha;
            double hn = 0;
            for (double x : h) hn += x * x;
            if (hn == 0) {
                v[j] = new double[m - j];
                continue;
            }
            double inv = 1 / Math.sqrt(hn);
            for (int i = 0; i < h.length; i++) h[i] *= inv;
            v[j] = h;
            for (int c = j; c < n; c++) {
                double s = 0;
                for (int i = j; i < m; i++) s += h[i - j] * w[i * n + c];
                for (int i = j; i < m; i++) w[i * n + c] -= 2 * s * h[i - j];
            }
        }
        double[] rr = new double[r * n];
        for (int i = 0; i < r; i++) for (int c = i; c < n; c++) rr[i * n + c] = w[i * n + c];
        double[] q = new double[m * r];
        for (int i = 0; i < r; i++) q[i * r + i] = 1;
        for (int j = r - 1; j >= 0; j--) {
            double[] h = v[j];
            for (int c = 0; c < r; c++) {
                double s = 0;
                for (int i = j; i < m; i++) s += h[i - j] * q[i * r + c];
                if (s == 0) continue;
                for (int i = j; i < m; i++) q[i * r + c] -= 2 * s * h[i - j];
            }
        }
        return new double[][] {q, rr};
    }

    /**
     * Singular values (descending) and left singular vectors of {@code a (m x n)}: {@code {sigma (n values), U (m x n)
     * with column j the j-th left singular vector, or zero where sigma_j = 0}}.
     */
    static double[][] svdLeft(double[] a, int m, int n) {
        double[] w = a.clone();
        for (int sweep = 0; sweep < 60; sweep++) {
            boolean rotated = false;
            for (int i = 0; i < n - 1; i++) {
                for (int j = i + 1; j < n; j++) {
                    double al = 0, be = 0, ga = 0;
                    for (int p = 0; p < m; p++) {
                        double x = w[p * n + i], y = w[p * n + j];
                        al += x * x;
                        be += y * y;
                        ga += x * y;
                    }
                    if (ga == 0 || Math.abs(ga) <= 1e-15 * Math.sqrt(al * be)) continue;
                    rotated = true;
                    double zeta = (be - al) / (2 * ga);
                    double t = Math.signum(zeta) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
                    if (zeta == 0) t = 1;
                    double c = 1 / Math.sqrt(1 + t * t), s = c * t;
                    for (int p = 0; p < m; p++) {
                        double x = w[p * n + i], y = w[p * n + j];
                        w[p * n + i] = c * x - s * y;
                        w[p * n + j] = s * x + c * y;
                    }
                }
            }
            if (!rotated) break;
        }
        double[] sigma = new double[n];
        Integer[] order = new Integer[n];
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < m; p++) s += w[p * n + j] * w[p * n + j];
            sigma[j] = Math.sqrt(s);
            order[j] = j;
        }
        Arrays.sort(order, (x, y) -> Double.compare(sigma[y], sigma[x]));
        double[] sv = new double[n];
        double[] u = new double[m * n];
        for (int k = 0; k < n; k++) {
            int j = order[k];
            sv[k] = sigma[j];
            if (sigma[j] > 0) for (int p = 0; p < m; p++) u[p * n + k] = w[p * n + j] / sigma[j];
        }
        return new double[][] {sv, u};
    }
}
