package dev.squall.sparse.format;

import java.util.Arrays;

/**
 * An immutable sparse matrix in compressed sparse row (CSR) form, double precision.
 *
 * <p>Row {@code i} holds the entries {@code k} in {@code rowPtr[i] <= k < rowPtr[i + 1]},
 * with column {@code colIdx[k]} and value {@code values[k]}. Columns are strictly
 * increasing within a row (no duplicates); empty rows are allowed. Accessors that return
 * arrays return copies.
 *
 * <pre>{@code
 * // [ 1 0 2 ]
 * // [ 0 0 0 ]
 * // [ 0 3 0 ]
 * CsrMatrix a = CsrMatrix.fromCoo(3, 3,
 *         new int[] {0, 2, 0},
 *         new int[] {2, 1, 0},
 *         new double[] {2, 3, 1});
 * a.rowPtr();   // {0, 2, 2, 3}
 * a.colIdx();   // {0, 2, 1}
 * }</pre>
 */
public final class CsrMatrix {
    private final int rows;
    private final int cols;
    private final int[] rowPtr;
    private final int[] colIdx;
    private final double[] values;

    private CsrMatrix(int rows, int cols, int[] rowPtr, int[] colIdx, double[] values) {
        this.rows = rows;
        this.cols = cols;
        this.rowPtr = rowPtr;
        this.colIdx = colIdx;
        this.values = values;
    }

    /**
     * Builds a CSR matrix from coordinate (COO) triplets in any order. Entries that share a
     * position are summed (a sum of zero is kept as an explicit entry); columns are sorted
     * within each row. The input arrays are not modified or retained.
     *
     * @throws IllegalArgumentException if the arrays differ in length, a dimension is negative,
     *                                  or an index lies outside the matrix
     */
    public static CsrMatrix fromCoo(int rows, int cols, int[] rowIdx, int[] colIdx, double[] values) {
        int m = rowIdx.length;
        if (colIdx.length != m || values.length != m) {
            throw new IllegalArgumentException("COO arrays differ in length: rows " + m
                    + ", cols " + colIdx.length + ", values " + values.length);
        }
        return fromCoo(rows, cols, rowIdx, colIdx, values, m);
    }

