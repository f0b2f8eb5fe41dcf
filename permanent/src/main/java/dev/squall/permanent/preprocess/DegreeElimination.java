package dev.squall.permanent.preprocess;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Removes rows and columns with at most two nonzeros by Laplace expansion before the Gray-code
 * phase (as SUPerman does):
 * <ul>
 * <li>one nonzero {@code a[i][j]}: {@code perm(A) = a[i][j] perm(A without row i, column j)};</li>
 * <li>two, {@code a[i][j]} and {@code a[i][k]}: {@code perm(A) = perm(A')}, where A' drops row i and
 * columns j, k and gains the column {@code a[i][k] A[:,j] + a[i][j] A[:,k]} — expansion along row i
 * and linearity of the permanent in one column;</li>
 * <li>columns likewise (the permanent of the transpose is the same);</li>
 * <li>an empty row or column: the permanent is 0.</li>
 * </ul>
 * Each step halves the Gray-code work; it repeats while some row or column qualifies.
 *
 * <pre>{@code
 * DegreeElimination.Result r = DegreeElimination.apply(a);   // perm(a) = r.factor() * perm(r.matrix())
 * }</pre>
 */
public final class DegreeElimination {
    /** {@code perm(original) = factor * perm(matrix)}; {@code eliminated} rows/columns removed. */
    public record Result(double factor, SquareMatrix matrix, int eliminated) {
    }

    private DegreeElimination() {
    }

    public static Result apply(SquareMatrix a) {
        double factor = 1;
        int eliminated = 0;
        double[][] m = toArrays(a);
        int n = a.n();
        while (n > 1) {
            boolean changed = false;
            // rows first, then columns (as rows of the transpose: the permanent does not change)
            for (int pass = 0; pass < 2 && !changed; pass++) {
                for (int i = 0; i < n && !changed; i++) {
                    int count = 0, j1 = -1, j2 = -1;
                    for (int j = 0; j < n && count <= 2; j++) {
                        if (m[i][j] != 0) {
                            if (count == 0) j1 = j; else j2 = j;
                            count++;
                        }
                    }
                    if (count == 0) return new Result(0, SquareMatrix.of(0, new double[0]), eliminated);
                    if (count > 2) continue;
                    if (count == 1) {
                        factor *= m[i][j1];
                        m = drop(m, n, i, j1, -1, null);
                    } else {
                        double[] merged = new double[n];
                        for (int r = 0; r < n; r++) merged[r] = m[i][j2] * m[r][j1] + m[i][j1] * m[r][j2];
                        m = drop(m, n, i, j1, j2, merged);
                    }
                    n--;
                    eliminated++;
                    changed = true;
                }
                if (!changed) m = transpose(m, n);
            }
            if (!changed) break;
        }
        if (n == 1) {
            factor *= m[0][0];
            eliminated++;
            n = 0;
        }
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) System.arraycopy(m[i], 0, v, i * n, n);
        return new Result(factor, SquareMatrix.of(n, v), eliminated);
    }

    /** Drops row i and column j1 (and j2 if >= 0, replaced by {@code merged} rows except i). */
    private static double[][] drop(double[][] m, int n, int i, int j1, int j2, double[] merged) {
        double[][] out = new double[n - 1][n - 1];
        for (int r = 0, rr = 0; r < n; r++) {
            if (r == i) continue;
            int cc = 0;
            for (int c = 0; c < n; c++) {
                if (c == j1 || c == j2) continue;
                out[rr][cc++] = m[r][c];
            }
            if (j2 >= 0) out[rr][cc] = merged[r];
            rr++;
        }
        return out;
    }

    private static double[][] transpose(double[][] m, int n) {
        double[][] t = new double[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) t[j][i] = m[i][j];
        return t;
    }

    private static double[][] toArrays(SquareMatrix a) {
        double[][] m = new double[a.n()][a.n()];
        for (int i = 0; i < a.n(); i++) for (int j = 0; j < a.n(); j++) m[i][j] = a.get(i, j);
        return m;
    }
}
