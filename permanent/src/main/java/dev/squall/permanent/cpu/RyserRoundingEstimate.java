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
 * An estimate of the rounding error of a double-precision Gray-code Ryser sweep whose threads each
 * walk a run chunk of D steps from a fresh x, in two parts, on a sample fixed by n and D (a fixed
 * seed: the same matrix and run chunk give the same estimate):
 * <ol>
 * <li>Rounding of the products and sums: {@link #sampledChunks} (64-256) aligned chunks of
 * {@code L = min(2^12, steps / 2^14)} steps (1/64 of the sweep or less, at most 2^18 steps; the first, the one whose columns are all chosen, where a nonnegative matrix has its largest
 * terms, the last, and the rest one per stratum) are summed in double from a fresh x and in
 * double-double ({@link DoubleDoubleGraySweep}); the differences {@code e_k} are independent
 * roundings and add as a random walk, {@code sum_k w_k e_k^2}, w_k the chunks a sample stands for.</li>
 * <li>Drift of x: over a run chunk x picks up the rounding of every update; its error {@code eps}
 * is carried exactly (TwoSum) beside x on {@value #DRIFT_RUN_CHUNKS} whole run chunks, and its first-order
 * effect {@code sum_g (-1)^g sum_i eps_i prod_(k != i) x_k} summed over each whole run chunk (this sum
 * matches the actual error of long-chunk runs to a few percent): the effects within one run chunk
 * cancel largely, so sampling pieces of it as a random walk would overstate the error 10-100x. Adjacent
 * run chunks walk x through nearly the same values and their effects share signs, so they are taken in
 * groups of {@value #DRIFT_GROUP}, summed coherently; groups add as a random walk, times {@value #COHERENCE}
 * for the correlation beyond a group.</li>
 * </ol>
 * The estimate is {@code SAFETY sqrt(rounding + COHERENCE^2 drift)}. It costs {@link #sampleSteps} steps in each
 * precision plus {@link #driftSteps} drift steps (each about twice a double sweep step). Up to
 * {@value #FULL_REFERENCE_STEPS} steps (n <= 15) the whole double-double sum is the reference instead and the error
 * of a computed value is measured, not estimated. An estimate, not a bound: it can miss a rare chunk
 * with far larger terms than the sampled ones (calibration against exact values:
 * {@code permanent/ACCURACY.md}).
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
 * @param order       n, the matrix order
 */
public record RyserRoundingEstimate(double reference, double sampled, long sampleSteps, double termScale, int order) {
    /** Safety factor on the random-walk estimate (calibrated: ACCURACY.md). */
    static final double SAFETY = 3;
    /** log2 of the longest sampled chunk length L. */
    static final int LOG_CHUNK = 12;
    /**
     * log2 of steps per sampled chunk: L = steps / 2^14 (at most 2^12), so the {@value #MAX_SAMPLED_CHUNKS} chunks are
     * 1/64 of the steps up to n = 25 and at most 2^18 steps beyond: in double and double-double (~6x a double step)
     * ~11% of the sweep or less.
     */
    static final int LOG_STEPS_PER_CHUNK = 14;
    /** Most chunks sampled (the short chunks of n <= 25: many, for a stable random-walk estimate). */
    static final int MAX_SAMPLED_CHUNKS = 256;
    /** Steps sampled at most (n >= 27: {@value #SAMPLED_CHUNKS} chunks of 2^12). */
    static final long MAX_SAMPLED_STEPS = 1L << 18;
    /** Up to this many steps (n <= 15) the whole double-double sum is the reference: it costs under a few milliseconds. */
    static final long FULL_REFERENCE_STEPS = 1L << 14;
    /** Fewest chunks of L steps re-computed in double and double-double (three of them fixed: first, largest terms, last). */
    static final int SAMPLED_CHUNKS = 64;
    /** Whole run chunks whose drift is summed (two fixed: the first and the one of the largest terms). */
    static final int DRIFT_RUN_CHUNKS = 32;
    /**
     * Factor on the drift's random walk over groups: the run chunks' drift effects share signs beyond adjacent ones
     * (summed over all run chunks of n = 26..28 matrices they reach up to 3.4 times their random walk; ACCURACY.md).
     */
    static final double COHERENCE = 2;
    /** Adjacent run chunks whose drift effects are summed coherently. */
    static final int DRIFT_GROUP = 4;
    private static final long SEED = 0x5eed_13L;

    /** Sampled chunk length for order n. */
    static long chunkLength(int n) {
        return Math.max(1, Math.min(1L << LOG_CHUNK, NijenhuisWilf.steps(n) >>> LOG_STEPS_PER_CHUNK));
    }

    /** Steps {@link #of} computes in double and in double-double for order n and run chunk D (all steps when that is cheaper). */
    public static long sampleSteps(int n, long runChunk) {
        long steps = NijenhuisWilf.steps(n);
        return steps <= FULL_REFERENCE_STEPS ? steps : (long) sampledChunks(n) * chunkLength(n);
    }

    /** Chunks sampled for order n (beyond the full reference): {@value #MAX_SAMPLED_CHUNKS}, fewer once L reaches 2^12. */
    static int sampledChunks(int n) {
        return (int) Math.max(SAMPLED_CHUNKS, Math.min(MAX_SAMPLED_CHUNKS, MAX_SAMPLED_STEPS / chunkLength(n)));
    }

    /** Steps {@link #of} spends summing the drift of x over whole run chunks (0 when it takes the full reference or D <= L). */
    public static long driftSteps(int n, long runChunk) {
        long steps = NijenhuisWilf.steps(n), d = runChunkOf(n, runChunk);
        if (sampleSteps(n, runChunk) >= steps || d <= chunkLength(n)) return 0;
        return Math.min(steps / d, DRIFT_RUN_CHUNKS) * d;
    }

    /**
     * The estimate's work in double sweep steps: each sampled step once in double and once in double-double (~7 double
     * steps: ACCURACY.md measured 5-8.5x), each drift step ~2 (the update with TwoSum and the first-order sum).
     */
    public static double workInDoubleSteps(int n, long runChunk) {
        return sampleSteps(n, runChunk) * 8.0 + driftSteps(n, runChunk) * 2.0;
    }

    /**
     * @param b        the matrix the sweep ran on (its column order: x drifts with it)
     * @param runChunk the steps one thread of the run walks from a fresh start (rounded down to a power of two)
     */
    public static RyserRoundingEstimate of(SquareMatrix b, long runChunk) {
        return of(b, runChunk, 1);
    }

    /**
     * Factor on the rounding part for the generated kernels ({@code codegen-*}): they sum 16-32 terms per unrolled block
     * plainly (even and odd steps apart) and keep level products between steps, where the sample here sums every term
     * compensated and multiplies afresh. On the H100 their error at n = 32 (ER p = 0.5, run chunks of 2^12, where the
     * rounding part is the whole estimate) reached 5.1x the plain estimate, and 8.6x with products formed in another order
     * (ACCURACY.md): 16 covers it with a margin of ~2.
     */
    public static final double GENERATED_KERNEL_ROUNDING = 16;

    /**
     * As {@link #of(SquareMatrix, long)}, with the rounding part (products and sums, sampled chunks) scaled by
     * {@code roundingFactor} for a sweep whose arithmetic rounds more than the sample's ({@link #GENERATED_KERNEL_ROUNDING}).
     */
    public static RyserRoundingEstimate of(SquareMatrix b, long runChunk, double roundingFactor) {
        if (!(roundingFactor >= 1)) throw new IllegalArgumentException("rounding factor must be >= 1, got " + roundingFactor);
        int n = b.n();
        long steps = NijenhuisWilf.steps(n);
        double f = Math.abs(NijenhuisWilf.finalFactor(n));
        if (sampleSteps(n, runChunk) >= steps) {
            long chunk = Math.min(steps, 1L << 12);
            int chunks = (int) (steps / chunk);
            double[] hi = new double[chunks], lo = new double[chunks], dbl = new double[chunks], dblLo = new double[chunks], sq = new double[chunks];
            SparseColumns csc = SparseColumns.of(b);
            forEach(chunks, steps * n * 8, c -> {
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
            return new RyserRoundingEstimate(ref, Math.abs(NijenhuisWilf.finalFactor(n) * u.value() - ref), steps, f * Math.sqrt(squares), n);
        }
        Sample plan = Sample.of(n, runChunk);
        long len = plan.length();
        double[] err2 = new double[plan.chunkStarts().length], term2 = new double[plan.chunkStarts().length];
        SparseColumns csc = SparseColumns.of(b);
        forEach(err2.length, err2.length * len * n * 8, k -> {
            long start = plan.chunkStarts()[k];
            KahanSum a = new KahanSum(), e = new KahanSum();
            // from a fresh x every `restart` steps, as the run restarts its threads (when its chunks are shorter than L)
            for (long at = start; at < start + len; at += plan.restart()) term2[k] += sweep(csc, NijenhuisWilf.startVector(b, at), at, at + plan.restart(), a);
            new DoubleDoubleGraySweep(b).sum(start, start + len, e);
            // the double-double partial's own value: sum + compensation carries the low part
            double diff = (a.sum() - e.sum()) + (a.compensation() - e.compensation());
            err2[k] = diff * diff;
        });
        double[] part = new double[plan.driftRuns().length];
        forEach(part.length, part.length * plan.runChunk() * n * 2, t -> part[t] = driftSum(b, csc, plan.driftRuns()[t], plan.driftRuns()[t], plan.driftRuns()[t] + plan.runChunk()));
        return plan.combine(err2, term2, part, roundingFactor);
    }

    /**
     * What {@link #of} re-computes, fixed by n and the run chunk D (so the JVM and a device compute the same sample):
     * the sampled chunks of {@link #length} steps (their first steps; a fresh x every {@link #restart} steps within
     * them) and the drift's whole run chunks of {@link #runChunk} steps (their first steps, in groups of {@link #group}
     * adjacent ones; none when D <= L).
     *
     * @param order       n
     * @param length      L, steps per sampled chunk
     * @param restart     the double sweep of a sampled chunk starts from a fresh x every this many steps (the run's
     *                    chunk when shorter than L)
     * @param chunkStarts first step of each sampled chunk; the first {@code fixedChunks} are weighted 1
     * @param fixedChunks the fixed chunks (first, largest terms, last)
     * @param runChunk    D, the steps a run's thread walks from a fresh x
     * @param driftRuns   first step of each drift run chunk, {@code group} adjacent ones per group; the first
     *                    {@code fixedGroups} groups are weighted 1
     * @param group       adjacent run chunks per group (their drift effects add coherently)
     * @param fixedGroups the fixed groups (the first run chunk's and the largest terms')
     * @param groups      groups in the whole sweep
     */
    public record Sample(int order, long length, long restart, long[] chunkStarts, int fixedChunks, long runChunk, long[] driftRuns, int group,
                         int fixedGroups, long groups) {
        /** The sample of {@link #of}: only where it does not take the full reference ({@code sampleSteps(n, D) < 2^(n-1)}). */
        public static Sample of(int n, long runChunk) {
            long steps = NijenhuisWilf.steps(n);
            if (sampleSteps(n, runChunk) >= steps) throw new IllegalArgumentException("order " + n + " takes the full double-double reference, not a sample");
            long len = chunkLength(n);
            long d = runChunkOf(n, runChunk);
            long restart = Math.min(len, Math.max(1, Long.highestOneBit(Math.max(1, runChunk))));
            double chunks = (double) steps / len;
            // (1) rounding of products and sums: chunks of L steps from a fresh x, double against double-double
            long peak = inverseGray((1L << (n - 1)) - 1);
            Set<Long> fixed = new LinkedHashSet<>(List.of(0L, peak / len, (long) chunks - 1));
            List<Long> picked = new ArrayList<>(fixed);
            SplittableRandom r = new SplittableRandom(SEED ^ n);
            int strata = sampledChunks(n) - fixed.size();
            for (int k = 0; k < strata; k++) {
                long lo = (long) (chunks * k / strata), hi = (long) (chunks * (k + 1) / strata);
                picked.add(lo + (hi > lo + 1 ? r.nextLong(hi - lo) : 0));
            }
            long[] starts = picked.stream().mapToLong(c -> c * len).toArray();
            if (d <= len) return new Sample(n, len, restart, starts, fixed.size(), d, new long[0], 1, 0, 0);
            // (2) groups of adjacent run chunks (their drift effects are correlated: their x walk through nearly the same
            // values), summed coherently within a group; groups add as a random walk. Fixed: the groups of the first
            // run chunk and of the largest terms' run chunk, the rest one per stratum.
            long runs = steps / d;
            int group = (int) Math.min(DRIFT_GROUP, runs);
            long groups = runs / group;
            List<Long> groupPicked = new ArrayList<>(new LinkedHashSet<>(List.of(0L, peak / d / group)));
            int groupFixed = groupPicked.size();
            int strataCount = (int) Math.min(groups - groupFixed, DRIFT_RUN_CHUNKS / group - groupFixed);
            for (int k = 0; k < strataCount; k++) {
                long lo = groups * k / strataCount, hi = groups * (k + 1) / strataCount;
                long c = lo + (hi > lo + 1 ? r.nextLong(hi - lo) : 0);
                while (groupPicked.contains(c)) c = (c + 1) % groups;
                groupPicked.add(c);
            }
            long[] driftRuns = new long[groupPicked.size() * group];
            for (int t = 0; t < driftRuns.length; t++) driftRuns[t] = (groupPicked.get(t / group) * group + t % group) * d;
            return new Sample(n, len, restart, starts, fixed.size(), d, driftRuns, group, groupFixed, groups);
        }

        /**
         * The estimate from the re-computed sample: per sampled chunk its squared error {@code err2} (double minus
         * double-double) and squared terms {@code term2}; per drift run chunk ({@link #driftRuns} order) its drift sum.
         */
        public RyserRoundingEstimate combine(double[] err2, double[] term2, double[] drift, double roundingFactor) {
            if (!(roundingFactor >= 1)) throw new IllegalArgumentException("rounding factor must be >= 1, got " + roundingFactor);
            int n = order;
            double steps = NijenhuisWilf.steps(n), f = Math.abs(NijenhuisWilf.finalFactor(n));
            double chunks = steps / length;
            int sampled = chunkStarts.length;
            double rounding = 0, terms = 0;
            for (int k = 0; k < sampled; k++) {
                double w = k < fixedChunks ? 1 : (chunks - fixedChunks) / (sampled - fixedChunks);
                rounding += w * err2[k];
                terms += w * term2[k];
            }
            // drift of x through whole run chunks (their errors cancel within a run chunk, so they are summed there,
            // to first order: sum_g (-1)^g sum_i eps_i(g) prod_(k != i) x_k(g), eps = exact x - double x)
            double driftSquares = 0;
            int picked = driftRuns.length / Math.max(1, group);
            for (int k = 0; k < picked; k++) {
                double delta = 0;
                for (int q = 0; q < group; q++) delta += drift[k * group + q];
                double w = k < fixedGroups ? 1 : (double) (groups - fixedGroups) / (picked - fixedGroups);
                driftSquares += w * delta * delta;
            }
            return new RyserRoundingEstimate(Double.NaN, f * SAFETY * Math.sqrt(roundingFactor * roundingFactor * rounding + COHERENCE * COHERENCE * driftSquares),
                    sampled * length, f * Math.sqrt(terms), n);
        }
    }

    /**
     * Runs {@code task} for 0..count-1: on the common pool when the work (in double-step row operations) is worth the
     * threads, else in a plain loop on this thread (a cold process then loads no stream machinery for a few ms of work).
     */
    private static void forEach(int count, long work, java.util.function.IntConsumer task) {
        if (work > 1L << 21) IntStream.range(0, count).parallel().forEach(task);
        else for (int i = 0; i < count; i++) task.accept(i);
    }

    /** The run chunk as {@link #of} uses it: a power of two, at least one sampled chunk, at most every step. */
    static long runChunkOf(int n, long runChunk) {
        return Math.max(chunkLength(n), Math.min(NijenhuisWilf.steps(n), Long.highestOneBit(Math.max(1, runChunk))));
    }

    /**
     * The first-order effect of x's drift on steps [from, to) of the run chunk that starts afresh at {@code run}:
     * x is carried in double from the run's start as the run carries it, its error {@code eps} (exact minus double)
     * exactly alongside (each update's rounding, by TwoSum), and each step adds {@code (-1)^g sum_i eps_i prod_(k != i) x_k}.
     */
    static double driftSum(SquareMatrix b, SparseColumns csc, long run, long from, long to) {
        int n = b.n();
        double[] x = NijenhuisWilf.startVector(b, run), hi = new double[n], lo = new double[n], eps = new double[n];
        DoubleDoubleGraySweep.startVector(b, run, hi, lo);
        for (int i = 0; i < n; i++) eps[i] = (hi[i] - x[i]) + lo[i];
        int[] colStart = csc.start(), rows = csc.rows();
        double[] vals = csc.values();
        KahanSum acc = new KahanSum();
        for (long g = run + 1; g < to; g++) {
            int j = Long.numberOfTrailingZeros(g);
            double s = ((g >>> (j + 1)) & 1L) == 0 ? 1.0 : -1.0;
            for (int k = colStart[j], e = colStart[j + 1]; k < e; k++) {
                int row = rows[k];
                double old = x[row], w = s * vals[k], nx = old + w, bb = nx - old;
                eps[row] += (old - (nx - bb)) + (w - bb);
                x[row] = nx;
            }
            if (g < from) continue;
            double term = driftTerm(x, eps, n);
            acc.add((g & 1) == 0 ? term : -term);
        }
        if (from == run) { // the run's first step
            double[] x0 = NijenhuisWilf.startVector(b, run), e0 = new double[n];
            for (int i = 0; i < n; i++) e0[i] = (hi[i] - x0[i]) + lo[i];
            double term = driftTerm(x0, e0, n);
            acc.add((run & 1) == 0 ? term : -term);
        }
        return acc.value();
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

    /** Rows per group of the drift term ({@link #driftTerm}): the order the device estimate multiplies in. */
    public static final int PRODUCT_GROUP = 8;

    /**
     * {@code sum_i eps_i prod_(k != i) x_k} by groups of {@value #PRODUCT_GROUP} rows (as {@code kernel.EstimateKernels}): within a group the pair (s, p) goes
     * {@code s = s x_i + eps_i p, p = p x_i}; groups join as {@code S = S p + P s, P = P p}.
     */
    static double driftTerm(double[] x, double[] eps, int n) {
        double sTotal = 0, pTotal = 1;
        for (int k = 0; k < n; k += PRODUCT_GROUP) {
            double s = 0, p = 1;
            for (int i = k, e = Math.min(n, k + PRODUCT_GROUP); i < e; i++) {
                s = s * x[i] + eps[i] * p;
                p *= x[i];
            }
            sTotal = sTotal * p + pTotal * s;
            pTotal *= p;
        }
        return sTotal;
    }

    /**
     * The absolute error estimate of a double sweep's value {@code p}: measured against the reference when there is
     * one (plus the reference's own error, 2^-45 of a double sweep's), else the sampled estimate plus (n + 4) u |p|:
     * a sum no larger than its terms is not trusted below one term's own roundings (a product of n factors, the
     * final reduction), which a sample's random walk can miss when the actual error is a few units.
     */
    public double errorOf(double p) {
        if (!Double.isNaN(reference)) return Math.abs(p - reference) + 0x1p-45 * sampled + 0x1p-90 * Math.abs(reference) + Double.MIN_VALUE;
        return sampled + 0x1p-53 * (order + 4) * Math.abs(p);
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
