package dev.squall.linalg.cli;

import dev.squall.linalg.plan.Precision;
import dev.squall.tasks.api.KernelArray;

import java.util.SplittableRandom;

/**
 * Residuals estimated with random probe vectors in O(n^2) per matrix, so they stay cheap for
 * n = 32768: {@code max_v |L (L^T v) - A v| / |A v|} and {@code max_v |L (X v) - v| / |v|}.
 */
final class Probes {
    static final int PROBES = 3;

    private Probes() {
    }

    static double cholesky(int n, int batch, KernelArray l, KernelArray a) {
        double worst = 0;
        SplittableRandom rnd = new SplittableRandom(7);
        for (int e = 0; e < batch; e++) {
            int base = e * n * n;
            for (int p = 0; p < PROBES; p++) {
                double[] v = rnd.doubles(n, -1, 1).toArray();
                double[] ltv = lowerT(n, l, base, v), llt = lower(n, l, base, ltv), av = full(n, a, base, v);
                worst = Math.max(worst, dist(llt, av) / norm(av));
            }
        }
        return worst;
    }

    static double inverse(int n, int batch, KernelArray l, KernelArray x) {
        double worst = 0;
        SplittableRandom rnd = new SplittableRandom(7);
        for (int e = 0; e < batch; e++) {
            int base = e * n * n;
            for (int p = 0; p < PROBES; p++) {
                double[] v = rnd.doubles(n, -1, 1).toArray();
                double[] lxv = lower(n, l, base, lower(n, x, base, v));
                worst = Math.max(worst, dist(lxv, v) / norm(v));
            }
        }
        return worst;
    }

    /** Lower triangle of m times v. */
    private static double[] lower(int n, KernelArray m, int base, double[] v) {
        double[] r = new double[n];
        java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
            double s = 0;
            for (int k = 0; k <= i; k++) s += Precision.get(m, base + i + k * n) * v[k];
            r[i] = s;
        });
        return r;
    }

    /** Transpose of the lower triangle of m times v. */
    private static double[] lowerT(int n, KernelArray m, int base, double[] v) {
        double[] r = new double[n];
        java.util.stream.IntStream.range(0, n).parallel().forEach(j -> {
            double s = 0;
            for (int i = j; i < n; i++) s += Precision.get(m, base + i + j * n) * v[i];
            r[j] = s;
        });
        return r;
    }

    private static double[] full(int n, KernelArray m, int base, double[] v) {
        double[] r = new double[n];
        java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
            double s = 0;
            for (int k = 0; k < n; k++) s += Precision.get(m, base + i + k * n) * v[k];
            r[i] = s;
        });
        return r;
    }

    private static double dist(double[] x, double[] y) {
        double s = 0;
        for (int i = 0; i < x.length; i++) s += (x[i] - y[i]) * (x[i] - y[i]);
        return Math.sqrt(s);
    }

    private static double norm(double[] x) {
        double s = 0;
        for (double v : x) s += v * v;
        return Math.sqrt(s);
    }
}
