package dev.squall.sparse.format;

/**
 * Hybrid ELL + COO (Bell and Garland, SC'09): the first {@code width} entries of every row in
 * ELL, the overflow of long rows in COO.
 *
 * <pre>{@code
 * HybFormat hyb = HybFormat.from(csr);   // width from the row-length histogram
 * hyb.ell(); hyb.coo();
 * }</pre>
 */
public final class HybFormat {
    private final EllFormat ell;
    private final CooFormat coo;

    private HybFormat(EllFormat ell, CooFormat coo) {
        this.ell = ell;
        this.coo = coo;
    }

    /**
     * The inspector: the ELL width is the largest {@code k} such that at least
     * {@code max(min(4096, rows), rows / 3)} rows have {@code k} or more entries, Bell and
     * Garland's rule (ELL pays when it is at least a third full; below 4096 rows COO is as fast).
     */
    public static HybFormat from(CsrMatrix a) {
        return from(a, chooseWidth(a));
    }

    /** HYB with a given ELL width. */
    public static HybFormat from(CsrMatrix a, int width) {
        return new HybFormat(EllFormat.from(a, width), CooFormat.tail(a, width));
    }

    static int chooseWidth(CsrMatrix a) {
        int rows = a.rows();
        int max = 0;
        for (int i = 0; i < rows; i++) max = Math.max(max, a.rowLength(i));
        long[] atLeast = new long[max + 2];
        for (int i = 0; i < rows; i++) atLeast[a.rowLength(i)]++;
        for (int k = max - 1; k >= 0; k--) atLeast[k] += atLeast[k + 1];
        long need = Math.max(Math.min(4096, rows), rows / 3);
        int k = 0;
        while (k + 1 <= max && atLeast[k + 1] >= need) k++;
        return k;
    }

    public EllFormat ell() {
        return ell;
    }

    public CooFormat coo() {
        return coo;
    }

    /** Back to CSR, exactly (ELL part first in each row, then the overflow, as in the source). */
    public CsrMatrix toCsr() {
        CsrMatrix e = ell.toCsr();
        CsrMatrix c = coo.toCsr();
        int rows = e.rows();
        int[] ptr = new int[rows + 1];
        int[] col = new int[e.nnz() + c.nnz()];
        double[] val = new double[col.length];
        int t = 0;
        for (int i = 0; i < rows; i++) {
            for (CsrMatrix part : new CsrMatrix[] {e, c}) {
                for (int k = part.rowStart(i); k < part.rowStart(i + 1); k++) {
                    col[t] = part.colIndex(k);
                    val[t++] = part.value(k);
                }
            }
            ptr[i + 1] = t;
        }
        return CsrMatrix.of(rows, e.cols(), ptr, col, val);
    }
}
