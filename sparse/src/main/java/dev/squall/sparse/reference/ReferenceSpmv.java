package dev.squall.sparse.reference;

import dev.squall.sparse.format.CsrMatrix;

/**
 * Sequential sparse matrix-vector product on a {@link CsrMatrix}: the reference that
 * Squall's SpMV kernels are checked against.
 *
 * <pre>{@code
 * double[] y = ReferenceSpmv.multiply(a, x);          // y = A x
 * ReferenceSpmv.multiply(2.0, a, x, 1.0, y);          // y = 2 A x + y
 * }</pre>
 */
public final class ReferenceSpmv {
    private ReferenceSpmv() {
    }

    /** Returns {@code A x}. */
    public static double[] multiply(CsrMatrix a, double[] x) {
        double[] y = new double[a.rows()];
        multiply(1.0, a, x, 0.0, y);
        return y;
    }

    /**
     * Computes {@code y = alpha A x + beta y} in place. With {@code beta == 0}, {@code y} is
     * overwritten without being read (NaNs in it do not propagate).
     *
     * @throws IllegalArgumentException if {@code x} or {@code y} does not fit {@code A}
     */
    public static void multiply(double alpha, CsrMatrix a, double[] x, double beta, double[] y) {
        if (x.length != a.cols() || y.length != a.rows()) {
            throw new IllegalArgumentException("A is " + a.rows() + " x " + a.cols()
                    + " but x has " + x.length + " and y " + y.length + " entries");
        }
        for (int i = 0; i < a.rows(); i++) {
            double s = 0;
            for (int k = a.rowStart(i), end = a.rowStart(i + 1); k < end; k++) {
                s += a.value(k) * x[a.colIndex(k)];
            }
            y[i] = beta == 0 ? alpha * s : alpha * s + beta * y[i];
        }
    }
}
