package dev.squall.linalg.testing;

import java.util.SplittableRandom;

/** Test inputs: random column-major matrices with fixed seeds, SPD matrices with chosen conditioning. */
public final class Matrices {
    private Matrices() {
    }

    public static double[] random(SplittableRandom rnd, int len) {
        return rnd.doubles(len, -1, 1).toArray();
    }

    /** A random SPD n x n matrix {@code G G^T / n + shift I}, conditioning set by {@code shift}. */
    public static double[] spd(SplittableRandom rnd, int n, double shift) {
        double[] g = random(rnd, n * n);
        double[] a = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double s = 0;
                for (int p = 0; p < n; p++) s += g[i + p * n] * g[j + p * n];
                a[i + j * n] = a[j + i * n] = s / n + (i == j ? shift : 0);
            }
        }
        return a;
    }

    /** Relative Frobenius-norm distance {@code ||x - y|| / ||y||}. */
    public static double relError(double[] x, double[] y) {
        double num = 0, den = 0;
        for (int i = 0; i < x.length; i++) {
            num += (x[i] - y[i]) * (x[i] - y[i]);
            den += y[i] * y[i];
        }
        return Math.sqrt(num / den);
    }
}
