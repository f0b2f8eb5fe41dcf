package dev.squall.sparse.format;

import java.util.Arrays;

/**
 * SELL-C-σ (Kreutzer, Hager, Wellein, Fehske, Bishop, SIAM J. Sci. Comput. 36(5), 2014): rows
 * sorted by length (longest first) within windows of σ rows, cut into chunks of C rows, each
 * chunk padded to its own longest row and stored column-major. Padding is per chunk, so skewed
 * matrices pay far less than in ELL. Slot {@code s} of the layout is lane {@code s % C} of chunk
 * {@code s / C} and holds row {@code perm[s]} ({@code -1} for the padding slots of the last chunk).
 *
 * <pre>{@code
 * SellFormat sell = SellFormat.from(csr, 32, 512);
 * }</pre>
 */
public final class SellFormat {
    private final int rows;
    private final int cols;
    private final int c;
    private final int sigma;
    private final int[] perm;
    private final int[] slotLen;
    private final int[] chunkPtr;
    private final int[] col;
    private final double[] val;

    private SellFormat(int rows, int cols, int c, int sigma, int[] perm, int[] slotLen, int[] chunkPtr, int[] col, double[] val) {
        this.rows = rows;
        this.cols = cols;
        this.c = c;
        this.sigma = sigma;
        this.perm = perm;
        this.slotLen = slotLen;
        this.chunkPtr = chunkPtr;
        this.col = col;
        this.val = val;
    }

    /**
     * The inspector.
     *
     * @param c     chunk height (32 = a warp on NVIDIA GPUs)
     * @param sigma sorting window in rows, a multiple of {@code c}; 1 keeps the row order
     * @throws IllegalArgumentException for a bad {@code c} or {@code sigma}, or padded storage over 2^31 slots
     */
    public static SellFormat from(CsrMatrix a, int c, int sigma) {
        if (c < 1 || sigma < 1 || (sigma > 1 && sigma % c != 0)) {
            throw new IllegalArgumentException("SELL-C-sigma: C " + c + " must be positive and sigma " + sigma
                    + " 1 or a positive multiple of C");
        }
        int rows = a.rows();
        int chunks = (rows + c - 1) / c;
        int slots = chunks * c;
        int[] perm = new int[slots];
        Arrays.fill(perm, -1);
        // sort each window by length, longest first, stably: key = (maxLen - len) << 32 | row
        long[] keys = new long[Math.min(Math.max(sigma, 1), Math.max(rows, 1))];
        for (int w0 = 0; w0 < rows; w0 += sigma) {
            int w1 = Math.min(rows, w0 + sigma);
            for (int i = w0; i < w1; i++) keys[i - w0] = ((long) (Integer.MAX_VALUE - a.rowLength(i)) << 32) | i;
            Arrays.sort(keys, 0, w1 - w0);
            for (int i = w0; i < w1; i++) perm[i] = (int) keys[i - w0];
        }
        int[] slotLen = new int[slots];
        int[] chunkPtr = new int[chunks + 1];
        long total = 0;
        for (int ch = 0; ch < chunks; ch++) {
            int w = 0;
            for (int s = ch * c; s < (ch + 1) * c; s++) {
                if (perm[s] >= 0) {
                    slotLen[s] = a.rowLength(perm[s]);
                    w = Math.max(w, slotLen[s]);
                }
            }
            total += (long) w * c;
            if (total > EllFormat.MAX_SLOTS) {
                throw new IllegalArgumentException("SELL-" + c + "-" + sigma + " would need more than 2^31 slots");
            }
            chunkPtr[ch + 1] = (int) total;
        }
        int[] col = new int[(int) total];
        double[] val = new double[(int) total];
        for (int s = 0; s < slots; s++) {
            if (perm[s] < 0) continue;
            int ch = s / c;
            int base = chunkPtr[ch] + (s - ch * c);
            int start = a.rowStart(perm[s]);
            for (int k = 0; k < slotLen[s]; k++) {
                col[base + k * c] = a.colIndex(start + k);
                val[base + k * c] = a.value(start + k);
            }
        }
        return new SellFormat(rows, a.cols(), c, sigma, perm, slotLen, chunkPtr, col, val);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int chunkHeight() {
        return c;
    }

    public int sigma() {
        return sigma;
    }

    public int slots() {
        return perm.length;
    }

    /** Stored slots, padding included. */
    public int storedSlots() {
        return val.length;
    }

    public int[] perm() {
        return perm.clone();
    }

    public int[] slotLen() {
        return slotLen.clone();
    }

    public int[] chunkPtr() {
        return chunkPtr.clone();
    }

    public int[] col() {
        return col.clone();
    }

    public double[] val() {
        return val.clone();
    }

    /** Back to CSR, exactly. */
    public CsrMatrix toCsr() {
        int[] len = new int[rows];
        int[] slotOf = new int[rows];
        for (int s = 0; s < perm.length; s++) {
            if (perm[s] >= 0) {
                len[perm[s]] = slotLen[s];
                slotOf[perm[s]] = s;
            }
        }
        int[] ptr = new int[rows + 1];
        for (int i = 0; i < rows; i++) ptr[i + 1] = ptr[i] + len[i];
        int[] cc = new int[ptr[rows]];
        double[] vv = new double[ptr[rows]];
        for (int i = 0; i < rows; i++) {
            int s = slotOf[i];
            int base = chunkPtr[s / c] + s % c;
            for (int k = 0; k < len[i]; k++) {
                cc[ptr[i] + k] = col[base + k * c];
                vv[ptr[i] + k] = val[base + k * c];
            }
        }
        return CsrMatrix.of(rows, cols, ptr, cc, vv);
    }
}
