package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The planted model: seeded, no repeated pairs, the noise floor where the spec says, power-law degrees. */
class RatingsGeneratorTest {
    @Test
    void smallIsSeededAndItsPlantedModelSitsOnTheFloor() {
        float[][] planted = new float[2][];
        RatingsGenerator.Spec spec = RatingsGenerator.SMALL;
        Ratings a = RatingsGenerator.generate(spec, 3, planted);
        Ratings b = RatingsGenerator.generate(spec, 3);
        assertArrayEquals(a.valueArray(), b.valueArray());
        assertArrayEquals(a.itemArray(), b.itemArray());
        assertTrue(Math.abs(a.size() - spec.nnz()) <= spec.nnz() / 100, "ratings " + a.size() + " near " + spec.nnz());
        // residual of the planted model (computed here, in double) is the noise
        double s = 0;
        int r = spec.rank();
        Set<Long> pairs = new HashSet<>();
        for (int e = 0; e < a.size(); e++) {
            double dot = 0;
            for (int f = 0; f < r; f++) dot += (double) planted[0][a.user(e) * r + f] * planted[1][a.item(e) * r + f];
            double d = a.value(e) - spec.mean() - dot;
            s += d * d;
            assertTrue(pairs.add((long) a.user(e) * a.items() + a.item(e)), "pair repeated at rating " + e);
        }
        double rmse = Math.sqrt(s / a.size());
        assertEquals(spec.floor(), rmse, 0.01 * spec.floor(), "residual of the planted model");
        // the signal has unit variance: ratings vary by about sqrt(1 + noise^2)
        double m = a.mean(), v = 0;
        for (int e = 0; e < a.size(); e++) v += (a.value(e) - m) * (a.value(e) - m);
        assertEquals(Math.sqrt(1 + spec.noise() * spec.noise()), Math.sqrt(v / a.size()), 0.15);
    }

    @Test
    void degreesFollowAPowerLaw() {
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse("20000x3000x400000"), 5);
        int[] d = r.userDegrees().clone();
        java.util.Arrays.sort(d);
        int max = d[d.length - 1], median = d[d.length / 2];
        assertTrue(max > 20 * median, "heavy users: max " + max + ", median " + median);
        int[] di = r.itemDegrees().clone();
        java.util.Arrays.sort(di);
        assertTrue(di[di.length - 1] > 20 * Math.max(1, di[di.length / 2]), "popular items: max " + di[di.length - 1] + ", median " + di[di.length / 2]);
    }

    @Test
    void specsAreParsedAndChecked() {
        assertEquals(480_190, RatingsGenerator.parse("netflix").users());
        assertEquals(26_744, RatingsGenerator.parse("ML20M").items());
        RatingsGenerator.Spec c = RatingsGenerator.parse("100x50x1000");
        assertEquals(100, c.users());
        assertEquals(1000, c.nnz());
        assertThrows(IllegalArgumentException.class, () -> RatingsGenerator.parse("huge"));
        assertThrows(IllegalArgumentException.class, () -> RatingsGenerator.parse("10x10x1000"));   // more than half the pairs
        assertThrows(IllegalArgumentException.class, () -> RatingsGenerator.parse("0x10x10"));
    }
}
