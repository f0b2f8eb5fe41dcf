package dev.squall.permanent.cpu;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;

/**
 * The dense Gray-code sweep: each step updates all n entries of x by one column and
 * multiplies them.
 *
 * <pre>{@code
 * KahanSum acc = new KahanSum();
 * new DenseGraySweep(a).sum(0, NijenhuisWilf.steps(a.n()), acc);
 * double perm = NijenhuisWilf.finalFactor(a.n()) * acc.value();
 * }</pre>
 */
public final class DenseGraySweep implements GraySweep {
    private final SquareMatrix a;
    private final int n;
    private final double[] cols;

    public DenseGraySweep(SquareMatrix a) {
        NijenhuisWilf.checkOrder(a.n());
        this.a = a;
        this.n = a.n();
        this.cols = a.columnMajor();
    }

    @Override
    public void sum(long start, long end, KahanSum acc) {
        if (start >= end) return;
        double[] x = NijenhuisWilf.startVector(a, start);
        double p = 1;
        for (double v : x) p *= v;
        acc.add((start & 1) == 0 ? p : -p);
        for (long g = start + 1; g < end; g++) {
            int j = Long.numberOfTrailingZeros(g);
            double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
            int off = j * n;
            double prod = 1;
            for (int i = 0; i < n; i++) {
                double v = x[i] + s * cols[off + i];
                x[i] = v;
                prod *= v;
            }
            acc.add((g & 1) == 0 ? prod : -prod);
        }
    }
}
