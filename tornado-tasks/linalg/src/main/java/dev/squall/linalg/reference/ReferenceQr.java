package dev.squall.linalg.reference;

/**
 * Plain-Java Householder QR (column-major), the reference for the batched device QR and the
 * source of random orthogonal matrices in tests. Algorithm 5.2.1 of Golub and Van Loan,
 * Matrix Computations (4th ed.), with an explicit thin Q.
 *
 * <pre>{@code
 * ReferenceQr qr = ReferenceQr.factor(m, n, a);
 * double[] q = qr.q();   // m x min(m, n)
 * double[] r = qr.r();   // min(m, n) x n, upper trapezoidal
 * }</pre>
 */
public final class ReferenceQr {
    private final int m, n, k;
    private final double[] q, r;

    private ReferenceQr(int m, int n, double[] q, double[] r) {
        this.m = m;
        this.n = n;
        this.k = Math.min(m, n);
        this.q = q;
        this.r = r;
    }

    /** Factors the {@code m x n} column-major {@code a} (not modified). */
    public static ReferenceQr factor(int m, int n, double[] a) {
        if (a.length != m * n) throw new IllegalArgumentException("a has " + a.length + " elements, expected " + m + " x " + n);
        int k = Math.min(m, n);
        double[] w = a.clone();
        double[][] vs = new double[k][];
        double[] taus = new double[k];
        for (int j = 0; j < k; j++) {
            double norm = 0;
            for (int i = j; i < m; i++) norm += w[i + j * m] * w[i + j * m];
            norm = Math.sqrt(norm);
            double[] v = new double[m];
            if (norm == 0) {
                vs[j] = v;
                continue;
            }
            double beta = w[j + j * m] >= 0 ? -norm : norm;
            for (int i = j; i < m; i++) v[i] = w[i + j * m];
            v[j] -= beta;
            double vv = 0;
            for (int i = j; i < m; i++) vv += v[i] * v[i];
            taus[j] = vv == 0 ? 0 : 2 / vv;
            vs[j] = v;
            for (int c = j; c < n; c++) {
                double d = 0;
                for (int i = j; i < m; i++) d += v[i] * w[i + c * m];
                d *= taus[j];
                for (int i = j; i < m; i++) w[i + c * m] -= d * v[i];
            }
        }
        double[] r = new double[k * n];
        for (int c = 0; c < n; c++) for (int i = 0; i <= Math.min(c, k - 1); i++) r[i + c * k] = w[i + c * m];
        double[] q = new double[m * k];
        for (int j = 0; j < k; j++) q[j + j * m] = 1;
        for (int j = k - 1; j >= 0; j--) {
            double[] v = vs[j];
            for (int c = 0; c < k; c++) {
                double d = 0;
                for (int i = j; i < m; i++) d += v[i] * q[i + c * m];
                d *= taus[j];
                for (int i = j; i < m; i++) q[i + c * m] -= d * v[i];
            }
        }
        return new ReferenceQr(m, n, q, r);
    }

    /** Thin Q, {@code m x min(m, n)}, column-major. */
    public double[] q() {
        return q.clone();
    }

    /** R, {@code min(m, n) x n}, column-major, zeros below the diagonal. */
    public double[] r() {
        return r.clone();
    }

    public int rows() {
        return m;
    }

    public int columns() {
        return n;
    }

    public int rank() {
        return k;
    }
}
