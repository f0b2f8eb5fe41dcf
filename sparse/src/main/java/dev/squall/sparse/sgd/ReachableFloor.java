package dev.squall.sparse.sgd;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The test RMSE reachable on generated data: what the Bayes-optimal predictor gets when it knows the planted item
 * factors {@code H*} and the generator's prior and noise, and must estimate each user's factors from that user's
 * training ratings only. No trainer can beat it in expectation (it knows more than any trainer), so it, not the noise,
 * is the floor convergence is judged against.
 *
 * <p>With {@code w*_u ~ N(0, s^2 I_r)} and {@code r = mean + w*_u . h*_i + N(0, sigma^2)}, the posterior mean of
 * {@code w_u} given the user's {@code n} training ratings {@code y} and rows {@code X} of {@code H*} is the ridge
 * solution {@code (X^T X + (sigma^2 / s^2) I)^-1 X^T (y - mean)}; its expected test error is
 * {@code sigma^2 (1 + h^T (X^T X + (sigma^2/s^2) I)^-1 h)}, which is about {@code sigma^2 (1 + r / n)} for
 * {@code n >> r}. Test ratings are drawn in proportion to a user's degree, so the excess averaged over test ratings is
 * about {@code sigma^2 r * users / ratings} (Netflix shape: 0.25 * 32 * 480,190 / 89.2M = 0.043, RMSE 0.541). The
 * item side's estimation error ({@code sigma^2 r * items / ratings}, 0.0016 there) is left out, so this is a lower
 * bound on what training with unknown {@code H*} reaches.
 *
 * <p>Cost: {@code r^2 / 2} multiply-adds per training rating of the users measured; above {@code maxUsers} users a
 * seeded uniform sample of users is measured and the RMSE is the ratio of their squared errors to their test count.
 */
public final class ReachableFloor {
    private ReachableFloor() {
    }

    /**
     * The reachable test RMSE for {@code test} given {@code train} (both from {@link RatingsGenerator#generate(
     * RatingsGenerator.Spec, long, float[][])} of {@code spec}, whose {@code plantedItems} are its item factors,
     * {@code items x spec.rank()}), over all users or a seeded sample of {@code maxUsers} of them.
     */
    public static double rmse(RatingsGenerator.Spec spec, float[] plantedItems, Ratings train, Ratings test, int maxUsers, long seed) {
        int users = train.users(), r = spec.rank();
        if (plantedItems.length != (long) train.items() * r) {
            throw new IllegalArgumentException("planted item factors hold " + plantedItems.length + " values, expected " + train.items() + " x " + r);
        }
        if (test.size() == 0) return Double.NaN;
        int[] sample = users <= maxUsers ? identity(users) : Arrays.copyOf(RatingsGenerator.permutation(users, seed), maxUsers);
        Arrays.sort(sample);
        int[] trainPtr = new int[users + 1], testPtr = new int[users + 1];
        int[] trainByUser = byUser(train, trainPtr), testByUser = byUser(test, testPtr);
        double priorVar = Math.pow(r, -0.5);                     // the generator's feature scale r^-1/4, squared
        double ridge = spec.noise() * spec.noise() / priorVar;
        double mean = spec.mean();
        double[] sums = IntStream.range(0, sample.length).parallel().mapToObj(j -> {
            int u = sample[j];
            double[] a = new double[r * r], b = new double[r], h = new double[r];
            for (int p = trainPtr[u]; p < trainPtr[u + 1]; p++) {
                int e = trainByUser[p], i = train.item(e);
                for (int f = 0; f < r; f++) h[f] = plantedItems[i * r + f];
                double y = train.value(e) - mean;
                for (int f = 0; f < r; f++) {
                    b[f] += h[f] * y;
                    for (int g = 0; g <= f; g++) a[f * r + g] += h[f] * h[g];
                }
            }
            for (int f = 0; f < r; f++) a[f * r + f] += ridge;
            solveCholesky(a, b, r);
            double sse = 0;
            for (int p = testPtr[u]; p < testPtr[u + 1]; p++) {
                int e = testByUser[p], i = test.item(e);
                double pred = mean;
                for (int f = 0; f < r; f++) pred += b[f] * plantedItems[i * r + f];
                double d = test.value(e) - pred;
                sse += d * d;
            }
            return new double[] {sse, testPtr[u + 1] - testPtr[u]};
        }).reduce(new double[2], (x, y) -> new double[] {x[0] + y[0], x[1] + y[1]});
        return sums[1] == 0 ? Double.NaN : Math.sqrt(sums[0] / sums[1]);
    }

    /** Solves {@code A x = b} in place ({@code b} becomes {@code x}) for symmetric positive definite {@code A}, lower triangle given. */
    static void solveCholesky(double[] a, double[] b, int n) {
        for (int j = 0; j < n; j++) {
            double d = a[j * n + j];
            for (int q = 0; q < j; q++) d -= a[j * n + q] * a[j * n + q];
            d = Math.sqrt(d);
            a[j * n + j] = d;
            for (int i = j + 1; i < n; i++) {
                double s = a[i * n + j];
                for (int q = 0; q < j; q++) s -= a[i * n + q] * a[j * n + q];
                a[i * n + j] = s / d;
            }
        }
        for (int i = 0; i < n; i++) {
            double s = b[i];
            for (int q = 0; q < i; q++) s -= a[i * n + q] * b[q];
            b[i] = s / a[i * n + i];
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = b[i];
            for (int q = i + 1; q < n; q++) s -= a[q * n + i] * b[q];
            b[i] = s / a[i * n + i];
        }
    }

    /** Rating indices grouped by user; {@code ptr} gets the user offsets. */
    private static int[] byUser(Ratings x, int[] ptr) {
        for (int e = 0; e < x.size(); e++) ptr[x.user(e) + 1]++;
        for (int u = 0; u + 1 < ptr.length; u++) ptr[u + 1] += ptr[u];
        int[] next = Arrays.copyOf(ptr, ptr.length - 1);
        int[] out = new int[x.size()];
        for (int e = 0; e < x.size(); e++) out[next[x.user(e)]++] = e;
        return out;
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        return a;
    }
}
