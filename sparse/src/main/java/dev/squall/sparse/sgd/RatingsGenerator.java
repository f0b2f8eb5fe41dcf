package dev.squall.sparse.sgd;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Seeded synthetic ratings with a known RMSE floor: {@code r = mean + w*_u . h*_i + noise}, where the planted factors
 * have {@code rank} Gaussian features scaled so that {@code w*_u . h*_i} has unit variance, and the noise is Gaussian
 * with standard deviation {@link Spec#noise}. A model that recovered the planted factors would have RMSE {@code noise}
 * on unseen ratings: that is the floor training can reach.
 *
 * <p>Degrees follow power laws, as in real ratings: user {@code j} of the seeded user order rates about
 * {@code nnz (j + c_u)^-a_u / sum} items (at least {@link Spec#minDegree}, at most half the items), chosen without
 * repetition with item popularity proportional to {@code (rank + c_i)^-a_i} (the {@link Spec}'s shape; {@code c = 10},
 * {@code a_u = 0.8}, {@code a_i = 0.9} for {@code small} and {@code USERSxITEMSxNNZ}, the real data's for the presets). Users are generated in parallel, each from
 * its own random stream, so the result depends on the seed only, not on the thread count.
 *
 * <pre>{@code
 * RatingsGenerator.Spec s = RatingsGenerator.parse("small");   // or "ml20m", "netflix", "5000x2000x300000"
 * Ratings r = RatingsGenerator.generate(s, 1);
 * double floor = s.noise();                                     // the test RMSE a perfect model reaches
 * }</pre>
 */
public final class RatingsGenerator {
    private RatingsGenerator() {
    }

    /**
     * What to generate: dimensions, target number of ratings, planted rank, noise, mean, least ratings per user, and the
     * shape of the degree power laws: user {@code j} of the seeded order gets weight {@code (j + userOffset)^-userExponent},
     * item {@code j} popularity {@code (j + itemOffset)^-itemExponent}.
     */
    public record Spec(String name, int users, int items, long nnz, int rank, double noise, double mean, int minDegree,
                       double userExponent, double userOffset, double itemExponent, double itemOffset) {
        /** The default degree shape: users {@code (j + 10)^-0.8}, items {@code (j + 10)^-0.9}. */
        public Spec(String name, int users, int items, long nnz, int rank, double noise, double mean, int minDegree) {
            this(name, users, items, nnz, rank, noise, mean, minDegree, 0.8, 10, 0.9, 10);
        }

        public Spec {
            if (!(userExponent >= 0 && userOffset > 0 && itemExponent >= 0 && itemOffset > 0)) {
                throw new IllegalArgumentException(name + ": degree exponents must be at least 0 and offsets positive");
            }
            if (users < 1 || items < 1) throw new IllegalArgumentException(name + ": needs at least one user and one item, got " + users + " x " + items);
            if (nnz < 1) throw new IllegalArgumentException(name + ": needs at least one rating, got " + nnz);
            if (nnz > (long) users * items / 2 + users) {
                throw new IllegalArgumentException(name + ": " + nnz + " ratings do not fit " + users + " x " + items + " with at most half the items per user");
            }
            if (nnz > Integer.MAX_VALUE - 64) throw new IllegalArgumentException(name + ": " + nnz + " ratings exceed 2^31");
            if (rank < 1) throw new IllegalArgumentException(name + ": planted rank must be at least 1, got " + rank);
            if (!(noise >= 0)) throw new IllegalArgumentException(name + ": noise must be at least 0, got " + noise);
        }

        /** This spec with another planted rank. */
        public Spec withRank(int r) {
            return new Spec(name, users, items, nnz, r, noise, mean, minDegree, userExponent, userOffset, itemExponent, itemOffset);
        }

        /** The RMSE floor on unseen ratings: the noise's standard deviation. */
        public double floor() {
            return noise;
        }
    }

    /** 2,000 users x 1,000 items, 600,000 ratings, planted rank 2, noise 0.5: the test preset (dense enough that a rank-2 model ends within 1% of the floor). */
    public static final Spec SMALL = new Spec("small", 2000, 1000, 600_000, 2, 0.5, 3.5, 40);
    /**
     * MovieLens-20M-shaped: 138,493 users x 26,744 items, 20,000,263 ratings, planted rank 16. Degrees calibrated to the
     * real data set (GroupLens' README: every user rated at least 20 films; the most rated film has ~67k ratings, 0.34%):
     * users {@code (j + 500)^-1}, items {@code (j + 110)^-1.8}, which give (sampling without repetition) the hottest item
     * ~0.35% of the ratings, item median ~65 against a mean of 748, user median ~64 (sparse/SGD.md, "Generator").
     */
    public static final Spec ML20M = new Spec("ml20m", 138_493, 26_744, 20_000_263, 16, 0.5, 3.5, 20, 1.0, 500, 1.8, 110);
    /**
     * Netflix-prize-shaped: 480,190 users x 17,771 items, 99,072,112 ratings, planted rank 32. Degrees calibrated to the
     * real data set's published statistics (100,480,507 ratings; most rated film ~233k = 0.23%; films' ratings mean
     * ~5,654, median ~561; users' mean ~209, median ~96): users {@code (j + 3000)^-0.9}, items {@code (j + 230)^-2.1},
     * which give the hottest item ~0.235% of the ratings, item median ~520, user median 96 (sparse/SGD.md, "Generator").
     * Users are capped at half the items (8,885; the real heaviest rated ~17.6k).
     */
    public static final Spec NETFLIX = new Spec("netflix", 480_190, 17_771, 99_072_112L, 32, 0.5, 3.6, 5, 0.9, 3000, 2.1, 230);

    /**
     * {@code small}, {@code ml20m}, {@code netflix} or {@code USERSxITEMSxNNZ[rRANK]} (planted rank 8 unless given,
     * noise 0.5; e.g. {@code 48019x1777x9907211r32} is the Netflix shape at a tenth).
     */
    public static Spec parse(String s) {
        String t = s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
        switch (t) {
            case "small": return SMALL;
            case "ml20m": return ML20M;
            case "netflix": return NETFLIX;
            default:
        }
        String[] p = t.split("x");
        if (p.length != 3) throw new IllegalArgumentException("--generate '" + s + "': expected small, ml20m, netflix or USERSxITEMSxNNZ[rRANK]");
        try {
            int users = Integer.parseInt(p[0]);
            int items = Integer.parseInt(p[1]);
            int cut = p[2].indexOf('r');
            long nnz = Long.parseLong(cut < 0 ? p[2] : p[2].substring(0, cut));
            int rank = cut < 0 ? 8 : Integer.parseInt(p[2].substring(cut + 1));
            return new Spec(t, users, items, nnz, rank, 0.5, 3.5, (int) Math.max(1, Math.min(20, nnz / Math.max(1, users) / 4)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--generate '" + s + "': USERS, ITEMS, NNZ and RANK must be integers");
        }
    }

    /** The ratings of {@code spec} from {@code seed}, grouped by user (users in index order). */
    public static Ratings generate(Spec spec, long seed) {
        return generate(spec, seed, null);
    }

    /** As {@link #generate(Spec, long)}, also returning the planted factors ({@code planted[0]} users, {@code [1]} items) when asked. */
    public static Ratings generate(Spec spec, long seed, float[][] planted) {
        int users = spec.users(), items = spec.items(), r = spec.rank();
        SplittableRandom root = new SplittableRandom(seed);
        long userSeed = root.nextLong(), itemSeed = root.nextLong(), degreeSeed = root.nextLong(), ratingSeed = root.nextLong();
        double scale = Math.pow(r, -0.25);                       // (scale^2)^2 r = 1: unit variance of the planted dot product
        float[] w = gaussianRows(users, r, scale, userSeed);
        float[] h = gaussianRows(items, r, scale, itemSeed);
        if (planted != null) {
            planted[0] = w;
            planted[1] = h;
        }
        int[] degree = degrees(spec, degreeSeed);
        long[] start = new long[users + 1];
        for (int u = 0; u < users; u++) start[u + 1] = start[u] + degree[u];
        int n = (int) start[users];
        double[] cdf = popularity(items, spec.itemExponent(), spec.itemOffset(), itemSeed ^ 0x5DEECE66DL);
        int[] user = new int[n];
        int[] item = new int[n];
        float[] value = new float[n];
        int blocks = Math.max(1, Math.min(users, 4 * Runtime.getRuntime().availableProcessors() * 16));
        IntStream.range(0, blocks).parallel().forEach(b -> {
            int u0 = (int) ((long) users * b / blocks), u1 = (int) ((long) users * (b + 1) / blocks);
            int[] mark = new int[items];
            java.util.Arrays.fill(mark, -1);
            for (int u = u0; u < u1; u++) {
                SplittableRandom rnd = new SplittableRandom(streamSeed(ratingSeed, u));
                int off = (int) start[u];
                int d = degree[u];
                int got = 0;
                long tries = 0;
                while (got < d && tries < 30L * d) {
                    int i = sample(cdf, rnd.nextDouble());
                    tries++;
                    if (mark[i] == u) continue;
                    mark[i] = u;
                    item[off + got++] = i;
                }
                for (int i = 0; got < d && i < items; i++) {       // heavy users with rare items left: fill in index order
                    if (mark[i] != u) {
                        mark[i] = u;
                        item[off + got++] = i;
                    }
                }
                java.util.Arrays.sort(item, off, off + d);
                for (int t = off; t < off + d; t++) {
                    int i = item[t];
                    double dot = 0;
                    for (int f = 0; f < r; f++) dot += (double) w[u * r + f] * h[i * r + f];
                    user[t] = u;
                    value[t] = (float) (spec.mean() + dot + spec.noise() * rnd.nextGaussian());
                }
            }
        });
        return Ratings.of(users, items, user, item, value);
    }

    private static float[] gaussianRows(int rows, int r, double scale, long seed) {
        float[] a = new float[rows * r];
        int blocks = Math.max(1, Math.min(rows, 256));
        IntStream.range(0, blocks).parallel().forEach(b -> {
            int r0 = (int) ((long) rows * b / blocks), r1 = (int) ((long) rows * (b + 1) / blocks);
            SplittableRandom rnd = new SplittableRandom(streamSeed(seed, b));
            for (int t = r0 * r; t < r1 * r; t++) a[t] = (float) (scale * rnd.nextGaussian());
        });
        return a;
    }

    /**
     * The seed of stream {@code index} of {@code seed}, mixed (Stafford's variant 13 of the MurmurHash3 finaliser).
     * Seeds that differ by multiples of SplittableRandom's own increment would give the same sequence shifted by one
     * draw per step of the index, so neighbouring users' noise and neighbouring blocks of planted factors would repeat.
     */
    static long streamSeed(long seed, long index) {
        long z = seed + 0x9E3779B97F4A7C15L * (index + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Ratings per user: power law over a seeded user order, at least minDegree, at most half the items (and the total near nnz). */
    static int[] degrees(Spec spec, long seed) {
        int users = spec.users();
        int cap = Math.max(1, spec.items() / 2);
        int floor = Math.min(spec.minDegree(), cap);
        double[] wgt = new double[users];
        double sum = 0;
        for (int j = 0; j < users; j++) sum += wgt[j] = Math.pow(j + spec.userOffset(), -spec.userExponent());
        long left = spec.nnz() - (long) floor * users;
        int[] byRank = new int[users];
        for (int j = 0; j < users; j++) byRank[j] = (int) Math.min(cap, floor + Math.max(0, Math.round(left * wgt[j] / sum)));
        // the capped users' surplus goes to the others in rank order, so the total stays near nnz
        long total = 0;
        for (int d : byRank) total += d;
        for (int j = 0; j < users && total < spec.nnz(); j++) {
            int add = (int) Math.min(cap - byRank[j], spec.nnz() - total);
            byRank[j] += add;
            total += add;
        }
        int[] perm = permutation(users, seed);
        int[] d = new int[users];
        for (int j = 0; j < users; j++) d[perm[j]] = byRank[j];
        return d;
    }

    /** Cumulative item popularity, power law over a seeded item order. */
    private static double[] popularity(int items, double exponent, double offset, long seed) {
        int[] perm = permutation(items, seed);
        double[] p = new double[items];
        for (int j = 0; j < items; j++) p[perm[j]] = Math.pow(j + offset, -exponent);
        double[] cdf = new double[items];
        double s = 0;
        for (int i = 0; i < items; i++) cdf[i] = s += p[i];
        for (int i = 0; i < items; i++) cdf[i] /= s;
        return cdf;
    }

    private static int sample(double[] cdf, double x) {
        int lo = 0, hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < x) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** A seeded random permutation of 0..n-1 (Fisher-Yates). */
    static int[] permutation(int n, long seed) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
