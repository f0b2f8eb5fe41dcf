package dev.squall.linalg.testing;

import dev.squall.linalg.reference.ReferenceQr;

import java.util.SplittableRandom;

/** Plain dense helpers for QR and SVD checks: products, orthogonality, matrices with a chosen spectrum. */
public final class Dense {
    private Dense() {
    }

    /** {@code (m x k) * (k x n)}, column-major; with {@code transA} A is given as {@code k x m}. */
    public static double[] multiply(boolean transA, int m, int n, int k, double[] a, double[] b) {
        double[] c = new double[m * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += (transA ? a[p + i * k] : a[i + p * m]) * b[p + j * k];
                c[i + j * m] = s;
            }
        }
        return c;
    }

    public static double frobenius(double[] a) {
        double s = 0;
        for (double x : a) s += x * x;
        return Math.sqrt(s);
    }

    /** {@code ||Q^T Q - I||_F} for the {@code m x k} column-major {@code q}. */
    public static double orthogonality(int m, int k, double[] q) {
        double[] g = multiply(true, k, k, m, q, q);
        for (int i = 0; i < k; i++) g[i + i * k] -= 1;
        return frobenius(g);
    }

    /** A random {@code m x k} matrix with orthonormal columns (Q of a random matrix's QR). */
    public static double[] orthonormal(SplittableRandom rnd, int m, int k) {
        return ReferenceQr.factor(m, k, Matrices.random(rnd, m * k)).q();
    }

    /** {@code U diag(sigma) V^T} with random orthonormal U ({@code m x k}) and V ({@code n x k}), {@code k = sigma.length}. */
    public static double[] withSpectrum(SplittableRandom rnd, int m, int n, double[] sigma) {
        int k = sigma.length;
        double[] u = orthonormal(rnd, m, k), v = orthonormal(rnd, n, k);
        double[] a = new double[m * n];
        for (int p = 0; p < k; p++) {
            for (int j = 0; j < n; j++) {
                double f = sigma[p] * v[j + p * n];
                for (int i = 0; i < m; i++) a[i + j * m] += u[i + p * m] * f;
            }
        }
        return a;
    }

    /** Matrix {@code e} of a packed batch of {@code len}-element matrices. */
    public static double[] slice(double[] all, int e, int len) {
        return java.util.Arrays.copyOfRange(all, e * len, (e + 1) * len);
    }

    public static double[] pack(double[]... ms) {
        int len = ms[0].length;
        double[] all = new double[len * ms.length];
        for (int e = 0; e < ms.length; e++) System.arraycopy(ms[e], 0, all, e * len, len);
        return all;
    }
}
