package dev.squall.permanent.matrix;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketException;
import dev.squall.sparse.io.MatrixMarketReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A dense real square matrix, row-major: entry {@code (i, j)} is {@code values[i * n + j]}.
 * Immutable; the array is copied in and out.
 *
 * <pre>{@code
 * SquareMatrix a = SquareMatrix.of(2, new double[] {1, 2, 3, 4});
 * double a01 = a.get(0, 1); // 2
 * SquareMatrix b = SquareMatrix.read(Path.of("bcsstk01.mtx"));
 * }</pre>
 */
public final class SquareMatrix {
    /** The largest order read from a file or generated from a spec: its dense array alone takes 128 MiB. */
    public static final int MAX_INPUT_ORDER = 4096;

    private final int n;
    private final double[] values;

    private SquareMatrix(int n, double[] values) {
        this.n = n;
        this.values = values;
    }

    /**
     * @throws IllegalArgumentException when {@code n < 0}, the length is not {@code n * n},
     *                                  or an entry is not finite
     */
    public static SquareMatrix of(int n, double[] rowMajor) {
        if (n < 0) throw new IllegalArgumentException("matrix order must be >= 0, got " + n);
        if (rowMajor.length != (long) n * n) {
            throw new IllegalArgumentException("need n*n = " + ((long) n * n) + " entries for n = " + n + ", got " + rowMajor.length);
        }
        checkFinite(n, rowMajor);
        return new SquareMatrix(n, rowMajor.clone());
    }

    private static void checkFinite(int n, double[] rowMajor) {
        for (int k = 0; k < rowMajor.length; k++) {
            if (!Double.isFinite(rowMajor[k])) {
                throw new IllegalArgumentException("entry (" + (k / n) + ", " + (k % n) + ") is " + rowMajor[k] + "; entries must be finite");
            }
        }
    }

    /**
     * Reads a Matrix Market file with the reader every Squall module shares ({@link MatrixMarketReader}: coordinate
     * or array; real, integer or pattern; general, symmetric or skew-symmetric). Its size line is checked before any
     * entry is read: the matrix must be square, of order 1 to {@value #MAX_INPUT_ORDER}.
     *
     * @throws MatrixMarketException naming the file and line of what is wrong (a missing file or a directory too)
     */
    public static SquareMatrix read(Path file) throws IOException {
        return fromCsr(MatrixMarketReader.read(file, (rows, cols) -> {
            if (rows != cols) throw new IllegalArgumentException("the matrix is " + rows + " x " + cols + "; a permanent needs a square matrix");
            if (rows == 0) throw new IllegalArgumentException("the matrix is empty (0 x 0)");
            if (rows > MAX_INPUT_ORDER) throw new IllegalArgumentException("order " + rows + " is larger than " + MAX_INPUT_ORDER);
        }));
    }

    /**
     * The dense form of a square sparse matrix (absent entries are 0).
     *
     * @throws IllegalArgumentException when {@code a} is not square or an entry is not finite
     */
    public static SquareMatrix fromCsr(CsrMatrix a) {
        if (a.rows() != a.cols()) throw new IllegalArgumentException("the matrix is " + a.rows() + " x " + a.cols() + ", not square");
        double[] dense = a.toDense();
        checkFinite(a.rows(), dense);
        return new SquareMatrix(a.rows(), dense);
    }

    public int n() {
        return n;
    }

    public double get(int i, int j) {
        return values[i * n + j];
    }

    /** A copy of the row-major values. */
    public double[] rowMajor() {
        return values.clone();
    }

    /** A copy of the values in column-major order: entry {@code (i, j)} at {@code j * n + i}. */
    public double[] columnMajor() {
        double[] c = new double[values.length];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) c[j * n + i] = values[i * n + j];
        return c;
    }

    /** Number of nonzero entries. */
    public int nonzeros() {
        int nz = 0;
        for (double v : values) if (v != 0) nz++;
        return nz;
    }

    /** True when every entry is 0 or 1 (the permanent then counts perfect matchings). */
    public boolean isBinary() {
        for (double v : values) if (v != 0 && v != 1) return false;
        return true;
    }

    /** The matrix with rows and columns reordered: result(i, j) = this(rows[i], cols[j]). */
    /** The sparsity pattern: 1 where this matrix has a nonzero, else 0 (a 0/1 matrix for the exact paths). */
    public SquareMatrix pattern() {
        double[] v = rowMajor();
        for (int k = 0; k < v.length; k++) v[k] = v[k] != 0 ? 1 : 0;
        return SquareMatrix.of(n(), v);
    }

    public SquareMatrix permute(int[] rows, int[] cols) {
        double[] v = new double[values.length];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = values[rows[i] * n + cols[j]];
        return new SquareMatrix(n, v);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SquareMatrix m && m.n == n && Arrays.equals(m.values, values);
    }

    @Override
    public int hashCode() {
        return 31 * n + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return n + "x" + n + " matrix, " + nonzeros() + " nonzeros";
    }
}
