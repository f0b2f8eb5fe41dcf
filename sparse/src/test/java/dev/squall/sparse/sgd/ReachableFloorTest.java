package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The reachable floor: the Cholesky solve, exact recovery without noise, and the sigma^2 (1 + r users / ratings) law with it. */
class ReachableFloorTest {
    @Test
    void choleskySolvesSymmetricPositiveDefiniteSystems() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int n : new int[] {1, 2, 7, 33}) {
            double[] m = new double[n * n];
            for (int t = 0; t < m.length; t++) m[t] = rnd.nextDouble(-3, 3);
            double[] a = new double[n * n], full = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double s = i == j ? 0.5 : 0;
                    for (int q = 0; q < n; q++) s += m[i * n + q] * m[j * n + q];
                    full[i * n + j] = s;
                    if (j <= i) a[i * n + j] = s;
                }
            }
            double[] b = new double[n];
            for (int i = 0; i < n; i++) b[i] = rnd.nextDouble(-1e3, 1e3);
            double[] x = b.clone();
            ReachableFloor.solveCholesky(a, x, n);
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int j = 0; j < n; j++) s += full[i * n + j] * x[j];
                assertEquals(b[i], s, 1e-7 * (1 + Math.abs(b[i])), "n = " + n + ", row " + i);
            }
        }
    }

    @Test
    void withoutNoiseThePlantedUserFactorsAreRecovered() {
        RatingsGenerator.Spec spec = new RatingsGenerator.Spec("clean", 300, 200, 30_000, 6, 0.0, 3.5, 30);
        float[][] planted = new float[2][];
        Ratings all = RatingsGenerator.generate(spec, 4, planted);
        Ratings.Split s = all.split(0.1, 5);
        double rmse = ReachableFloor.rmse(spec, planted[1], s.train(), s.test(), 1_000, 6);
        assertTrue(rmse < 1e-4, "noise-free reachable RMSE " + rmse);
    }

    @Test
    void lightUsersRaiseTheFloorBySigmaSquaredRankOverDegree() {
        // per test rating the excess squared error over the planted model is about sigma^2 r / n_u (a little more: the
        // r / (n_u - r) of least squares, less the ridge's shrinkage), and test ratings fall on users in proportion to
        // n_u, so the mean excess is about sigma^2 r users / training ratings whatever the degrees
        for (int r : new int[] {4, 12}) {
            RatingsGenerator.Spec spec = new RatingsGenerator.Spec("light", 3_000, 400, 240_000, r, 0.5, 3.5, 40);
            float[][] planted = new float[2][];
            Ratings all = RatingsGenerator.generate(spec, 7, planted);
            Ratings.Split s = all.split(0.1, 8);
            Ratings t = s.test();
            double se = 0;
            for (int e = 0; e < t.size(); e++) {
                double d = t.value(e) - spec.mean();
                for (int f = 0; f < r; f++) d -= (double) planted[0][t.user(e) * r + f] * planted[1][t.item(e) * r + f];
                se += d * d;
            }
            double plantedMse = se / t.size();
            double law = 0.25 * r * all.users() / s.train().size();
            double every = ReachableFloor.rmse(spec, planted[1], s.train(), t, 10_000, 9);
            double excess = every * every - plantedMse;
            assertTrue(excess > 0.9 * law && excess < 1.35 * law, "rank " + r + ": excess " + excess + " against sigma^2 r U / N = " + law);
            double sampled = ReachableFloor.rmse(spec, planted[1], s.train(), t, 1_000, 9);
            assertEquals(every, sampled, 0.015 * every, "rank " + r + ": a third of the users");
        }
    }

    @Test
    void mismatchedFactorsAreNamed() {
        RatingsGenerator.Spec spec = RatingsGenerator.SMALL;
        Ratings all = RatingsGenerator.generate(spec, 1);
        Ratings.Split s = all.split(0.1, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReachableFloor.rmse(spec, new float[3], s.train(), s.test(), 10, 1));
        assertTrue(e.getMessage().contains("planted item factors"), e.getMessage());
    }
}
