package dev.squall.permanent.numeric;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Power-of-two matrix balancing for Ryser's formula: Sinkhorn's iteration (alternately every row and
 * every column to 1-norm 1) on real scaling exponents, which are then rounded to powers of two, and
 * a final {@link RowScaling}, so its overflow guarantee holds (each Gray-code term is at most 1 in
 * magnitude). Powers of two are exact: {@code perm(A) = 2^E perm(D1 A D2)}.
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
    /** Sinkhorn iterations at most (fast on matrices with total support; entries in no perfect matching only drift). */
    static final int MAX_ITERATIONS = 200;
    /** Row and column exponents are kept inside [-LIMIT, LIMIT], far from underflow and overflow. */
    static final int LIMIT = 400;
    private static final double LN2 = Math.log(2);

    public static Balancing of(SquareMatrix a) {
        int n = a.n();
        double[] v = a.rowMajor();
        // Sinkhorn on log2 |a_ij|: row and column scalings r_i, c_j (real), then rounded to powers of two
        double[] r = new double[n], c = new double[n];
        double[] pr = new double[n], pc = new double[n];
        java.util.Arrays.fill(pr, 1);
        java.util.Arrays.fill(pc, 1);
        for (int it = 0; it < MAX_ITERATIONS; it++) {
            double change = 0;
            for (int i = 0; i < n; i++) {
                double norm = 0;
                for (int j = 0; j < n; j++) norm += Math.abs(v[i * n + j]) * pc[j];
                if (norm == 0 || !Double.isFinite(norm)) continue;
                double next = Math.max(-LIMIT, Math.min(LIMIT, -Math.log(norm) / LN2));
                change = Math.max(change, Math.abs(next - r[i]));
                r[i] = next;
                pr[i] = Math.pow(2, next);
            }
            for (int j = 0; j < n; j++) {
                double norm = 0;
                for (int i = 0; i < n; i++) norm += Math.abs(v[i * n + j]) * pr[i];
                if (norm == 0 || !Double.isFinite(norm)) continue;
                double next = Math.max(-LIMIT, Math.min(LIMIT, -Math.log(norm) / LN2));
                change = Math.max(change, Math.abs(next - c[j]));
                c[j] = next;
                pc[j] = Math.pow(2, next);
            }
            if (change < 0.05) break;
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            int e = (int) Math.rint(r[i]);
            for (int j = 0; j < n; j++) v[i * n + j] = Math.scalb(v[i * n + j], e);
            total -= e;
        }
        for (int j = 0; j < n; j++) {
            int e = (int) Math.rint(c[j]);
            for (int i = 0; i < n; i++) v[i * n + j] = Math.scalb(v[i * n + j], e);
            total -= e;
        }
        RowScaling rows = RowScaling.of(SquareMatrix.of(n, v)); // row 1-norms into [1, 2): no term above 1
        return new Balancing(rows.scaled(), total + rows.exponent());
    }
}
