package dev.squall.linalg.cli;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Residuals estimated with random probe vectors in O(n^2) per matrix, so they stay cheap for
 * n = 32768: {@code max_v |L (L^T v) - A v| / |A v|} and {@code max_v |L (X v) - v| / |v|}.
 */
final class Probes {
    static final int PROBES = 3;

    private Probes() {
    }

    /** One probe's relative residual for the matrix at {@code base}. */
    private interface Residual {
        double of(int base, double[] v);
    }

    static double cholesky(int n, int batch, KernelArray l, KernelArray a) {
        return worst(n, batch, (base, v) -> {
            double[] llt = times(n, l, base, times(n, l, base, v, Part.LOWER_TRANSPOSED), Part.LOWER);
            double[] av = times(n, a, base, v, Part.FULL);
            return dist(llt, av) / norm(av);
        });
    }

    static double inverse(int n, int batch, KernelArray l, KernelArray x) {
        return worst(n, batch, (base, v) -> dist(times(n, l, base, times(n, x, base, v, Part.LOWER), Part.LOWER), v) / norm(v));
    }

    private static double worst(int n, int batch, Residual residual) {
        double worst = 0;
        SplittableRandom rnd = new SplittableRandom(7);
        for (int e = 0; e < batch; e++) {
            for (int p = 0; p < PROBES; p++) worst = Math.max(worst, residual.of(e * n * n, rnd.doubles(n, -1, 1).toArray()));
        }
        return worst;
    }

    /** Which part of the column-major n x n matrix multiplies v. */
    private enum Part { FULL, LOWER, LOWER_TRANSPOSED }

    private static double[] times(int n, KernelArray m, int base, double[] v, Part part) {
        double[] r = new double[n];
        IntStream.range(0, n).parallel().forEach(i -> {
            int from = part == Part.LOWER_TRANSPOSED ? i : 0, to = part == Part.LOWER ? i + 1 : n;
            double s = 0;
            for (int k = from; k < to; k++) s += Precision.get(m, part == Part.LOWER_TRANSPOSED ? base + k + i * n : base + i + k * n) * v[k];
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
