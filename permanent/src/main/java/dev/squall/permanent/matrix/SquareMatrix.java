package dev.squall.permanent.matrix;

import java.util.Arrays;

/**
 * A dense real square matrix, row-major: entry {@code (i, j)} is {@code values[i * n + j]}.
 * Immutable; the array is copied in and out.
 *
 * <pre>{@code
 * SquareMatrix a = SquareMatrix.of(2, new double[] {1, 2, 3, 4});
 * double a01 = a.get(0, 1); // 2
 * }</pre>
 */
public final class SquareMatrix {
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
        for (int k = 0; k < rowMajor.length; k++) {
            if (!Double.isFinite(rowMajor[k])) {
                throw new IllegalArgumentException("entry (" + (k / n) + ", " + (k % n) + ") is " + rowMajor[k] + "; entries must be finite");
            }
        }
        return new SquareMatrix(n, rowMajor.clone());
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
