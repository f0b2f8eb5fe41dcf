package dev.squall.permanent.numeric;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Power-of-two matrix balancing for Ryser's formula: alternately scales every column and every row
 * by a power of two so that its 1-norm lies in [1, 2) (Sinkhorn's iteration with exponents rounded
 * down), ending with the rows, so {@link RowScaling}'s overflow guarantee holds (each Gray-code term
 * is at most 1 in magnitude). Powers of two are exact: {@code perm(A) = 2^E perm(D1 A D2)}.
 * <p>
 * Why: Ryser's alternating sum is accurate to about {@code u sqrt(sum_g t_g^2)}, and the terms
 * {@code t_g = prod_i x_i} are bounded by the row norms, while the permanent depends on which entries
 * the perfect matchings use. Blocks left by exact elimination carry products of other rows' scalings
 * (entries 1e-35 next to 1 in the same row and column); row scaling alone leaves them with terms
 * 1e16 times their permanent, so no double (or double-double) sweep gets a digit right. Balanced,
 * a nonnegative matrix is close to doubly stochastic, whose permanent is at least {@code n!/n^n}
 * (van der Waerden), and the same blocks cancel by a factor of ~10.
 *
 * <pre>{@code
 * Balancing b = Balancing.of(a);
 * ScaledValue perm = ScaledValue.of(permanentOf(b.scaled()), b.exponent());
 * }</pre>
 *
 * @param scaled   the matrix {@code D1 A D2}, rows with 1-norms in [1, 2)
 * @param exponent E with {@code perm(A) = 2^E perm(D1 A D2)}
 */
public record Balancing(SquareMatrix scaled, long exponent) {
    /** Column-and-row passes at most (Sinkhorn converges fast on matrices with total support; the rest only drift). */
    static final int MAX_PASSES = 64;
    /** Exponents of nonzero entries are kept inside [-LIMIT, LIMIT], far from underflow and overflow. */
    static final int LIMIT = 900;

    public static Balancing of(SquareMatrix a) {
        int n = a.n();
        double[] v = a.rowMajor();
        long total = 0;
        int[] col = new int[n], row = new int[n];
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            boolean changed = false;
            for (int j = 0; j < n; j++) {
                double norm = 0;
                for (int i = 0; i < n; i++) norm += Math.abs(v[i * n + j]);
                col[j] = norm == 0 || !Double.isFinite(norm) ? 0 : Math.getExponent(norm);
            }
            if (!fits(v, n, col, false)) break;
            for (int j = 0; j < n; j++) {
                if (col[j] == 0) continue;
                changed = true;
                for (int i = 0; i < n; i++) v[i * n + j] = Math.scalb(v[i * n + j], -col[j]);
                total += col[j];
            }
            for (int i = 0; i < n; i++) {
                double norm = 0;
                for (int j = 0; j < n; j++) norm += Math.abs(v[i * n + j]);
                row[i] = norm == 0 || !Double.isFinite(norm) ? 0 : Math.getExponent(norm);
            }
            if (!fits(v, n, row, true)) {
                // rows must end in [1, 2): fall back to the plain row scaling of what we have
                RowScaling r = RowScaling.of(SquareMatrix.of(n, v));
                return new Balancing(r.scaled(), total + r.exponent());
            }
            for (int i = 0; i < n; i++) {
                if (row[i] == 0) continue;
                changed = true;
                for (int j = 0; j < n; j++) v[i * n + j] = Math.scalb(v[i * n + j], -row[i]);
                total += row[i];
            }
            if (!changed) break;
        }
        RowScaling r = RowScaling.of(SquareMatrix.of(n, v)); // a no-op unless the passes ran out on a column step
        return new Balancing(r.scaled(), total + r.exponent());
    }

    /** Whether scaling row (or column) k by 2^-shift[k] keeps every nonzero entry's exponent inside the limit. */
    private static boolean fits(double[] v, int n, int[] shift, boolean rows) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double x = v[i * n + j];
                if (x == 0) continue;
                int e = Math.getExponent(x) - shift[rows ? i : j];
                if (e < -LIMIT || e > LIMIT) return false;
            }
        }
        return true;
    }
}
