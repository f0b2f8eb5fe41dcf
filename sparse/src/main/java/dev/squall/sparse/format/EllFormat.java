package dev.squall.sparse.format;

/**
 * ELLPACK: every row padded to the same width, stored column-major ({@code [k * rows + i]}) so
 * that consecutive rows read consecutive memory. Row lengths are kept, so padding is never read
 * and explicit zeros stay distinct from it.
 *
 * <pre>{@code
 * EllFormat ell = EllFormat.from(csr);      // width = longest row
 * ell.width(); ell.rowLen(); ell.col(); ell.val();
 * }</pre>
 */
public final class EllFormat {
    /** Padded storage above this many slots is refused (Java arrays, 32-bit indices). */
    public static final long MAX_SLOTS = Integer.MAX_VALUE - 8;
    /** {@link #from(CsrMatrix)} refuses to store more than this many slots per entry (plus one per row). */
    public static final int MAX_FILL = 20;

    private final int rows;
    private final int cols;
    private final int width;
    private final int[] rowLen;
    private final int[] col;
    private final double[] val;

    private EllFormat(int rows, int cols, int width, int[] rowLen, int[] col, double[] val) {
        this.rows = rows;
        this.cols = cols;
        this.width = width;
        this.rowLen = rowLen;
        this.col = col;
        this.val = val;
    }

    /**
     * The inspector: width = longest row.
     *
     * @throws IllegalArgumentException if the padded storage would exceed {@link #MAX_FILL} slots per entry
     */
    public static EllFormat from(CsrMatrix a) {
        int w = 0;
        for (int i = 0; i < a.rows(); i++) w = Math.max(w, a.rowLength(i));
        long slots = (long) w * a.rows();
        if (slots > (long) MAX_FILL * a.nnz() + a.rows()) {
            throw new IllegalArgumentException("ELL would pad " + a.nnz() + " entries to " + w + " x " + a.rows()
                    + " = " + slots + " slots (longest row " + w + "); use sell, hyb or csr for this matrix");
        }
        return from(a, w);
    }

    /** The first {@code width} entries of each row (HYB puts the rest in COO). */
    static EllFormat from(CsrMatrix a, int width) {
        long slots = (long) width * a.rows();
        if (slots > MAX_SLOTS) {
            throw new IllegalArgumentException("ELL would pad " + a.nnz() + " entries to " + width + " x " + a.rows()
                    + " = " + slots + " slots; use sell, hyb or csr for this matrix");
        }
        int rows = a.rows();
        int[] len = new int[rows];
        int[] c = new int[(int) slots];
        double[] v = new double[(int) slots];
        for (int i = 0; i < rows; i++) {
            len[i] = Math.min(width, a.rowLength(i));
            for (int k = 0; k < len[i]; k++) {
                c[k * rows + i] = a.colIndex(a.rowStart(i) + k);
                v[k * rows + i] = a.value(a.rowStart(i) + k);
            }
        }
        return new EllFormat(rows, a.cols(), width, len, c, v);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int width() {
        return width;
    }

    /** Stored entries (padding excluded). */
    public long nnz() {
        long n = 0;
        for (int l : rowLen) n += l;
        return n;
    }

    public int[] rowLen() {
        return rowLen.clone();
    }

    public int[] col() {
        return col.clone();
    }

    public double[] val() {
        return val.clone();
    }

    /** Back to CSR, exactly. */
    public CsrMatrix toCsr() {
        int[] ptr = new int[rows + 1];
        for (int i = 0; i < rows; i++) ptr[i + 1] = ptr[i] + rowLen[i];
        int[] c = new int[ptr[rows]];
        double[] v = new double[ptr[rows]];
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < rowLen[i]; k++) {
                c[ptr[i] + k] = col[k * rows + i];
                v[ptr[i] + k] = val[k * rows + i];
            }
        }
        return CsrMatrix.of(rows, cols, ptr, c, v);
    }
}
