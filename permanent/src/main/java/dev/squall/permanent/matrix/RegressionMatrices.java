package dev.squall.permanent.matrix;

import java.util.SplittableRandom;

/**
 * Seeded matrices on which Ryser's alternating sum cancels badly in double precision: mixed
 * signs and entry magnitudes spanning many orders. Every entry is {@code m * 2^-k} with a small
 * integer {@code m}, so it is exact in binary and its shortest decimal (at most 15 significant
 * digits) is the same number: the exact path reads the same matrix whether it interprets the
 * doubles as binary or as decimals.
 * <ul>
 * <li>{@link #banded}: bandwidth 2 to 4, magnitudes log-uniform in about [1e-3, 10^4.4], random
 * signs, a third of the rows thinned to one or two nonzeros (the diagonal kept, so the matrix
 * stays structurally nonsingular);</li>
 * <li>{@link #sparse}: rows with 1 to 4 nonzeros at random columns (plus a hidden random
 * permutation's entry, so a perfect matching exists), magnitudes log-uniform over 8 orders
 * (about [7.8e-3, 1.3e6]), random signs.</li>
 * <li>{@link #dense34}: as {@code sparse}, but every row has 3 or 4 nonzeros: nothing to eliminate at first, so
 * preprocessing must expand rows or columns;</li>
 * <li>{@link #mesh}: the 5-point stencil of a {@code ceil(sqrt n)}-wide grid (node i couples to its left, right,
 * upper and lower neighbours), magnitudes over 8 orders, mixed signs: an engineering-like pattern whose frontier
 * width is about twice the grid width.</li>
 * </ul>
 *
 * <pre>{@code
 * SquareMatrix a = RegressionMatrices.banded(40, 7);
 * SquareMatrix b = RegressionMatrices.parse("sparse:30:2");
 * }</pre>
 */
public final class RegressionMatrices {
    private RegressionMatrices() {
    }

    /** Banded, mixed signs, magnitudes 1e-3 .. 10^4.4, a third of the rows thinned to 1-2 nonzeros. */
    public static SquareMatrix banded(int n, long seed) {
        checkOrder(n);
        SplittableRandom r = new SplittableRandom(seed);
        int w = 2 + r.nextInt(3);
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = Math.max(0, i - w); j <= Math.min(n - 1, i + w); j++) {
                if (j == i || r.nextDouble() < 0.8) v[i * n + j] = value(r, 10, -3.0, 4.4);
            }
        }
        for (int i = 0; i < n; i++) {
            if (r.nextInt(3) != 0) continue;
            // thin: keep the diagonal and at most one other entry of the band
            int keep = r.nextBoolean() ? -1 : Math.max(0, Math.min(n - 1, i + (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(w))));
            for (int j = 0; j < n; j++) if (j != i && j != keep) v[i * n + j] = 0;
            if (keep >= 0 && keep != i && v[i * n + keep] == 0) v[i * n + keep] = value(r, 10, -3.0, 4.4);
        }
        return SquareMatrix.of(n, v);
    }

    /** Random sparse: rows with 1 to 4 nonzeros, magnitudes over 8 orders, mixed signs, a perfect matching guaranteed. */
    public static SquareMatrix sparse(int n, long seed) {
        checkOrder(n);
        return rowsOnPermutation(n, seed, 1, 4);
    }

    /** Rows with exactly 3 or 4 nonzeros (one of them on a hidden random permutation), magnitudes over 8 orders, mixed signs. */
    public static SquareMatrix dense34(int n, long seed) {
        checkOrder(n);
        if (n < 4) throw new IllegalArgumentException("dense34 needs order >= 4, got " + n);
        return rowsOnPermutation(n, seed, 3, 2);
    }

    /**
     * Row {@code i} holds {@code least + r.nextInt(choices)} nonzeros, one of them in column {@code perm[i]} of a
     * random permutation (so a perfect matching exists), the others in random distinct columns; values over 8 orders,
     * mixed signs.
     */
    private static SquareMatrix rowsOnPermutation(int n, long seed, int least, int choices) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int k = r.nextInt(i + 1), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) {
            int count = least + r.nextInt(choices);
            v[i * n + perm[i]] = value(r, 7, -2.1, 6.1);
            for (int placed = 1; placed < count; ) {
                int j = r.nextInt(n);
                if (v[i * n + j] != 0) continue;
                v[i * n + j] = value(r, 7, -2.1, 6.1);
                placed++;
            }
        }
        return SquareMatrix.of(n, v);
    }

    /** The 5-point stencil on a grid {@code ceil(sqrt n)} wide (nodes row-major), every entry random over 8 orders, mixed signs. */
    public static SquareMatrix mesh(int n, long seed) {
        checkOrder(n);
        SplittableRandom r = new SplittableRandom(seed);
        int w = (int) Math.ceil(Math.sqrt(n));
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) {
            int x = i % w;
            v[i * n + i] = value(r, 7, -2.1, 6.1);
            if (x > 0) v[i * n + i - 1] = value(r, 7, -2.1, 6.1);
            if (x < w - 1 && i + 1 < n) v[i * n + i + 1] = value(r, 7, -2.1, 6.1);
            if (i >= w) v[i * n + i - w] = value(r, 7, -2.1, 6.1);
            if (i + w < n) v[i * n + i + w] = value(r, 7, -2.1, 6.1);
        }
        return SquareMatrix.of(n, v);
    }

    /**
     * Parses {@code KIND:N[:SEED]}, KIND one of banded, sparse, dense34, mesh (seed 1 by default).
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static SquareMatrix parse(String spec) {
        String[] p = spec.split(":");
        if (p.length < 2 || p.length > 3 || !java.util.List.of("banded", "sparse", "dense34", "mesh").contains(p[0])) {
            throw new IllegalArgumentException("--generate '" + spec + "' must be KIND:N[:SEED] with KIND banded, sparse, dense34 or mesh, e.g. banded:40:7");
        }
        int n;
        long seed = 1;
        try {
            n = Integer.parseInt(p[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--generate '" + spec + "': order '" + p[1] + "' is not an integer");
        }
        if (p.length == 3) {
            try {
                seed = Long.parseLong(p[2]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--generate '" + spec + "': seed '" + p[2] + "' is not an integer");
            }
        }
        return switch (p[0]) {
            case "banded" -> banded(n, seed);
            case "sparse" -> sparse(n, seed);
            case "dense34" -> dense34(n, seed);
            default -> mesh(n, seed);
        };
    }

    /** A random sign times {@code round(10^U(lo, hi) * 2^k) * 2^-k}: log-uniform magnitude, exact in binary and decimal. */
    private static double value(SplittableRandom r, int k, double lo, double hi) {
        double scale = Math.scalb(1.0, k);
        double m = Math.max(1, Math.rint(Math.pow(10, lo + (hi - lo) * r.nextDouble()) * scale));
        return (r.nextBoolean() ? 1 : -1) * m / scale;
    }

    private static void checkOrder(int n) {
        if (n < 1 || n > 4096) throw new IllegalArgumentException("regression matrix order must be in [1, 4096], got " + n);
    }
}
