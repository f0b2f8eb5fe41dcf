package dev.squall.permanent.cpu;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The multi-threaded JVM permanent: the 2^(n-1) Gray-code steps are cut into power-of-two
 * aligned chunks, each thread starts a chunk from {@code x^(start)} and keeps a compensated
 * partial; partials are then summed in chunk order, so the result does not depend on the number
 * of threads or on scheduling.
 *
 * <pre>{@code
 * double p = new ChunkedJvmPermanent(8).dense(a);            // 8 threads, dense sweep
 * double q = new ChunkedJvmPermanent(8).sparse(a);           // CSC updates, zero tracking
 * }</pre>
 */
public final class ChunkedJvmPermanent {
    /** Target number of chunks: enough for load balance, few enough that start vectors are cheap. */
    static final int TARGET_CHUNKS = 4096;

    private final int threads;
    private ProgressListener progress = ProgressListener.NONE;

    /** @param threads worker threads, at least 1 */
    public ChunkedJvmPermanent(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.threads = threads;
    }

    public ChunkedJvmPermanent withProgress(ProgressListener listener) {
        this.progress = listener;
        return this;
    }

    public double dense(SquareMatrix a) {
        return run(a.n(), () -> new DenseGraySweep(a));
    }

    public double sparse(SquareMatrix a) {
        return run(a.n(), () -> new SparseGraySweep(a));
    }

    /** Double-double sweep ({@link DoubleDoubleGraySweep}): about 10x slower, accurate to ~1e-16 of the terms' size. */
    public double accurate(SquareMatrix a) {
        return run(a.n(), () -> new DoubleDoubleGraySweep(a));
    }

    /** Row updates and products (steps x n) per worker thread below which fewer threads start: a thread costs ~0.1 ms. */
    static final long WORK_PER_THREAD = 1L << 21;

    /** Threads worth starting for order n: {@code threads}, fewer when the sweep is a few milliseconds of work. */
    public static int usefulThreads(int n, int threads) {
        return (int) Math.max(1, Math.min(threads, NijenhuisWilf.steps(n) * n / WORK_PER_THREAD));
    }

    /** Steps per chunk for order n: the largest power of two giving at least {@link #TARGET_CHUNKS} chunks (at least 1). */
    public static long chunkSize(int n) {
        return Math.max(1L, Long.highestOneBit(Math.max(1L, NijenhuisWilf.steps(n) / TARGET_CHUNKS)));
    }

    /** Runs {@code 2^(n-1)} steps with one sweep per thread; returns the permanent. */
    public double run(int n, Supplier<GraySweep> sweeps) {
        long steps = NijenhuisWilf.steps(n);
        long chunk = chunkSize(n);
        int chunks = (int) ((steps + chunk - 1) / chunk);
        double[] sums = new double[chunks], comps = new double[chunks];
        AtomicInteger next = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        RuntimeException[] failure = new RuntimeException[1];
        Runnable work = () -> {
            try {
                GraySweep sweep = sweeps.get();
                for (int c; (c = next.getAndIncrement()) < chunks; ) {
                    long start = c * chunk, end = Math.min(steps, start + chunk);
                    KahanSum acc = new KahanSum();
                    sweep.sum(start, end, acc);
                    sums[c] = acc.sum();
                    comps[c] = acc.compensation();
                    progress.stepsDone(done.addAndGet(end - start), steps);
                }
            } catch (RuntimeException e) {
                synchronized (failure) {
                    failure[0] = e;
                }
                next.set(chunks);
            }
        };
        WorkerThreads.run(work, Math.min(usefulThreads(n, threads), chunks), "permanent", "computing a permanent");
        if (failure[0] != null) throw failure[0];
        return NijenhuisWilf.finalFactor(n) * reduce(sums, comps);
    }

    /** Deterministic final reduction: compensated, in chunk order. */
    static double reduce(double[] sums, double[] comps) {
        KahanSum total = new KahanSum();
        for (int c = 0; c < sums.length; c++) total.add(sums[c], comps[c]);
        return total.value();
    }
}
