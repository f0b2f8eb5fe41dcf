package dev.squall.permanent.cpu;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SparseColumns;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;

/**
 * The sparse Gray-code sweep (SparsePerman in Elbek and Kaya): a step updates only the nonzeros
 * of its column (CSC) and counts the entries of x that are exactly zero, skipping the product
 * while any is ("zero tracking", which pays off on 0/±1 matrices). Columns should be sorted by
 * ascending degree first ({@link dev.squall.permanent.preprocess.ColumnDegreeSort}) so the
 * low columns, touched most often, are the sparsest.
 *
 * <pre>{@code
 * KahanSum acc = new KahanSum();
 * new SparseGraySweep(a).sum(0, NijenhuisWilf.steps(a.n()), acc);
 * }</pre>
 */
public final class SparseGraySweep implements GraySweep {
    private final SquareMatrix a;
    private final int n;
    private final SparseColumns csc;

    public SparseGraySweep(SquareMatrix a) {
        NijenhuisWilf.checkOrder(a.n());
        this.a = a;
        this.n = a.n();
        this.csc = SparseColumns.of(a);
    }

    @Override
    public void sum(long start, long end, KahanSum acc) {
        if (start >= end) return;
        double[] x = NijenhuisWilf.startVector(a, start);
        int zeros = 0;
        double p = 1;
        for (double v : x) {
            if (v == 0) zeros++;
            p *= v;
        }
        acc.add((start & 1) == 0 ? p : -p);
        int[] colStart = csc.start(), rows = csc.rows();
        double[] vals = csc.values();
        for (long g = start + 1; g < end; g++) {
            int j = Long.numberOfTrailingZeros(g);
            double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
            for (int k = colStart[j], e = colStart[j + 1]; k < e; k++) {
                int r = rows[k];
                double old = x[r], v = old + s * vals[k];
                if (old == 0) zeros--;
                if (v == 0) zeros++;
                x[r] = v;
            }
            if (zeros > 0) continue;
            double prod = 1;
            for (int i = 0; i < n; i++) prod *= x[i];
            acc.add((g & 1) == 0 ? prod : -prod);
        }
    }
}
