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

    /**
     * @param expectedNnz the entries expected (an estimate: storage grows past it); checked against what a CSR
     *                    matrix holds and against the heap before anything is allocated
     * @throws IllegalArgumentException when the matrix cannot be held
     */
    CsrBuilder(int rows, int cols, long expectedNnz) {
        checkFits(rows, cols, expectedNnz, 8, 24);
        this.rows = rows;
        this.cols = cols;
        this.rowPtr = new int[rows + 1];
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, expectedNnz));
        this.col = new int[cap];
        this.val = new double[cap];
    }

    /**
     * Fails unless a {@code rows} × {@code cols} matrix of {@code entries} entries fits a CSR matrix and, at
     * {@code bytesPerRow} and {@code bytesPerEntry} while it is built, the Java heap's limit.
     */
    static void checkFits(int rows, int cols, long entries, long bytesPerRow, long bytesPerEntry) {
        if (entries > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a " + rows + " x " + cols + " matrix with " + entries
                    + " entries is more than a CSR matrix holds (" + (Integer.MAX_VALUE - 8) + ")");
        }
        long needed = bytesPerRow * (rows + 1L) + bytesPerEntry * entries;
        long heap = Runtime.getRuntime().maxMemory();
        if (needed > heap) {
            throw new IllegalArgumentException("a " + rows + " x " + cols + " matrix with " + entries + " entries needs about "
                    + (needed >> 20) + " MiB to build, more than the Java heap's limit of " + (heap >> 20) + " MiB (raise it with -Xmx)");
        }
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
