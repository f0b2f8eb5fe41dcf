package dev.squall.permanent.matrix;

import java.util.SplittableRandom;

/**
 * Erdős–Rényi test matrices as in Elbek and Kaya: each entry nonzero with probability p, values
 * uniform in [0, 1); draws without a perfect matching are rejected (redrawn with the next seed of
 * the same stream), so the permanent is nonzero.
 *
 * <pre>{@code
 * SquareMatrix a = RandomMatrices.erdosRenyi(40, 0.1, 1);
 * }</pre>
 */
public final class RandomMatrices {
    private RandomMatrices() {
    }

    public static SquareMatrix erdosRenyi(int n, double p, long seed) {
        if (n < 1) throw new IllegalArgumentException("random matrix order must be >= 1, got " + n);
        if (!(p > 0 && p <= 1)) throw new IllegalArgumentException("density must be in (0, 1], got " + p);
        SplittableRandom r = new SplittableRandom(seed);
        for (int attempt = 0; attempt < 1000; attempt++) {
            double[] v = new double[n * n];
            for (int k = 0; k < v.length; k++) if (r.nextDouble() < p) v[k] = r.nextDouble();
            SquareMatrix a = SquareMatrix.of(n, v);
            if (dev.squall.permanent.preprocess.BlockTriangularForm.blocks(a) != null) return a;
        }
        throw new IllegalArgumentException("no structurally nonsingular " + n + "x" + n + " matrix in 1000 draws at density " + p);
    }

    /**
     * Parses {@code N:DENSITY[:SEED]} (seed 1 by default).
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static SquareMatrix parse(String spec) {
        String[] p = spec.split(":");
        if (p.length < 2 || p.length > 3) throw new IllegalArgumentException("--random '" + spec + "' must be N:DENSITY[:SEED], e.g. 40:0.1:7");
        int n;
        double d;
        long seed = 1;
        try {
            n = Integer.parseInt(p[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--random '" + spec + "': order '" + p[0] + "' is not an integer");
        }
        try {
            d = Double.parseDouble(p[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--random '" + spec + "': density '" + p[1] + "' is not a number");
        }
        if (p.length == 3) {
            try {
                seed = Long.parseLong(p[2]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--random '" + spec + "': seed '" + p[2] + "' is not an integer");
            }
        }
        if (n > 4096) throw new IllegalArgumentException("--random '" + spec + "': order " + n + " is too large");
        return erdosRenyi(n, d, seed);
    }
}
