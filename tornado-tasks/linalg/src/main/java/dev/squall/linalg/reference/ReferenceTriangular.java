package dev.squall.linalg.reference;

/**
 * Plain-Java lower-triangular inverse and solves (column-major, {@code n x n}), the reference
 * for the device triangular inverse and the Cholesky solves.
 *
 * <pre>{@code double[] inv = ReferenceTriangular.invertLower(n, l); }</pre>
 */
public final class ReferenceTriangular {
    private ReferenceTriangular() {
    }

    /** {@code L^-1} by forward substitution on each column of the identity; entries above L's diagonal are ignored. */
    public static double[] invertLower(int n, double[] l) {
        double[] x = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double s = i == j ? 1 : 0;
                for (int k = j; k < i; k++) s -= l[i + k * n] * x[k + j * n];
                x[i + j * n] = s / l[i + i * n];
            }
        }
        return x;
    }

    /** Solves {@code L y = b}. */
    public static double[] forward(int n, double[] l, double[] b) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = b[i];
            for (int k = 0; k < i; k++) s -= l[i + k * n] * y[k];
            y[i] = s / l[i + i * n];
        }
        return y;
    }

    /** Solves {@code L^T x = y}. */
    public static double[] backward(int n, double[] l, double[] y) {
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = y[i];
            for (int k = i + 1; k < n; k++) s -= l[k + i * n] * x[k];
            x[i] = s / l[i + i * n];
        }
        return x;
    }
}
