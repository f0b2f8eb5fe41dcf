package dev.squall.bench.suite;

import dev.squall.tasks.runtime.Device;

/**
 * A Squall workload at one size, through its module's public API: run on a device, timed, and verified against the
 * module's plain-Java reference. {@link #measure} sets it up, runs untimed samples (kernel builds, uploads, a cold
 * JIT: one, and more while they take less than {@value #WARM_UP_NANOS} ns in all, at most {@value #WARM_UP_MAX}), then
 * the timed samples, then checks the last result.
 */
public abstract class Workload {
    static final long WARM_UP_NANOS = 200_000_000L;
    static final int WARM_UP_MAX = 10;

    /** A workload set up on a device. */
    protected interface Run extends AutoCloseable {
        /** Runs the workload once; returns its time in ms (device time where the API gives it). */
        double sample();

        /** Counted bytes (memory-bound) or flops (compute-bound) of one sample; called after the samples. */
        double work();

        /** The workload's own figure for the median time, e.g. "2.1e+08 pairs/s". */
        String note(double medianMs);

        /** Verifies the latest result, after {@code hook} has seen it. */
        Check check(ResultHook hook);

        @Override
        void close();
    }

    private final String name;
    private final String title;
    private final String scaleUnit;
    private final String precision;
    private final Bound bound;

    /**
     * @param name      short id: h2, ksum-dense, ksum-sparse, spmv, pcg, cholesky, sgd, permanent
     * @param title     what it computes, e.g. "H2 matvec"
     * @param scaleUnit what {@link #scale()} counts: points, entries, rows, matrices, ratings, order
     * @param precision fp32 or fp64
     * @param bound     what limits it
     */
    protected Workload(String name, String title, String scaleUnit, String precision, Bound bound) {
        this.name = name;
        this.title = title;
        this.scaleUnit = scaleUnit;
        this.precision = precision;
        this.bound = bound;
    }

    /** Short id: h2, ksum-dense, ksum-sparse, spmv, pcg, cholesky, sgd, permanent. */
    public final String name() {
        return name;
    }

    /** What it computes, e.g. "H2 matvec". */
    public final String title() {
        return title;
    }

    /** The size in words, e.g. "2d n=4096". */
    public abstract String size();

    /** The size as one number, for scaling charts. */
    public abstract double scale();

    /** What {@link #scale()} counts: points, entries, rows, matrices, ratings, order. */
    public final String scaleUnit() {
        return scaleUnit;
    }

    /** fp32 or fp64. */
    public final String precision() {
        return precision;
    }

    /** What limits it. */
    public final Bound bound() {
        return bound;
    }

    /** Sets up on {@code device} (inputs, inspectors, plans); the first sample may still build kernels. */
    protected abstract Run start(Device device);

    /** Sets up, runs the untimed and {@code samples} timed samples, verifies, and relates the rate to {@code limits}. */
    public Measurement measure(Device device, DeviceLimits limits, int samples, ResultHook hook) {
        if (samples < 1) throw new IllegalArgumentException("samples must be at least 1, got " + samples);
        long t0 = System.nanoTime();
        try (Run run = start(device)) {
            // untimed samples: builds and uploads, then the JVM backend's JIT, which a single small sample leaves cold
            long warm = System.nanoTime();
            for (int w = 0; w < WARM_UP_MAX && (w == 0 || System.nanoTime() - warm < WARM_UP_NANOS); w++) run.sample();
            double[] ms = new double[samples];
            for (int s = 0; s < samples; s++) ms[s] = run.sample();
            double median = Measurement.median(ms);
            double work = run.work();
            double rate = work / (median * 1e-3) / 1e9;
            double limit = limits.limit(bound());
            Check c = run.check(hook);
            return new Measurement(name(), title(), size(), scale(), scaleUnit(), device.id(), precision(), ms, median, Measurement.spread(ms), bound(), work, rate,
                    limit, rate / limit, run.note(median), c.error(), c.tolerance(), c.against(), c.ok(), (System.nanoTime() - t0) / 1e6);
        }
    }

    @Override
    public String toString() {
        return name() + " " + size();
    }
}
