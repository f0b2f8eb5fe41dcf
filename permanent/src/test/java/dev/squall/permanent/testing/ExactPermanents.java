package dev.squall.permanent.testing;

import dev.squall.permanent.matrix.SquareMatrix;

import java.math.BigInteger;
import java.util.Random;

/** Independent references for tests: brute force, closed forms, BigInteger Ryser, matching counts. */
public final class ExactPermanents {
    private ExactPermanents() {
    }

    /** Sum over all permutations, by recursion over rows (n <= 9). */
    public static double bruteForce(SquareMatrix a) {
        return expand(a, 0, new boolean[a.n()]);
    }

    private static double expand(SquareMatrix a, int row, boolean[] used) {
        if (row == a.n()) return 1.0;
        double s = 0;
        for (int j = 0; j < a.n(); j++) {
            if (!used[j] && a.get(row, j) != 0) {
                used[j] = true;
                s += a.get(row, j) * expand(a, row + 1, used);
                used[j] = false;
            }
        }
        return s;
    }

    public static BigInteger factorial(int n) {
        BigInteger f = BigInteger.ONE;
        for (int k = 2; k <= n; k++) f = f.multiply(BigInteger.valueOf(k));
        return f;
    }

    /** Derangements D_n = n D_{n-1} + (-1)^n. */
    public static BigInteger derangements(int n) {
        BigInteger d = BigInteger.ONE; // D_0
        for (int k = 1; k <= n; k++) d = d.multiply(BigInteger.valueOf(k)).add(BigInteger.valueOf((k & 1) == 0 ? 1 : -1));
        return d;
    }

    /** F_{n+1} (F_1 = F_2 = 1): the permanent of the n x n tridiagonal 0/1 matrix. */
    public static long fibonacci(int n) {
        long a = 1, b = 1; // F_1, F_2
        for (int k = 2; k <= n; k++) {
            long c = a + b;
            a = b;
            b = c;
        }
        return n == 1 ? 1 : b;
    }

    /**
     * Ryser's formula over all 2^n column subsets (not Gray order, not Nijenhuis–Wilf), with
     * exact BigInteger products; for integer matrices.
     */
    public static BigInteger ryserBig(SquareMatrix a) {
        int n = a.n();
        long[] cols = new long[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) cols[j * n + i] = (long) a.get(i, j);
        BigInteger total = BigInteger.ZERO;
        long[] rowSum = new long[n];
        for (long s = 1; s < (1L << n); s++) {
            java.util.Arrays.fill(rowSum, 0);
            for (int j = 0; j < n; j++) if (((s >>> j) & 1) != 0) for (int i = 0; i < n; i++) rowSum[i] += cols[j * n + i];
            boolean zero = false;
            for (long r : rowSum) if (r == 0) { zero = true; break; }
            if (zero) continue;
            BigInteger p = BigInteger.ONE;
            for (long r : rowSum) p = p.multiply(BigInteger.valueOf(r));
            total = ((n - Long.bitCount(s)) & 1) == 0 ? total.add(p) : total.subtract(p);
        }
        return total;
    }

    /** Perfect matchings of a 0/1 matrix by dynamic programming over used-column sets (n <= 26). */
    public static BigInteger matchings(SquareMatrix a) {
        int n = a.n();
        long[] dp = new long[1 << n];
        dp[0] = 1;
        for (int mask = 0; mask < (1 << n); mask++) {
            long v = dp[mask];
            if (v == 0) continue;
            int row = Integer.bitCount(mask);
            if (row == n) continue;
            for (int j = 0; j < n; j++) {
                if (((mask >>> j) & 1) == 0 && a.get(row, j) != 0) dp[mask | (1 << j)] = Math.addExact(dp[mask | (1 << j)], v);
            }
        }
        return BigInteger.valueOf(dp[(1 << n) - 1]);
    }

    public static SquareMatrix ones(int n) {
        double[] v = new double[n * n];
        java.util.Arrays.fill(v, 1.0);
        return SquareMatrix.of(n, v);
    }

    public static SquareMatrix onesMinusIdentity(int n) {
        double[] v = new double[n * n];
        java.util.Arrays.fill(v, 1.0);
        for (int i = 0; i < n; i++) v[i * n + i] = 0;
        return SquareMatrix.of(n, v);
    }

