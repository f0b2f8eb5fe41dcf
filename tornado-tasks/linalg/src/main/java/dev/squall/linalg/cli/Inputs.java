package dev.squall.linalg.cli;

import dev.squall.cli.Sizes;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketReader;
import java.io.IOException;
import java.nio.file.Path;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Random inputs for the commands: Gaussian-process covariances of random 3-D point clouds
 * ({@code exp(-|x_i - x_j|^2 / 2 l^2) + nugget * delta_ij}, built in O(n^2) so n = 32768 is quick)
 * and well-conditioned lower-triangular matrices. Written straight into off-heap arrays: at
 * n = 32768 a heap copy would need a 9 GB Java heap.
 */
final class Inputs {
    /** A square matrix read from a Matrix Market file: its order and its entries, column-major. */
    record FileMatrix(int n, double[] columnMajor) {
    }

    /**
     * The square matrix in {@code file} (Matrix Market, coordinate or array; symmetric files expanded). Bad input
     * naming the file when it cannot be read or is not square.
     */
    static FileMatrix read(Path file) throws IOException {
        CsrMatrix m = MatrixMarketReader.read(file);
        if (m.rows() != m.cols()) throw new IllegalArgumentException("--matrix " + file + ": " + m.rows() + " x " + m.cols() + " is not square");
        int n = m.rows();
        double[] a = new double[Sizes.intElements("--matrix " + file + ": n^2", n, n)];
        for (int i = 0; i < n; i++) for (int k = m.rowStart(i); k < m.rowStart(i + 1); k++) a[i + m.colIndex(k) * n] = m.value(k);
        return new FileMatrix(n, a);
    }

    /** Bad input naming the first entry where {@code a} is not symmetric (Cholesky reads only the lower triangle). */
    static void requireSymmetric(Path file, FileMatrix a) {
        int n = a.n();
        for (int j = 0; j < n; j++) {
            for (int i = j + 1; i < n; i++) {
                double lo = a.columnMajor()[i + j * n], up = a.columnMajor()[j + i * n];
                if (Math.abs(lo - up) > 1e-12 * Math.max(Math.abs(lo), Math.abs(up))) {
                    throw new IllegalArgumentException("--matrix " + file + ": not symmetric: entry (" + (i + 1) + ", " + (j + 1) + ") is " + lo
                            + " but (" + (j + 1) + ", " + (i + 1) + ") is " + up + " (Cholesky needs a symmetric positive definite matrix)");
                }
            }
        }
    }

    /** Bad input naming the first entry above the diagonal (trinv inverts lower-triangular matrices). */
    static void requireLower(Path file, FileMatrix a) {
        int n = a.n();
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                if (a.columnMajor()[i + j * n] != 0) {
                    throw new IllegalArgumentException("--matrix " + file + ": entry (" + (i + 1) + ", " + (j + 1) + ") = " + a.columnMajor()[i + j * n]
                            + " is above the diagonal (trinv inverts lower-triangular matrices)");
                }
            }
        }
    }

    static final double LENGTH_SCALE = 0.3, NUGGET = 0.1;

    private Inputs() {
    }

    /** {@code batch} covariance matrices of order n, packed column-major. */
    static KernelArray covariances(Precision p, int n, int batch, long seed) {
        KernelArray a = p.allocate(Sizes.intElements("--batch x --n^2", batch, n, n));
        IntStream.range(0, batch).parallel().forEach(e -> {
            SplittableRandom rnd = new SplittableRandom(seed + e);
            double[] x = rnd.doubles(3L * n, 0, 1).toArray();
            fill(a, e * n * n, n, x);
        });
        return a;
    }

    private static void fill(KernelArray a, int base, int n, double[] x) {
        IntStream.range(0, n).parallel().forEach(j -> {
            for (int i = 0; i < n; i++) {
                double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1], dz = x[3 * i + 2] - x[3 * j + 2];
                set(a, base + i + j * n, Math.exp(-(dx * dx + dy * dy + dz * dz) / (2 * LENGTH_SCALE * LENGTH_SCALE)) + (i == j ? NUGGET : 0));
            }
        });
    }

    /** {@code batch} lower-triangular matrices: diagonal in [1, 2], off-diagonal in [-1, 1] / n (condition number O(1)). */
    static KernelArray lowerTriangular(Precision p, int n, int batch, long seed) {
        KernelArray l = p.allocate(Sizes.intElements("--batch x --n^2", batch, n, n));
        IntStream.range(0, batch).parallel().forEach(e -> {
            SplittableRandom rnd = new SplittableRandom(seed + e);
            for (int j = 0; j < n; j++) {
                set(l, e * n * n + j + j * n, 1 + rnd.nextDouble());
                for (int i = j + 1; i < n; i++) set(l, e * n * n + i + j * n, rnd.nextDouble(-1, 1) / n);
            }
        });
        return l;
    }

    private static void set(KernelArray a, int i, double v) {
        if (a instanceof DoubleArray d) d.set(i, v);
        else ((FloatArray) a).set(i, (float) v);
    }
}