    /**
     * Builds a CSR matrix from the first {@code triplets} triplets of the arrays (which may be longer,
     * as a growing buffer is), by the rules of {@link #fromCoo(int, int, int[], int[], double[])}.
     *
     * @throws IllegalArgumentException if an array is shorter than {@code count}, a dimension is
     *                                  negative, or an index lies outside the matrix
     */
    public static CsrMatrix fromCoo(int rows, int cols, int[] rowIdx, int[] colIdx, double[] values, int triplets) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("negative dimension: " + rows + " x " + cols);
        }
        int m = triplets;
        if (m < 0 || rowIdx.length < m || colIdx.length < m || values.length < m) {
            throw new IllegalArgumentException("COO arrays hold rows " + rowIdx.length + ", cols " + colIdx.length
                    + ", values " + values.length + ", fewer than the " + triplets + " triplets asked for");
        }
        int[] count = new int[rows + 1];
        for (int t = 0; t < m; t++) {
            int r = rowIdx[t];
            int c = colIdx[t];
            if (r < 0 || r >= rows || c < 0 || c >= cols) {
                throw new IllegalArgumentException("entry " + t + " at (" + r + ", " + c
                        + ") lies outside a " + rows + " x " + cols + " matrix");
            }
            count[r + 1]++;
        }
        for (int i = 0; i < rows; i++) {
            count[i + 1] += count[i];
        }
        // Bucket the triplets by row (stable), then sort and merge each row by column.
        int[] next = Arrays.copyOf(count, rows);
        int[] c0 = new int[m];
        double[] v0 = new double[m];
        for (int t = 0; t < m; t++) {
            int k = next[rowIdx[t]]++;
            c0[k] = colIdx[t];
            v0[k] = values[t];
        }
        int[] ptr = new int[rows + 1];
        int[] c1 = new int[m];
        double[] v1 = new double[m];
        int[] order = new int[0];
        long[] scratch = new long[0];
        int out = 0;
        for (int i = 0; i < rows; i++) {
            int start = count[i];
            int len = count[i + 1] - start;
            if (order.length < len) {
                order = new int[Math.max(len, 2 * order.length)];
                scratch = new long[order.length];
            }
            sortRow(c0, start, len, scratch, order);
            int last = -1;
            int rowStart = out;
            for (int q = 0; q < len; q++) {
                int k = start + order[q];
                if (out > rowStart && c0[k] == last) {
                    v1[out - 1] += v0[k];
                } else {
                    c1[out] = c0[k];
                    v1[out] = v0[k];
                    last = c0[k];
                    out++;
                }
            }
            ptr[i + 1] = out;
        }
        return new CsrMatrix(rows, cols, ptr, Arrays.copyOf(c1, out), Arrays.copyOf(v1, out));
    }

    /**
     * Builds a CSR matrix from its three arrays, which are copied. Columns must be strictly
     * increasing within each row.
     *
     * <pre>{@code
     * CsrMatrix a = CsrMatrix.of(2, 3, new int[] {0, 1, 3}, new int[] {2, 0, 1}, new double[] {5, 6, 7});
     * }</pre>
     *
     * @throws IllegalArgumentException naming the first row or entry that breaks the rules
     */
    public static CsrMatrix of(int rows, int cols, int[] rowPtr, int[] colIdx, double[] values) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("negative dimension: " + rows + " x " + cols);
        }
        if (rowPtr.length != rows + 1 || rowPtr[0] != 0) {
            throw new IllegalArgumentException("row pointers must have " + (rows + 1) + " entries starting at 0");
        }
        int nnz = rowPtr[rows];
        if (colIdx.length < nnz || values.length < nnz) {
            throw new IllegalArgumentException("row pointers end at " + nnz + " but there are " + colIdx.length
                    + " columns and " + values.length + " values");
        }
        for (int i = 0; i < rows; i++) {
            if (rowPtr[i + 1] < rowPtr[i]) {
                throw new IllegalArgumentException("row pointers decrease at row " + i);
            }
            for (int k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
                int c = colIdx[k];
                if (c < 0 || c >= cols) {
                    throw new IllegalArgumentException("entry " + k + " of row " + i + " has column " + c
                            + " outside 0.." + (cols - 1));
                }
                if (k > rowPtr[i] && colIdx[k - 1] >= c) {
                    throw new IllegalArgumentException("columns of row " + i + " are not strictly increasing at entry " + k);
                }
            }
        }
        return new CsrMatrix(rows, cols, rowPtr.clone(), Arrays.copyOf(colIdx, nnz), Arrays.copyOf(values, nnz));
    }

    /** True when both matrices have the same shape, pattern and values (bit for bit). */
    public boolean sameAs(CsrMatrix o) {
        if (rows != o.rows || cols != o.cols || !Arrays.equals(rowPtr, o.rowPtr) || !Arrays.equals(colIdx, o.colIdx)) {
            return false;
        }
        for (int k = 0; k < values.length; k++) {
            if (Double.doubleToLongBits(values[k]) != Double.doubleToLongBits(o.values[k])) return false;
        }
        return true;
    }

    /** Number of entries in row {@code i}. */
    public int rowLength(int i) {
        return rowPtr[i + 1] - rowPtr[i];
    }

    /** Fills order[0..len) with offsets into c[start..start+len) sorted by column, stably. */
    private static void sortRow(int[] c, int start, int len, long[] scratch, int[] order) {
        // key = column in the high half, input position in the low half: sorting the keys
        // sorts by column and keeps duplicates in input order (sums are reproducible)
        for (int q = 0; q < len; q++) {
            scratch[q] = ((long) c[start + q] << 32) | q;
        }
        Arrays.sort(scratch, 0, len);
        for (int q = 0; q < len; q++) {
            order[q] = (int) scratch[q];
        }
    }

    /** Number of rows. */
    public int rows() {
        return rows;
    }

    /** Number of columns. */
    public int cols() {
        return cols;
    }

    /** Number of stored entries. */
    public int nnz() {
        return values.length;
    }

    /** A copy of the row pointers, length {@code rows() + 1}. */
    public int[] rowPtr() {
        return rowPtr.clone();
    }

    /** A copy of the column indices, length {@code nnz()}. */
    public int[] colIdx() {
        return colIdx.clone();
    }

    /** A copy of the values, length {@code nnz()}. */
    public double[] values() {
        return values.clone();
    }

    /** Index of the first entry of row {@code i}; {@code rowStart(rows())} is {@code nnz()}. */
    public int rowStart(int i) {
        return rowPtr[i];
    }

    /** Column of entry {@code k}. */
    public int colIndex(int k) {
        return colIdx[k];
    }

    /** Value of entry {@code k}. */
    public double value(int k) {
        return values[k];
    }

    /** The matrix as a dense row-major array, {@code rows() * cols()} long. */
    public double[] toDense() {
        double[] d = new double[Math.multiplyExact(rows, cols)];
        for (int i = 0; i < rows; i++) {
            for (int k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
                d[i * cols + colIdx[k]] = values[k];
            }
        }
        return d;
    }

    @Override
    public String toString() {
        return "CsrMatrix[" + rows + " x " + cols + ", nnz=" + nnz() + "]";
    }
}
