package dev.squall.permanent;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.preprocess.BlockTriangularForm;
import dev.squall.sparse.generate.RandomMatrices;
import java.util.SplittableRandom;

/**
 * Random matrices with a positive permanent, as in Elbek and Kaya: Erdős–Rényi draws from the generator every Squall
 * module shares ({@link RandomMatrices#erdosRenyi}: each entry nonzero with probability p, values uniform in [0, 1)),
 * redrawn until structurally nonsingular (a perfect matching exists, so the permanent of the nonnegative matrix is
 * positive). The first draw uses the seed itself, the redraws seeds taken from a stream started at it.
 *
 * <pre>{@code
 * SquareMatrix a = RandomSquareMatrices.erdosRenyi(40, 0.1, 1);
 * SquareMatrix b = RandomSquareMatrices.parse("40:0.1:7");   // squall permanent --random 40:0.1:7
 * }</pre>
 */
public final class RandomSquareMatrices {
    private static final int DRAWS = 1000;

    private RandomSquareMatrices() {
    }

    /**
     * @throws IllegalArgumentException when {@code n < 1}, {@code p} is outside (0, 1], or no draw of
     *                                  {@value #DRAWS} is structurally nonsingular
     */
    public static SquareMatrix erdosRenyi(int n, double p, long seed) {
        if (n < 1) throw new IllegalArgumentException("random matrix order must be >= 1, got " + n);
        if (!(p > 0 && p <= 1)) throw new IllegalArgumentException("density must be in (0, 1], got " + p);
        SplittableRandom redraws = new SplittableRandom(seed);
        long s = seed;
        for (int attempt = 0; attempt < DRAWS; attempt++, s = redraws.nextLong()) {
            SquareMatrix a = SquareMatrix.fromCsr(RandomMatrices.erdosRenyi(n, n, p, s));
            if (BlockTriangularForm.blocks(a) != null) return a;
        }
        throw new IllegalArgumentException("no structurally nonsingular " + n + "x" + n + " matrix in " + DRAWS + " draws at density " + p);
    }

    /**
     * Parses {@code N:DENSITY[:SEED]} (seed 1 by default), N at most {@value SquareMatrix#MAX_INPUT_ORDER}.
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
        if (n > SquareMatrix.MAX_INPUT_ORDER) {
            throw new IllegalArgumentException("--random '" + spec + "': order " + n + " is larger than " + SquareMatrix.MAX_INPUT_ORDER);
        }
        return erdosRenyi(n, d, seed);
    }
}
