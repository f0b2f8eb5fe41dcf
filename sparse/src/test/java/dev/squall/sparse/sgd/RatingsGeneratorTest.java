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
    void theSameSeedGivesTheSameRatingsWhateverTheThreadCount() throws Exception {
        // users and blocks of planted factors draw from their own streams, so a pool of 1 and one of 3 threads (the
        // parallel streams run in the pool that calls them) give the same ratings, bit for bit
        RatingsGenerator.Spec spec = new RatingsGenerator.Spec("threads", 5000, 900, 150_000, 4, 0.5, 3.5, 5, 0.9, 300, 2.1, 23);
        Ratings[] got = new Ratings[2];
        int[] threads = {1, 3};
        for (int t = 0; t < 2; t++) {
            java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(threads[t]);
            try {
                got[t] = pool.submit(() -> RatingsGenerator.generate(spec, 7)).get();
            } finally {
                pool.shutdown();
            }
        }
        assertTrue(got[0].size() > 140_000, "ratings: " + got[0].size());
        assertArrayEquals(got[0].userArray(), got[1].userArray());
        assertArrayEquals(got[0].itemArray(), got[1].itemArray());
        assertArrayEquals(got[0].valueArray(), got[1].valueArray());
        // another seed gives other ratings
        Ratings other = RatingsGenerator.generate(spec, 8);
        assertTrue(!java.util.Arrays.equals(got[0].valueArray(), other.valueArray()), "seed 8 repeats seed 7");
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
    void degreeShapeGivesTheExpectedHottestItemAndMedians() {
        // the netflix preset's shape at 1/24 of the users: the item counts must match the successive-sampling model
        // (a user of degree d takes item i with probability 1 - exp(-lambda_d p_i), sum over i = d), computed here
        RatingsGenerator.Spec nf = RatingsGenerator.NETFLIX;
        RatingsGenerator.Spec spec = new RatingsGenerator.Spec("shape", 20_000, 3_000, 400_000, 4, 0.5, 3.5, 5,
                nf.userExponent(), nf.userOffset(), nf.itemExponent(), nf.itemOffset());
        Ratings r = RatingsGenerator.generate(spec, 7);
        int[] du = RatingsGenerator.degrees(spec, 1);
        double[] p = new double[spec.items()];
        double ps = 0;
        for (int j = 0; j < p.length; j++) ps += p[j] = Math.pow(j + spec.itemOffset(), -spec.itemExponent());
        double[] expect = new double[p.length];
        java.util.Map<Integer, Integer> byDegree = new java.util.TreeMap<>();
        for (int d : du) byDegree.merge(d, 1, Integer::sum);
        for (var e : byDegree.entrySet()) {
            double lo = 0, hi = 1;
            while (taken(p, ps, hi) < e.getKey()) hi *= 2;
            for (int it = 0; it < 60; it++) {
                double mid = (lo + hi) / 2;
                if (taken(p, ps, mid) < e.getKey()) lo = mid;
                else hi = mid;
            }
            for (int j = 0; j < p.length; j++) expect[j] += e.getValue() * -Math.expm1(-hi * p[j] / ps);
        }
        java.util.Arrays.sort(expect);
        int[] di = r.itemDegrees().clone();
        java.util.Arrays.sort(di);
        double top = di[di.length - 1], topModel = expect[expect.length - 1];
        assertEquals(topModel, top, 0.05 * topModel, "hottest item");
        double med = di[di.length / 2], medModel = expect[expect.length / 2];
        assertEquals(medModel, med, 0.1 * medModel, "median item");
        // the old default shape gives a flatter tail: the preset's median item is further below the mean
        Ratings flat = RatingsGenerator.generate(new RatingsGenerator.Spec("flat", 20_000, 3_000, 400_000, 4, 0.5, 3.5, 5), 7);
        int[] df = flat.itemDegrees().clone();
        java.util.Arrays.sort(df);
        assertTrue(df[df.length / 2] > 1.5 * med, "median item: default shape " + df[df.length / 2] + ", netflix shape " + med);
    }

    private static double taken(double[] p, double ps, double lambda) {
        double s = 0;
        for (double v : p) s += -Math.expm1(-lambda * v / ps);
        return s;
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
