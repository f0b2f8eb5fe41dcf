package dev.squall.sparse.inspect;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.DiaFormat;

/**
 * Row-length statistics of a matrix, what the automatic format choice reads.
 *
 * @param rows       rows
 * @param nnz        stored entries
 * @param mean       mean row length
 * @param max        longest row
 * @param cv         coefficient of variation of the row lengths (stddev / mean)
 * @param diagonals  occupied diagonals (DIA's width)
 * @param sellFill   fraction of SELL-32-512 slots that hold entries
 */
public record RowStats(int rows, long nnz, double mean, int max, double cv, int diagonals, double sellFill) {

    /** One pass over the row pointers, one over the columns (diagonals), one sort-free SELL estimate. */
    public static RowStats of(CsrMatrix a) {
        int rows = a.rows();
        long nnz = a.nnz();
        double mean = rows == 0 ? 0 : (double) nnz / rows;
        int max = 0;
        double var = 0;
        for (int i = 0; i < rows; i++) {
            int l = a.rowLength(i);
            max = Math.max(max, l);
            var += (l - mean) * (l - mean);
        }
        double cv = rows == 0 || mean == 0 ? 0 : Math.sqrt(var / rows) / mean;
        return new RowStats(rows, nnz, mean, max, cv, DiaFormat.countDiagonals(a), sellFill(a, 32, 512));
    }

    /** Fill of SELL-C-sigma, from a counting sort of row lengths in each window. */
    static double sellFill(CsrMatrix a, int c, int sigma) {
        if (a.nnz() == 0) return 1;
        long slots = 0;
        int[] lens = new int[sigma];
        for (int w0 = 0; w0 < a.rows(); w0 += sigma) {
            int n = Math.min(sigma, a.rows() - w0);
            for (int i = 0; i < n; i++) lens[i] = a.rowLength(w0 + i);
            java.util.Arrays.sort(lens, 0, n);
            // longest first: chunk q of the window holds sorted positions n-1-q*c ... ; its width is the first
            for (int q = 0; q * c < n; q++) slots += (long) lens[n - 1 - q * c] * c;
        }
        return (double) a.nnz() / slots;
    }

    @Override
    public String toString() {
        return String.format("%d rows, %d entries, row length mean %.1f max %d cv %.2f, %d diagonals, SELL fill %.0f%%",
                rows, nnz, mean, max, cv, diagonals, 100 * sellFill);
    }
}
