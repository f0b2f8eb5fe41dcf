package dev.squall.permanent.gray;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * The Nijenhuis–Wilf form of Ryser's formula walked in Gray-code order (0-based indices):
 * <pre>
 *   x_i  = a[i][n-1] - 1/2 sum_j a[i][j]
 *   perm(A) = 2 (-1)^(n-1) sum_{g=0}^{2^(n-1)-1} (-1)^g prod_i x_i^(g),
 *   x^(g) = x + sum of the columns j &lt; n-1 whose bit is set in gray(g) = g ^ (g &gt;&gt; 1)
 * </pre>
 * Step {@code g >= 1} changes column {@code j = ctz(g)}: added when bit {@code j+1} of {@code g}
 * is 0, removed otherwise. (Nijenhuis and Wilf, Combinatorial Algorithms, 1978; the notes'
 * erratum applies: x uses {@code a[i][n-1]}, not the last stored nonzero of row i.)
 *
 * <pre>{@code
 * double[] x = NijenhuisWilf.startVector(a, 0);          // x^(0)
 * double perm = NijenhuisWilf.finalFactor(a.n()) * sum;   // sum of (-1)^g prod x^(g)
 * }</pre>
 */
public final class NijenhuisWilf {
    /** Largest order: 2^(n-1) steps and the Gray code of the step must fit a long. */
    public static final int MAX_N = 63;

    private NijenhuisWilf() {
    }

    /** Number of Gray-code steps, {@code 2^(n-1)}. */
    public static long steps(int n) {
        checkOrder(n);
        return 1L << (n - 1);
    }

    /** {@code 2 (-1)^(n-1)}: +2 for odd n, -2 for even n. */
    public static double finalFactor(int n) {
        return (n & 1) == 1 ? 2.0 : -2.0;
    }

    public static long gray(long g) {
        return g ^ (g >>> 1);
    }

    /** Column changed at step {@code g >= 1}. */
    public static int column(long g) {
        return Long.numberOfTrailingZeros(g);
    }

    /** Whether step {@code g >= 1} adds its column (else it removes it). */
    public static boolean adds(long g) {
        return ((g >>> (column(g) + 1)) & 1L) == 0;
    }

    /** {@code x^(g)}: the start vector of a chunk that begins at step {@code g}. */
    public static double[] startVector(SquareMatrix a, long g) {
        int n = a.n();
        double[] x = new double[n];
        long code = gray(g);
        for (int i = 0; i < n; i++) {
            double rowSum = 0, inSet = 0;
            for (int j = 0; j < n; j++) {
                rowSum += a.get(i, j);
                if (j < n - 1 && ((code >>> j) & 1L) != 0) inSet += a.get(i, j);
            }
            x[i] = a.get(i, n - 1) - 0.5 * rowSum + inSet;
        }
        return x;
    }

    /** @throws IllegalArgumentException unless {@code 0 <= lo < hi <= steps}: a nonempty range of Gray-code steps */
    public static void checkRange(long lo, long hi, long steps) {
        if (lo < 0 || hi <= lo || hi > steps) {
            throw new IllegalArgumentException("step range [" + lo + ", " + hi + ") is not a nonempty part of [0, " + steps + ")");
        }
    }

    /** @throws IllegalArgumentException when {@code n} is outside {@code [1, MAX_N]} */
    public static void checkOrder(int n) {
        if (n < 1 || n > MAX_N) {
            throw new IllegalArgumentException("matrix order n = " + n + " is outside [1, " + MAX_N
                    + "]: the Gray-code sweep needs 2^(n-1) steps counted in a 64-bit integer"
                    + (n > MAX_N ? " (block decomposition may split larger matrices)" : ""));
        }
    }
}
