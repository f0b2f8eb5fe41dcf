package dev.squall.permanent.cpu;

import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * An estimate of the rounding error of a double-precision Gray-code Ryser sweep, by
 * re-computation in different rounding on a sample: the 2^(n-1) steps are cut into aligned chunks
 * of {@code L} steps; on a few chunks the partial sum is computed in double (the sparse sweep,
 * x started afresh) and in double-double ({@link DoubleDoubleGraySweep}), and their differences
 * {@code e_k} measure the rounding there. The chunk of the empty column set and the chunk whose
 * high columns are all chosen (where the largest terms of a nonnegative matrix sit), and the last
 * chunk, are always taken; the rest are drawn at random. Rounding errors of different chunks have
 * independent signs, so the total is estimated as a random walk,
 * {@code 3 sqrt(sum_k w_k e_k^2) sqrt(max(1, D / L))}, where {@code w_k} is how many chunks a
 * sample stands for and {@code D} the run's own chunk length (the drift of x grows with it).
 * When the sample covers every step the whole double-double sum is the reference and the error
 * of a computed value is measured, not estimated. An estimate, not a bound: it can miss a rare
 * chunk with far larger terms than the sampled ones.
 *
 * <pre>{@code
 * RyserRoundingEstimate e = RyserRoundingEstimate.of(b, 1 << 16, runChunk, 7);
 * double err = e.errorOf(p);   // absolute, in units of perm(b)
 * }</pre>
 *
 * @param reference   the double-double permanent when the sample covered every step, else NaN
 * @param sampled     the estimated absolute error of a double sweep (when no reference)
 * @param sampleSteps steps computed (in each precision)
 */
public record RyserRoundingEstimate(double reference, double sampled, long sampleSteps) {
    /** Safety factor on the random-walk estimate (about three standard deviations). */
    static final double SAFETY = 3;

    /**
     * @param b           the matrix the sweep ran on
     * @param sampleSteps steps to spend (each in double and double-double)
     * @param runChunk    the steps one thread of the run walks from a fresh start (for the drift factor)
     */
    public static RyserRoundingEstimate of(SquareMatrix b, long sampleSteps, long runChunk, long seed) {
        int n = b.n();
        long steps = NijenhuisWilf.steps(n);
        SparseGraySweep dbl = new SparseGraySweep(b);
        DoubleDoubleGraySweep dd = new DoubleDoubleGraySweep(b);
        double f = Math.abs(NijenhuisWilf.finalFactor(n));
        if (sampleSteps >= steps) {
            long chunk = Math.min(steps, 1L << 12);
            int chunks = (int) (steps / chunk);
            double[] hi = new double[chunks], lo = new double[chunks];
            IntStream.range(0, chunks).parallel().forEach(c -> {
                KahanSum s = new KahanSum();
                new DoubleDoubleGraySweep(b).sum(c * chunk, (c + 1) * chunk, s);
                hi[c] = s.sum();
                lo[c] = s.compensation();
            });
            KahanSum t = new KahanSum();
            for (int c = 0; c < chunks; c++) t.add(hi[c], lo[c]);
            return new RyserRoundingEstimate(NijenhuisWilf.finalFactor(n) * t.value(), Double.NaN, steps);
        }
        int lgL = Math.max(0, Math.min(n - 1, 63 - Long.numberOfLeadingZeros(Math.max(1, sampleSteps / 32))));
        long len = 1L << lgL;
        long chunks = steps / len;
        int want = (int) Math.min(chunks, Math.max(3, sampleSteps / len));
        Set<Long> fixed = new LinkedHashSet<>();
        fixed.add(0L);
        fixed.add(chunks - 1);
        int high = n - 1 - lgL; // chunk index bits: gray(c) are the chosen columns lgL..n-2
        fixed.add(inverseGray(high >= 63 ? -1L : (1L << high) - 1));
        List<Long> picked = new ArrayList<>(fixed);
        SplittableRandom r = new SplittableRandom(seed);
        Set<Long> seen = new LinkedHashSet<>(fixed);
        while (picked.size() < want) {
            long c = r.nextLong(chunks);
            if (seen.add(c)) picked.add(c);
        }
        double[] err2 = new double[picked.size()];
        IntStream.range(0, picked.size()).parallel().forEach(k -> {
            long start = picked.get(k) * len;
            KahanSum a = new KahanSum(), e = new KahanSum();
            new SparseGraySweep(b).sum(start, start + len, a);
            new DoubleDoubleGraySweep(b).sum(start, start + len, e);
            // the double-double partial's own value: sum + compensation carries the low part
            double diff = (a.sum() - e.sum()) + (a.compensation() - e.compensation());
            err2[k] = diff * diff;
        });
        int nFixed = fixed.size(), nRandom = picked.size() - nFixed;
        double total = 0;
        for (int k = 0; k < picked.size(); k++) {
            double w = k < nFixed ? 1 : (double) (chunks - nFixed) / nRandom;
            total += w * err2[k];
        }
        double drift = Math.sqrt(Math.max(1.0, (double) runChunk / len));
        return new RyserRoundingEstimate(Double.NaN, f * SAFETY * Math.sqrt(total) * drift, (long) picked.size() * len);
    }

    /** The absolute error estimate of a double sweep's value {@code p} (measured against the reference when there is one). */
    public double errorOf(double p) {
        if (!Double.isNaN(reference)) return Math.abs(p - reference) + 0x1p-90 * Math.abs(reference) + Double.MIN_VALUE;
        return sampled;
    }

    /** The estimate for a double-double sweep: the double sweep's scaled by the ratio of the precisions (2^-53, with a margin). */
    public double errorOfDoubleDouble(double p) {
        if (!Double.isNaN(reference)) return 0x1p-90 * Math.abs(reference) + 0x1p-45 * Math.abs(p - reference) + Double.MIN_VALUE;
        return 0x1p-45 * sampled + 0x1p-100 * Math.abs(p);
    }

    /** g with gray(g) = code. */
    static long inverseGray(long code) {
        long g = code;
        for (int s = 1; s < 64; s <<= 1) g ^= g >>> s;
        return g;
    }
}
