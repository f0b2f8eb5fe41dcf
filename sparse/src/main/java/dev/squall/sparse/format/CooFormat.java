package dev.squall.sparse.format;

/**
 * Coordinate format sorted by row (then column): one row index, column index and value per entry.
 *
 * <pre>{@code
 * CooFormat coo = CooFormat.from(csr);
 * coo.row(); coo.col(); coo.val();
 * }</pre>
 */
public final class CooFormat {
    private final int rows;
    private final int cols;
    private final int[] row;
    private final int[] col;
    private final double[] val;

    private CooFormat(int rows, int cols, int[] row, int[] col, double[] val) {
        this.rows = rows;
        this.cols = cols;
        this.row = row;
        this.col = col;
        this.val = val;
    }

    /** The inspector: expands the row pointers into one row index per entry. */
    public static CooFormat from(CsrMatrix a) {
        int[] r = new int[a.nnz()];
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) r[k] = i;
        }
        return new CooFormat(a.rows(), a.cols(), r, a.colIdx(), a.values());
    }

    /** Entries {@code from..} of each row of {@code a} (HYB's overflow part). */
    static CooFormat tail(CsrMatrix a, int from) {
        int n = 0;
        for (int i = 0; i < a.rows(); i++) n += Math.max(0, a.rowLength(i) - from);
        int[] r = new int[n];
        int[] c = new int[n];
        double[] v = new double[n];
        int t = 0;
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i) + from; k < a.rowStart(i + 1); k++) {
                r[t] = i;
                c[t] = a.colIndex(k);
                v[t++] = a.value(k);
            }
        }
        return new CooFormat(a.rows(), a.cols(), r, c, v);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int nnz() {
        return val.length;
    }

    public int[] row() {
        return row.clone();
    }

    public int[] col() {
        return col.clone();
    }

    public double[] val() {
        return val.clone();
    }

    /** Back to CSR, exactly. */
    public CsrMatrix toCsr() {
        return CsrMatrix.fromCoo(rows, cols, row, col, val);
    }
}
