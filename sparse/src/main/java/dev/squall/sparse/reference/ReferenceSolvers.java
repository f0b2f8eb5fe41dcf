package dev.squall.sparse.reference;

import dev.squall.sparse.format.CsrMatrix;

/**
 * Plain sequential references for the solvers: a Gauss-Seidel sweep over rows in a given order, ILU(0) in row order,
 * triangular solves, a dense LU solve with partial pivoting and the residual norm, all in double precision and written
 * for clarity, not speed.
 *
 * <pre>{@code
 * double[] x = new double[n];
 * ReferenceSolvers.gaussSeidel(a, b, x, order);          // one sweep, rows in the order given
 * double[] y = ReferenceSolvers.denseSolve(a, b);
 * }</pre>
 */
public final class ReferenceSolvers {
    private ReferenceSolvers() {
    }

    /** One Gauss-Seidel sweep in place: for each row {@code i} of {@code order} in turn, {@code x_i = (b_i - sum_{j != i} a_ij x_j) / a_ii}. */
    public static void gaussSeidel(CsrMatrix a, double[] b, double[] x, int[] order) {
        for (int i : order) {
            double s = b[i];
            double d = 0;
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int j = a.colIndex(k);
                if (j == i) d = a.value(k);
                else s -= a.value(k) * x[j];
            }
            x[i] = s / d;
        }
    }

    /** The rows 0..n-1 in order. */
    public static int[] natural(int n) {
        int[] o = new int[n];
        for (int i = 0; i < n; i++) o[i] = i;
        return o;
    }

    /** The rows n-1..0. */
    public static int[] reversed(int n) {
        int[] o = new int[n];
        for (int i = 0; i < n; i++) o[i] = n - 1 - i;
        return o;
    }

    /**
     * ILU(0) factors of {@code a} in its entry order: for each row, each entry left of the diagonal in column order
     * becomes {@code l_ik = a_ik / u_kk} and {@code a_ij -= l_ik u_kj} for the columns {@code j > k} stored in row i.
     */
    public static double[] ilu0(CsrMatrix a) {
        int n = a.rows();
        double[] lu = a.values();
        int[] diag = new int[n];
        for (int i = 0; i < n; i++) {
            diag[i] = -1;
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) if (a.colIndex(k) == i) diag[i] = k;
        }
        for (int i = 0; i < n; i++) {
            for (int p = a.rowStart(i); p < a.rowStart(i + 1) && a.colIndex(p) < i; p++) {
                int k = a.colIndex(p);
                lu[p] /= lu[diag[k]];
                for (int q = p + 1; q < a.rowStart(i + 1); q++) {
                    int j = a.colIndex(q);
                    for (int t = diag[k] + 1; t < a.rowStart(k + 1); t++) {
                        if (a.colIndex(t) == j) lu[q] -= lu[p] * lu[t];
                    }
                }
            }
        }
        return lu;
    }

    /**
     * Solves {@code T x = b} for the triangle of {@code a}'s pattern with values {@code val}: {@code lower} takes the
     * entries left of the diagonal and a unit diagonal when {@code unit}; upper takes the diagonal and those right of it.
     */
    public static double[] triangularSolve(CsrMatrix a, double[] val, double[] b, boolean lower, boolean unit) {
        int n = a.rows();
        double[] x = new double[n];
        for (int t = 0; t < n; t++) {
            int i = lower ? t : n - 1 - t;
            double s = b[i];
            double d = 1;
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int j = a.colIndex(k);
                if (j == i) d = val[k];
                else if (lower ? j < i : j > i) s -= val[k] * x[j];
            }
            x[i] = unit ? s : s / d;
        }
        return x;
    }

    /** Dense solve of {@code m x = b} ({@code m} row-major n x n) by LU with partial pivoting. */
    public static double[] denseSolve(double[] m, double[] b) {
        int n = b.length;
        double[] a = m.clone();
        double[] x = b.clone();
        for (int c = 0; c < n; c++) {
            int piv = c;
            for (int r = c + 1; r < n; r++) if (Math.abs(a[r * n + c]) > Math.abs(a[piv * n + c])) piv = r;
            if (a[piv * n + c] == 0) throw new ArithmeticException("singular matrix at column " + c);
            if (piv != c) {
                for (int k = 0; k < n; k++) {
                    double t = a[c * n + k];
                    a[c * n + k] = a[piv * n + k];
                    a[piv * n + k] = t;
                }
                double t = x[c];
                x[c] = x[piv];
                x[piv] = t;
            }
            for (int r = c + 1; r < n; r++) {
                double f = a[r * n + c] / a[c * n + c];
                if (f == 0) continue;
                for (int k = c; k < n; k++) a[r * n + k] -= f * a[c * n + k];
                x[r] -= f * x[c];
            }
        }
        for (int r = n - 1; r >= 0; r--) {
            double s = x[r];
            for (int k = r + 1; k < n; k++) s -= a[r * n + k] * x[k];
            x[r] = s / a[r * n + r];
        }
        return x;
    }

    /** {@code ||b - A x||_2}. */
    public static double residualNorm(CsrMatrix a, double[] b, double[] x) {
        double[] ax = ReferenceSpmv.multiply(a, x);
        double s = 0;
        for (int i = 0; i < b.length; i++) s += (b[i] - ax[i]) * (b[i] - ax[i]);
        return Math.sqrt(s);
    }

    /** {@code ||v||_2}. */
    public static double norm(double[] v) {
        double s = 0;
        for (double d : v) s += d * d;
        return Math.sqrt(s);
    }
}
