package dev.squall.permanent.numeric;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Scales every row by a power of two so that its 1-norm lies in [1, 2): then every Gray-code
 * term {@code prod_i x_i} is at most 1 in magnitude (each x_i is a sum of +-a_ij/2, so |x_i| &lt;= ||row i||_1 / 2 &lt; 1),
 * so the sweep cannot overflow, and powers of two are exact, so {@code perm(A) = 2^E perm(DA)}
 * with no rounding.
 *
 * <pre>{@code
 * RowScaling s = RowScaling.of(a);
 * ScaledValue perm = ScaledValue.of(permanentOf(s.scaled()), s.exponent());
 * }</pre>
 *
 * @param scaled   the matrix DA
 * @param exponent E with {@code perm(A) = 2^E perm(DA)}
 */
public record RowScaling(SquareMatrix scaled, long exponent) {
    public static RowScaling of(SquareMatrix a) {
        int n = a.n();
        double[] v = a.rowMajor();
        long total = 0;
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int j = 0; j < n; j++) norm += Math.abs(v[i * n + j]);
            if (norm == 0 || !Double.isFinite(norm)) continue;
            int e = Math.getExponent(norm);
            for (int j = 0; j < n; j++) v[i * n + j] = Math.scalb(v[i * n + j], -e);
            total += e;
        }
        return new RowScaling(SquareMatrix.of(n, v), total);
    }
}
