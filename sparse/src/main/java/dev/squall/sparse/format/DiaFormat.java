package dev.squall.sparse.format;

import java.util.Arrays;

/**
 * Diagonal format: one dense column per occupied diagonal (column offset {@code offsets[d]}),
 * stored column-major ({@code [d * rows + i]}), positions outside the matrix or absent from it
 * holding 0. Suits banded and stencil matrices. A host-side mask remembers which slots are
 * entries, so explicit zeros survive the round trip to CSR.
 *
 * <pre>{@code
 * DiaFormat dia = DiaFormat.from(csr);   // refuses matrices it would pad more than MAX_FILL times
 * }</pre>
 */
public final class DiaFormat {
    /** Refuse DIA when it would store more than this many slots per entry (plus one per row). */
    public static final int MAX_FILL = 20;

    private final int rows;
    private final int cols;
    private final int[] offsets;
    private final double[] val;
    private final boolean[] present;

    private DiaFormat(int rows, int cols, int[] offsets, double[] val, boolean[] present) {
        this.rows = rows;
        this.cols = cols;
        this.offsets = offsets;
        this.val = val;
        this.present = present;
    }

    /** Number of distinct diagonals of {@code a} (what DIA would store), in one pass. */
    public static int countDiagonals(CsrMatrix a) {
        boolean[] seen = new boolean[a.rows() + a.cols() + 1];
        int n = 0;
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int d = a.colIndex(k) - i + a.rows();
                if (!seen[d]) {
                    seen[d] = true;
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The inspector: one pass marks the diagonals (a slot map per diagonal, as in Venkat's thesis),
     * a second fills them.
     *
     * @throws IllegalArgumentException if DIA would store more than {@link #MAX_FILL} slots per entry
     */
    public static DiaFormat from(CsrMatrix a) {
        int rows = a.rows();
        int[] slot = new int[rows + a.cols() + 1];
        Arrays.fill(slot, -1);
        int n = 0;
        for (int i = 0; i < rows; i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int d = a.colIndex(k) - i + rows;
                if (slot[d] < 0) slot[d] = n++;
            }
        }
        long slots = (long) n * rows;
        if (slots > (long) MAX_FILL * a.nnz() + rows || slots > EllFormat.MAX_SLOTS) {
            throw new IllegalArgumentException("DIA would store " + n + " diagonals x " + rows + " rows = " + slots
                    + " slots for " + a.nnz() + " entries; use csr, sell or hyb for this matrix");
        }
        // number the diagonals by increasing offset
        int[] offsets = new int[n];
        int t = 0;
        for (int d = 0; d < slot.length; d++) {
            if (slot[d] >= 0) {
                slot[d] = t;
                offsets[t++] = d - rows;
            }
        }
        double[] val = new double[(int) slots];
        boolean[] present = new boolean[(int) slots];
        for (int i = 0; i < rows; i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int s = slot[a.colIndex(k) - i + rows] * rows + i;
                val[s] = a.value(k);
                present[s] = true;
            }
        }
        return new DiaFormat(rows, a.cols(), offsets, val, present);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int diagonals() {
        return offsets.length;
    }

    public int[] offsets() {
        return offsets.clone();
    }

    public double[] val() {
        return val.clone();
    }

    /** Back to CSR, exactly (the mask tells entries from padding). */
    public CsrMatrix toCsr() {
        int nd = offsets.length;
        int[] ptr = new int[rows + 1];
        for (int i = 0; i < rows; i++) {
            int len = 0;
            for (int d = 0; d < nd; d++) if (present[d * rows + i]) len++;
            ptr[i + 1] = ptr[i] + len;
        }
        int[] c = new int[ptr[rows]];
        double[] v = new double[ptr[rows]];
        for (int i = 0; i < rows; i++) {
            int t = ptr[i];
            for (int d = 0; d < nd; d++) { // offsets increase, so columns do
                if (present[d * rows + i]) {
                    c[t] = i + offsets[d];
                    v[t++] = val[d * rows + i];
                }
            }
        }
        return CsrMatrix.of(rows, cols, ptr, c, v);
    }
}
