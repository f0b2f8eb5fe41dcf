package dev.squall.permanent.numeric;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Bregman's upper bound on the permanent of a 0/1 matrix (Bregman 1973, Minc's conjecture):
 * {@code perm(A) <= prod_i (r_i!)^(1/r_i)} with r_i the row degrees. The exact paths use it to
 * certify that a residue modulo 2^k is the permanent itself.
 *
 * <pre>{@code
 * boolean fits64 = BregmanBound.log2(a) < 63.99;   // perm(a) < 2^64
 * }</pre>
 */
public final class BregmanBound {
    private BregmanBound() {
    }

    /** log2 of the bound; -infinity when a row is empty (the permanent is 0). */
    public static double log2(SquareMatrix a) {
        double bits = 0;
        for (int i = 0; i < a.n(); i++) {
            int r = 0;
            for (int j = 0; j < a.n(); j++) if (a.get(i, j) != 0) r++;
            if (r == 0) return Double.NEGATIVE_INFINITY;
            double logFact = 0;
            for (int k = 2; k <= r; k++) logFact += Math.log(k);
            bits += logFact / r / Math.log(2);
        }
        return bits;
    }
}
