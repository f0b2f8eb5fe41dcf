package dev.squall.linalg.reference;

/**
 * Plain-Java Cholesky factorisation {@code A = L L^T}: the unblocked, sequential reference
 * that Squall's device Cholesky kernels are checked against.
 *
 * <p>Matrices are dense, square and column-major: entry {@code (i, j)} of an {@code n x n}
 * matrix is {@code a[i + j * n]}. Only the lower triangle of {@code A} is read.
 *
 * <pre>{@code
 * double[] a = {4, 2,    // column 0
 *               2, 3};   // column 1
 * double[] l = ReferenceCholesky.factor(2, a);   // {2, 1, 0, sqrt(2)}
 * }</pre>
 */
public final class ReferenceCholesky {
    private ReferenceCholesky() {
    }

    /**
     * Returns the lower-triangular factor {@code L} of {@code A}, column-major, with zeros
     * above the diagonal. {@code a} is not modified.
     *
     * @throws NotPositiveDefiniteException naming the first pivot that is not positive
     * @throws IllegalArgumentException     if {@code a.length != n * n}
     */
    public static double[] factor(int n, double[] a) {
        double[] l = a.clone();
        factorInPlace(n, l);
        return l;
    }

    /**
     * Overwrites {@code a} with {@code L} (lower triangle) and zeros above the diagonal.
     * On failure the columns before the failing pivot hold their part of {@code L}.
     *
     * @throws NotPositiveDefiniteException naming the first pivot that is not positive
     * @throws IllegalArgumentException     if {@code a.length != n * n}
     */
    public static void factorInPlace(int n, double[] a) {
        if (n < 0 || a.length != (long) n * n) {
            throw new IllegalArgumentException("need an n x n array: n=" + n + ", length=" + a.length);
        }
        for (int j = 0; j < n; j++) {
            int cj = j * n;
            double d = a[j + cj];
            for (int k = 0; k < j; k++) {
                double ljk = a[j + k * n];
                d -= ljk * ljk;
            }
            if (!(d > 0)) {
                throw new NotPositiveDefiniteException(j, d);
            }
            double ljj = Math.sqrt(d);
            a[j + cj] = ljj;
            for (int i = j + 1; i < n; i++) {
                double s = a[i + cj];
                for (int k = 0; k < j; k++) {
                    s -= a[i + k * n] * a[j + k * n];
                }
                a[i + cj] = s / ljj;
            }
            for (int i = 0; i < j; i++) {
                a[i + cj] = 0;
            }
        }
    }
}
