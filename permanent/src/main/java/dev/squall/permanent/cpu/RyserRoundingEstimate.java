package dev.squall.permanent.cpu;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SparseColumns;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * An estimate of the rounding error of a double-precision Gray-code Ryser sweep, by
 * re-computation on a fixed sample: the 2^(n-1) steps are cut into aligned chunks of
 * {@code L = 2^12} steps; on {@value #SAMPLED_RUN_CHUNKS} of the run's own thread chunks (length
 * {@code D}, each started afresh) x is carried through the double updates exactly as the run carries
 * it, and at {@value #SAMPLES_PER_RUN_CHUNK} points spread over the run chunk (the last one at its
 * end, where x has drifted most) the next L steps are summed in double, continuing the drifted x, and
 * in double-double from an exact start ({@link DoubleDoubleGraySweep}); their difference {@code e_k}
 * is the double sweep's error there, drift of x included. The chunk of the empty column set, the
 * chunk whose high columns are all chosen (where a nonnegative matrix has its largest terms) and the
 * last chunk are always sampled. Rounding errors of different chunks have independent signs, so
 * the total is estimated as a random walk, {@code SAFETY sqrt(sum_k w_k e_k^2)}, {@code w_k} the
 * number of chunks sample k stands for.
 * <p>
 * The sample depends only on n and D (fixed seed): the same matrix and run chunk give the same
 * estimate. It costs {@link #sampleSteps(int, long)} steps in each precision plus
 * {@link #driftSteps(int, long)} x-only update steps. When the sample would cover every step, the
 * whole double-double sum is the reference instead and the error of a computed value is measured,
 * not estimated. An estimate, not a bound: it can miss a rare chunk with far larger terms than the
 * sampled ones (calibration against exact values: {@code permanent/ACCURACY.md}).
 *
 * <pre>{@code
 * RyserRoundingEstimate e = RyserRoundingEstimate.of(b, runChunk);
 * double err = e.errorOf(p);   // absolute, in units of perm(b)
 * }</pre>
 *
 * @param reference   the double-double permanent when the sample covered every step, else NaN
 * @param sampled     the estimated absolute error of a double sweep; with a reference, the measured error of a
 *                    double sweep of the same steps (the reference's own error is about 2^-53 of it)
 * @param sampleSteps steps computed (in each precision)
 * @param termScale   {@code |finalFactor| sqrt(sum_g t_g^2)} over all steps (estimated from the sample without a
 *                    reference): the size of what the alternating sum cancels
 */
public record RyserRoundingEstimate(double reference, double sampled, long sampleSteps, double termScale) {
    /** Safety factor on the random-walk estimate (calibrated: ACCURACY.md). */
    static final double SAFETY = 3;
    /** log2 of the sampled chunk length L. */
    static final int LOG_CHUNK = 12;
    /** Run chunks whose x drift is followed. */
    static final int SAMPLED_RUN_CHUNKS = 16;
    /** Sampled chunks of L steps in each followed run chunk. */
    static final int SAMPLES_PER_RUN_CHUNK = 4;
    /** Always-sampled chunks: the first, the one of the largest terms, the last. */
    static final int FIXED_SAMPLES = 3;
    private static final long SEED = 0x5eed_13L;

    /** Sampled chunk length for order n. */
    static long chunkLength(int n) {
        return 1L << Math.min(n - 1, LOG_CHUNK);
    }

    /** Steps {@link #of} computes in double and in double-double for order n and run chunk D (all steps when that is cheaper). */
    public static long sampleSteps(int n, long runChunk) {
        long steps = NijenhuisWilf.steps(n);
        long sampled = (long) (SAMPLED_RUN_CHUNKS * SAMPLES_PER_RUN_CHUNK + FIXED_SAMPLES) * chunkLength(n);
        return sampled >= steps ? steps : sampled;
    }

    /** Steps of x-only double updates {@link #of} spends following the drift of x (0 when it takes the full reference). */
    public static long driftSteps(int n, long runChunk) {
        long steps = NijenhuisWilf.steps(n);
        if (sampleSteps(n, runChunk) >= steps) return 0;
        long d = Math.max(chunkLength(n), Math.min(steps, Long.highestOneBit(Math.max(1, runChunk))));
        return (SAMPLED_RUN_CHUNKS + FIXED_SAMPLES) * d;
    }

    /**
     * @param b        the matrix the sweep ran on (its column order: x drifts with it)
     * @param runChunk the steps one thread of the run walks from a fresh start (rounded down to a power of two)
     */
    public static RyserRoundingEstimate of(SquareMatrix b, long runChunk) {
        int n = b.n();
        long steps = NijenhuisWilf.steps(n);
        double f = Math.abs(NijenhuisWilf.finalFactor(n));
        if (sampleSteps(n, runChunk) >= steps) {
            long chunk = Math.min(steps, 1L << 12);
            int chunks = (int) (steps / chunk);
            double[] hi = new double[chunks], lo = new double[chunks], dbl = new double[chunks], dblLo = new double[chunks], sq = new double[chunks];
            SparseColumns csc = SparseColumns.of(b);
            IntStream.range(0, chunks).parallel().forEach(c -> {
                KahanSum s = new KahanSum(), t = new KahanSum();
                new DoubleDoubleGraySweep(b).sum(c * chunk, (c + 1) * chunk, s);
                hi[c] = s.sum();
                lo[c] = s.compensation();
                sq[c] = sweep(csc, NijenhuisWilf.startVector(b, c * chunk), c * chunk, (c + 1) * chunk, t);
                dbl[c] = t.sum();
                dblLo[c] = t.compensation();
            });
            KahanSum t = new KahanSum(), u = new KahanSum();
            double squares = 0;
            for (int c = 0; c < chunks; c++) {
                t.add(hi[c], lo[c]);
                u.add(dbl[c], dblLo[c]);
                squares += sq[c];
            }
            double ref = NijenhuisWilf.finalFactor(n) * t.value();
            return new RyserRoundingEstimate(ref, Math.abs(NijenhuisWilf.finalFactor(n) * u.value() - ref), steps, f * Math.sqrt(squares));
        }
        long len = chunkLength(n);
        long d = Math.max(len, Math.min(steps, Long.highestOneBit(Math.max(1, runChunk))));
        long runChunks = steps / d;
        int perRun = (int) Math.min(SAMPLES_PER_RUN_CHUNK, d / len);
        // fixed samples: (run chunk, chunk start); the peak chunk holds g with gray(g) = every column below n-1
        long peak = inverseGray((1L << (n - 1)) - 1) / len * len;
        List<long[]> samples = new ArrayList<>();
        samples.add(new long[]{0, 0});
        samples.add(new long[]{peak / d, peak});
        samples.add(new long[]{runChunks - 1, steps - len});
        int nFixed = samples.size();
        // followed run chunks: evenly spaced strata, a fixed-seed position in each
        Set<Long> runs = new LinkedHashSet<>();
        SplittableRandom r = new SplittableRandom(SEED ^ n);
        int want = (int) Math.min(runChunks, SAMPLED_RUN_CHUNKS);
        for (int k = 0; k < want; k++) {
            long lo = runChunks * k / want, hi = runChunks * (k + 1) / want;
            runs.add(lo + (hi > lo + 1 ? r.nextLong(hi - lo) : 0));
        }
        for (long run : runs) {
            for (int m = 0; m < perRun; m++) samples.add(new long[]{run, run * d + (m + 1) * (d / perRun) - len});
        }
        int nStrat = samples.size() - nFixed;
        double[] err2 = new double[samples.size()], term2 = new double[samples.size()];
        // samples of one run chunk share its x trajectory: group them
        List<List<Integer>> groups = new ArrayList<>();
        for (int k = 0; k < samples.size(); k++) {
            if (k < nFixed || (k - nFixed) % perRun == 0) groups.add(new ArrayList<>());
            groups.get(groups.size() - 1).add(k);
        }
        SparseColumns csc = SparseColumns.of(b);
        groups.parallelStream().forEach(g -> {
            long run = samples.get(g.get(0))[0];
            long at = run * d;
            double[] x = NijenhuisWilf.startVector(b, at);
            DoubleDoubleGraySweep dd = new DoubleDoubleGraySweep(b);
            for (int k : g) {
                long start = samples.get(k)[1];
                advance(csc, x, at, start);
                KahanSum a = new KahanSum(), e = new KahanSum();
                double t2 = sweep(csc, x, start, start + len, a);
                dd.sum(start, start + len, e);
                at = start + len - 1;
                // the double-double partial's own value: sum + compensation carries the low part
                double diff = (a.sum() - e.sum()) + (a.compensation() - e.compensation());
                err2[k] = diff * diff;
                term2[k] = t2;
            }
        });
        double total = 0, terms = 0;
        double chunks = (double) steps / len;
        for (int k = 0; k < samples.size(); k++) {
            double w = k < nFixed ? 1 : (chunks - nFixed) / nStrat;
            total += w * err2[k];
            terms += w * term2[k];
        }
        return new RyserRoundingEstimate(Double.NaN, f * SAFETY * Math.sqrt(total), (long) samples.size() * len, f * Math.sqrt(terms));
    }

    /** Carries x (the double vector of step {@code from}) through the updates of steps from+1..to, as a run does. */
    private static void advance(SparseColumns csc, double[] x, long from, long to) {
        int[] colStart = csc.start(), rows = csc.rows();
        double[] vals = csc.values();
        for (long g = from + 1; g <= to; g++) {
            int j = Long.numberOfTrailingZeros(g);
            double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
            for (int k = colStart[j], e = colStart[j + 1]; k < e; k++) x[rows[k]] += s * vals[k];
        }
    }

    /** The double sweep of steps [start, end) from x (the vector of step start), leaving x at step end - 1; returns the sum of squared terms. */
    private static double sweep(SparseColumns csc, double[] x, long start, long end, KahanSum acc) {
        int[] colStart = csc.start(), rows = csc.rows();
        double[] vals = csc.values();
        double squares = 0;
        for (long g = start; g < end; g++) {
            if (g > start) {
                int j = Long.numberOfTrailingZeros(g);
                double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
                for (int k = colStart[j], e = colStart[j + 1]; k < e; k++) x[rows[k]] += s * vals[k];
            }
            double prod = 1;
            for (double v : x) prod *= v;
            acc.add((g & 1) == 0 ? prod : -prod);
            squares += prod * prod;
        }
        return squares;
    }

    /**
     * The absolute error estimate of a double sweep's value {@code p}: measured against the reference when there is
     * one (plus the reference's own error, 2^-45 of a double sweep's), else the sampled estimate.
     */
    public double errorOf(double p) {
        if (!Double.isNaN(reference)) return Math.abs(p - reference) + 0x1p-45 * sampled + 0x1p-90 * Math.abs(reference) + Double.MIN_VALUE;
        return sampled;
    }

    /**
     * The estimate for a double-double sweep: a double sweep's error (measured or estimated) scaled by the ratio of
     * the precisions (2^-53, with a margin of 2^8), plus the double-double rounding of the value itself.
     */
    public double errorOfDoubleDouble(double p) {
        return 0x1p-45 * sampled + 0x1p-100 * Math.abs(p) + Double.MIN_VALUE;
    }

    /** How much the alternating sum cancels: {@link #termScale} over {@code |p|} (infinite for p = 0). */
    public double cancellation(double p) {
        return termScale / Math.abs(p);
    }

    /** g with gray(g) = code. */
    static long inverseGray(long code) {
        long g = code;
        for (int s = 1; s < 64; s <<= 1) g ^= g >>> s;
        return g;
    }
}
