package dev.squall.permanent.reference;

/**
 * The permanent of a square matrix by Ryser's formula, visiting the column subsets in
 * Gray-code order so that each step updates the row sums by one column: {@code O(n 2^n)}
 * flops in double precision: the textbook form, without the Nijenhuis-Wilf offset, balancing or compensated sums.
 * Exact for small integer matrices whose sums stay below 2^53; otherwise its rounding grows with the 2^n terms (on
 * uniform [0, 1) entries it is 3.7e-4 off at n = 26), so accurate references at larger orders are
 * {@link dev.squall.permanent.cpu.DoubleDoubleGraySweep} and the exact paths.
 *
 * <p>{@code perm(A) = (-1)^n  sum over column subsets S of (-1)^|S| prod_i sum_{j in S} a_ij}.
 * Matrices are dense and row-major: entry {@code (i, j)} is {@code a[i * n + j]}.
 *
 * <pre>{@code
 * double p = RyserPermanent.of(2, new double[] {1, 2,
 *                                               3, 4});   // 1*4 + 2*3 = 10
 * }</pre>
 */
public final class RyserPermanent {
    /** Largest order accepted: 2^n subsets must be countable in a long and finish in practice. */
    public static final int MAX_N = 40;

    private RyserPermanent() {
    }

    /**
     * Returns the permanent of the {@code n x n} row-major matrix {@code a}; the permanent of
     * the empty matrix ({@code n == 0}) is 1.
     *
     * @throws IllegalArgumentException if {@code a.length != n * n} or {@code n} is outside
     *                                  {@code [0, MAX_N]}
     */
    public static double of(int n, double[] a) {
        if (n < 0 || n > MAX_N) {
            throw new IllegalArgumentException("order " + n + " outside [0, " + MAX_N + "]");
        }
        if (a.length != n * n) {
            throw new IllegalArgumentException("need an n x n array: n=" + n + ", length=" + a.length);
        }
        if (n == 0) {
            return 1.0;
        }
        double[] rowSums = new double[n];
        double total = 0;
        long subsets = 1L << n;
        // Gray code g(k) = k ^ (k >> 1); step k flips column numberOfTrailingZeros(k).
        for (long k = 1; k < subsets; k++) {
            int j = Long.numberOfTrailingZeros(k);
            long gray = k ^ (k >>> 1);
            double sign = ((gray >>> j) & 1L) != 0 ? 1.0 : -1.0; // column j added or removed
            double prod = 1.0;
            for (int i = 0; i < n; i++) {
                rowSums[i] += sign * a[i * n + j];
                prod *= rowSums[i];
            }
            // (-1)^|S| with |S| = bitCount(gray)
            total += (Long.bitCount(gray) & 1) == 0 ? prod : -prod;
        }
        return (n & 1) == 0 ? total : -total;
    }
}
