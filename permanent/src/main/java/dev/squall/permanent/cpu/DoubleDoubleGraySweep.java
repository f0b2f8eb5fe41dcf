package dev.squall.permanent.cpu;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;

/**
 * The sparse Gray-code sweep in double-double arithmetic (about 106-bit significands; Dekker's
 * and Knuth's error-free transformations, as in Bailey's QD library): x, each step's product and
 * the terms are carried as unevaluated sums {@code hi + lo}, so neither the drift of x over
 * millions of incremental updates nor the rounding of each product reaches the result at double
 * precision. About 10x the work of {@link SparseGraySweep}; the opt-in accurate path and an
 * independent reference for the double-precision sweeps.
 *
 * <pre>{@code
 * double perm = new ChunkedJvmPermanent(2).run(a.n(), () -> new DoubleDoubleGraySweep(a));
 * }</pre>
 */
public final class DoubleDoubleGraySweep implements GraySweep {
    private final SquareMatrix a;
    private final int n;
    private final int[] colStart, rowIdx;
    private final double[] vals;

    public DoubleDoubleGraySweep(SquareMatrix a) {
        NijenhuisWilf.checkOrder(a.n());
        this.a = a;
        this.n = a.n();
        colStart = new int[n + 1];
        int nnz = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) if (a.get(i, j) != 0) nnz++;
            colStart[j + 1] = nnz;
        }
        rowIdx = new int[nnz];
        vals = new double[nnz];
        for (int j = 0, k = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                if (a.get(i, j) != 0) {
                    rowIdx[k] = i;
                    vals[k++] = a.get(i, j);
                }
            }
        }
    }

    /** x^(start) in double-double ({@code hi + lo}), every addition exact to double-double. */
    public static void startVector(SquareMatrix a, long start, double[] hi, double[] lo) {
        int n = a.n();
        long code = NijenhuisWilf.gray(start);
        for (int i = 0; i < n; i++) {
            // x_i = a_(i,n-1) - rowSum/2 + sum of the chosen columns
            double h = a.get(i, n - 1), l = 0;
            for (int j = 0; j < n; j++) {
                double v = a.get(i, j);
                if (v == 0) continue;
                double w = (j < n - 1 && ((code >>> j) & 1L) != 0) ? 0.5 * v : -0.5 * v; // -v/2 always, +v when chosen
                double s = h + w, bb = s - h, e = (h - (s - bb)) + (w - bb) + l;
                h = s + e;
                l = e - (h - s);
            }
            hi[i] = h;
            lo[i] = l;
        }
    }

    @Override
    public void sum(long start, long end, KahanSum acc) {
        if (start >= end) return;
        double[] hi = new double[n], lo = new double[n];
        startVector(a, start, hi, lo);
        double sumHi = 0, sumLo = 0;
        for (long g = start; g < end; g++) {
            if (g > start) {
                int j = Long.numberOfTrailingZeros(g);
                boolean add = ((g >>> (j + 1)) & 1L) == 0;
                for (int k = colStart[j]; k < colStart[j + 1]; k++) {
                    int r = rowIdx[k];
                    double w = add ? vals[k] : -vals[k];
                    double s = hi[r] + w, bb = s - hi[r], e = (hi[r] - (s - bb)) + (w - bb) + lo[r];
                    hi[r] = s + e;
                    lo[r] = e - (hi[r] - s);
                }
            }
            // product in double-double: (ph + pl) * (hi + lo), the high part's error exact through fma
            double ph = hi[0], pl = lo[0];
            for (int i = 1; i < n; i++) {
                double p = ph * hi[i];
                double e = Math.fma(ph, hi[i], -p) + (ph * lo[i] + pl * hi[i]);
                ph = p + e;
                pl = e - (ph - p);
            }
            if ((g & 1L) != 0) {
                ph = -ph;
                pl = -pl;
            }
            double s = sumHi + ph, bb = s - sumHi, e = (sumHi - (s - bb)) + (ph - bb) + sumLo + pl;
            sumHi = s + e;
            sumLo = e - (sumHi - s);
        }
        acc.add(sumHi, sumLo);
    }
}
