package dev.squall.linalg.cli;

/** Residuals of QR and SVD results computed with plain dense products (column-major). */
final class QrChecks {
    private QrChecks() {
    }

    /** {@code ||Q R - A||_F / ||A||_F} for {@code Q} m x k and {@code R} k x n. */
    static double reconstruction(int m, int n, double[] q, double[] r, double[] a) {
        int k = Math.min(m, n);
        double num = 0, den = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += q[i + p * m] * r[p + j * k];
                num += (s - a[i + j * m]) * (s - a[i + j * m]);
                den += a[i + j * m] * a[i + j * m];
            }
        }
        return Math.sqrt(num / den);
    }

    /** {@code ||Q^T Q - I||_F} for {@code Q} m x k. */
    static double orthogonality(int m, int k, double[] q) {
        double num = 0;
        for (int j = 0; j < k; j++) {
            for (int i = 0; i < k; i++) {
                double s = 0;
                for (int p = 0; p < m; p++) s += q[p + i * m] * q[p + j * m];
                double d = s - (i == j ? 1 : 0);
                num += d * d;
            }
        }
        return Math.sqrt(num);
    }

    /** {@code ||R^T R - A^T A||_F / ||A^T A||_F} for {@code R} k x n. */
    static double gram(int m, int n, double[] r, double[] a) {
        int k = Math.min(m, n);
        double num = 0, den = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double rr = 0, aa = 0;
                for (int p = 0; p < k; p++) rr += r[p + i * k] * r[p + j * k];
                for (int p = 0; p < m; p++) aa += a[p + i * m] * a[p + j * m];
                num += (rr - aa) * (rr - aa);
                den += aa * aa;
            }
        }
        return Math.sqrt(num / den);
    }

    /** {@code ||U diag(s) V^T - A||_F / ||A||_F} with {@code U} m x k, {@code V} n x k. */
    static double svdReconstruction(int m, int n, int k, double[] u, double[] s, double[] v, double[] a) {
        double num = 0, den = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                double x = 0;
                for (int p = 0; p < k; p++) x += u[i + p * m] * s[p] * v[j + p * n];
                num += (x - a[i + j * m]) * (x - a[i + j * m]);
                den += a[i + j * m] * a[i + j * m];
            }
        }
        return Math.sqrt(num / den);
    }
}
