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
    void streamsOfUsersAndBlocksDoNotRepeatEachOther() {
        // planted factors are drawn in blocks and noise per user, each from its own stream: no value may recur (with
        // streams shifted copies of each other, most of a block's values reappear in the next block)
        float[][] planted = new float[2][];
        RatingsGenerator.Spec spec = new RatingsGenerator.Spec("streams", 3000, 1200, 60_000, 3, 0.5, 3.5, 5);
        Ratings a = RatingsGenerator.generate(spec, 11, planted);
        for (float[] f : planted) {
            Set<Float> distinct = new HashSet<>();
            for (float v : f) distinct.add(v);
            assertTrue(distinct.size() > 0.999 * f.length, distinct.size() + " distinct planted values of " + f.length);
        }
        // and the noise of the held-out ratings is the spec's (independent draws: within 2% on 6,000 ratings)
        Ratings.Split s = a.split(0.1, 12);
        double se = 0;
        Ratings t = s.test();
        for (int e = 0; e < t.size(); e++) {
            double d = t.value(e) - spec.mean();
            for (int f = 0; f < spec.rank(); f++) d -= (double) planted[0][t.user(e) * spec.rank() + f] * planted[1][t.item(e) * spec.rank() + f];
            se += d * d;
        }
        assertEquals(spec.noise(), Math.sqrt(se / t.size()), 0.02 * spec.noise(), "noise of the test ratings");
    }

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
