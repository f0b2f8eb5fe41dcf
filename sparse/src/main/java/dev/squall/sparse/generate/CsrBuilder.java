package dev.squall.sparse.generate;

import dev.squall.sparse.format.CsrMatrix;
import java.util.Arrays;

/** Appends rows of sorted entries and builds a {@link CsrMatrix}; used by the generators. */
final class CsrBuilder {
    private final int rows;
    private final int cols;
    private final int[] rowPtr;
    private int[] col;
    private double[] val;
    private int row;
    private int nnz;

    CsrBuilder(int rows, int cols, long expectedNnz) {
        this.rows = rows;
        this.cols = cols;
        this.rowPtr = new int[rows + 1];
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, expectedNnz));
        this.col = new int[cap];
        this.val = new double[cap];
    }

    /** Adds an entry to the current row; columns must increase. */
    void add(int c, double v) {
        if (nnz == col.length) {
            if (nnz >= Integer.MAX_VALUE - 8) throw new IllegalArgumentException("more than 2^31 entries");
            int cap = (int) Math.min(Integer.MAX_VALUE - 8, 2L * nnz);
            col = Arrays.copyOf(col, cap);
            val = Arrays.copyOf(val, cap);
        }
        col[nnz] = c;
        val[nnz++] = v;
    }

    /** Closes the current row. */
    void endRow() {
        rowPtr[++row] = nnz;
    }

    CsrMatrix build() {
        if (row != rows) throw new IllegalStateException(row + " of " + rows + " rows built");
        return CsrMatrix.of(rows, cols, rowPtr, col, val);
    }
}