    public static SquareMatrix tridiagonalOnes(int n) {
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j++) v[i * n + j] = 1;
        return SquareMatrix.of(n, v);
    }

    /** Erdős–Rényi: each entry nonzero with probability p, values uniform in [lo, hi). */
    public static SquareMatrix random(int n, double p, double lo, double hi, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int k = 0; k < v.length; k++) if (r.nextDouble() < p) v[k] = lo + (hi - lo) * r.nextDouble();
        return SquareMatrix.of(n, v);
    }

    /**
     * Erdős–Rényi with dyadic values k/1024, k in [1, 1024]: the exact permanent is
     * {@link #ryserBig} of the integer matrix divided by 1024^n, so real-valued results can be
     * checked against an exact value.
     */
    public static SquareMatrix randomDyadic(int n, double p, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int k = 0; k < v.length; k++) if (r.nextDouble() < p) v[k] = (1 + r.nextInt(1024)) / 1024.0;
        return SquareMatrix.of(n, v);
    }

    /** The exact permanent of a {@link #randomDyadic} matrix, rounded to double. */
    public static double exactDyadic(SquareMatrix a) {
        double[] v = a.rowMajor();
        for (int k = 0; k < v.length; k++) v[k] *= 1024;
        BigInteger p = ryserBig(SquareMatrix.of(a.n(), v));
        return new java.math.BigDecimal(p).divide(new java.math.BigDecimal(BigInteger.valueOf(1024).pow(a.n()))).doubleValue();
    }

    /**
     * Perfect matchings of a banded 0/1 matrix ({@code a_ij = 0} for {@code |i - j| > w}) by a
     * row-by-row DP over which columns of the window {@code [i-w, i+w]} are used: exact BigInteger
     * counts for any n, independent of Ryser's formula.
     */
    public static BigInteger bandedMatchings(SquareMatrix a, int w) {
        int n = a.n(), width = 2 * w + 1;
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) {
            if (Math.abs(i - j) > w && a.get(i, j) != 0) throw new IllegalArgumentException("entry (" + i + "," + j + ") outside band " + w);
        }
        BigInteger[] dp = new BigInteger[1 << width];
        java.util.Arrays.fill(dp, BigInteger.ZERO);
        int init = 0;
        for (int k = 0; k < width; k++) if (k - w < 0) init |= 1 << k; // columns < 0 count as used
        dp[init] = BigInteger.ONE;
        for (int i = 0; i < n; i++) {
            BigInteger[] next = new BigInteger[1 << width];
            java.util.Arrays.fill(next, BigInteger.ZERO);
            for (int mask = 0; mask < dp.length; mask++) {
                if (dp[mask].signum() == 0) continue;
                for (int k = 0; k < width; k++) {
                    int col = i - w + k;
                    if (col < 0 || col >= n || ((mask >>> k) & 1) != 0 || a.get(i, col) == 0) continue;
                    int used = mask | (1 << k);
                    if ((used & 1) == 0) continue; // column i-w leaves the window unused: no later row reaches it
                    next[used >>> 1] = next[used >>> 1].add(dp[mask]);
                }
            }
            dp = next;
        }
        BigInteger total = BigInteger.ZERO;
        int need = (1 << w) - 1; // columns n-w .. n-1 used at the end
        for (int mask = 0; mask < dp.length; mask++) if ((mask & need) == need) total = total.add(dp[mask]);
        return total;
    }

    /** Random 0/1 matrix with nonzeros only within distance {@code w} of the diagonal, each with probability p. */
    public static SquareMatrix randomBanded(int n, int w, double p, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = Math.max(0, i - w); j <= Math.min(n - 1, i + w); j++) if (r.nextDouble() < p) v[i * n + j] = 1;
        return SquareMatrix.of(n, v);
    }

    public static SquareMatrix randomBinary(int n, double p, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int k = 0; k < v.length; k++) if (r.nextDouble() < p) v[k] = 1;
        return SquareMatrix.of(n, v);
    }

    public static void assertRelative(double want, double got, double rel, String what) {
        double err = Math.abs(got - want) / Math.max(Math.abs(want), 1e-300);
        if (!(err <= rel)) throw new AssertionError(what + ": want " + want + ", got " + got + " (relative error " + err + " > " + rel + ")");
    }
}
