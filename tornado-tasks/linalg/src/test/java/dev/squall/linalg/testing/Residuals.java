package dev.squall.linalg.testing;

/** Independent residual checks: {@code ||L L^T - A|| / ||A||} and {@code ||L X - I|| / sqrt(n)} (Frobenius). */
public final class Residuals {
    private Residuals() {
    }

    /** Uses only the lower triangles of L (A is symmetric; both triangles compared). */
    public static double cholesky(int n, double[] l, double[] a) {
        double num = 0, den = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k <= Math.min(i, j); k++) s += l[i + k * n] * l[j + k * n];
                double d = s - a[i + j * n];
                num += d * d;
                den += a[i + j * n] * a[i + j * n];
            }
        }
        return Math.sqrt(num / den);
    }

    public static double inverse(int n, double[] l, double[] x) {
        double num = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += (k <= i ? l[i + k * n] : 0) * x[k + j * n];
                double d = s - (i == j ? 1 : 0);
                num += d * d;
            }
        }
        return Math.sqrt(num / n);
    }

    /** True when every entry above the diagonal is exactly zero. */
    public static boolean upperIsZero(int n, double[] m, int base) {
        for (int j = 0; j < n; j++) for (int i = 0; i < j; i++) if (m[base + i + j * n] != 0) return false;
        return true;
    }
}
