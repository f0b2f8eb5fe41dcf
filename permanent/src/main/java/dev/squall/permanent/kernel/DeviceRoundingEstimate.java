package dev.squall.permanent.kernel;

import dev.squall.permanent.cpu.RyserRoundingEstimate;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.*;

/**
 * {@link RyserRoundingEstimate#of(SquareMatrix, long, double)} with its re-computation on a device
 * ({@link EstimateKernels}, one execution of one task graph): the same sample ({@link RyserRoundingEstimate.Sample}),
 * the same arithmetic, the same combination, so a device sweep's estimate leaves the host's cores alone and costs the
 * device a few milliseconds (the sampled double-double chunks split into parts, the drift's run chunks into parts). The
 * plan and buffers stay on the device for the next estimate of the same order and run chunk (a warm repeat uploads
 * only the matrix).
 * Orders whose estimate takes the full double-double reference (n <= 15) and run chunks beyond 2^30 steps stay on the
 * JVM ({@link #runsOnDevice}).
 *
 * <pre>{@code
 * RyserRoundingEstimate e = DeviceRoundingEstimate.of(Devices.get("cuda:0"), swept, runChunk, RyserRoundingEstimate.GENERATED_KERNEL_ROUNDING);
 * }</pre>
 */
public final class DeviceRoundingEstimate {
    /** Parts a sampled chunk's double-double sum is split into (each from its own start vector). */
    static final int DOUBLE_DOUBLE_PARTS = 16;
    /** Parts a drift run chunk is split into (each walks x from the run chunk's start, sums its own steps). */
    static final int DRIFT_PARTS = 16;

    private DeviceRoundingEstimate() {
    }

    /** Whether {@link #of} re-computes on the device for order n and run chunk D (else it is the JVM estimate). */
    public static boolean runsOnDevice(int n, long runChunk) {
        return RyserRoundingEstimate.sampleSteps(n, runChunk) < dev.squall.permanent.gray.NijenhuisWilf.steps(n)
                && RyserRoundingEstimate.Sample.of(n, runChunk).runChunk() <= 1L << 30;
    }

    /**
     * The estimate of a double sweep of {@code b} (its column order) whose threads walk {@code runChunk} steps from a
     * fresh x, re-computed on {@code device}; the JVM estimate where {@link #runsOnDevice} is false.
     */
    public static RyserRoundingEstimate of(Device device, SquareMatrix b, long runChunk, double roundingFactor) {
        return run(device, b, runChunk, roundingFactor).estimate();
    }

    /** An estimate and the device time of its kernels (device events; 0 where it ran on the JVM). */
    public record Run(RyserRoundingEstimate estimate, double deviceMillis) {
    }

    /** {@link #of}, with the device time of its kernels. */
    public static Run run(Device device, SquareMatrix b, long runChunk, double roundingFactor) {
        int n = b.n();
        if (!runsOnDevice(n, runChunk)) return new Run(RyserRoundingEstimate.of(b, runChunk, roundingFactor), 0);
        Resident r = Resident.KEPT.take(device, k -> k.n == n && k.runChunk == runChunk, () -> new Resident(device, n, runChunk));
        boolean kept = false;
        try {
            double[] a = b.columnMajor();
            for (int i = 0; i < a.length; i++) r.cols.set(i, a[i]);
            double deviceMillis = r.plan.execute().profile().kernelMillis();
            Run run = new Run(combine(r, roundingFactor), deviceMillis);
            kept = true;
            return run;
        } finally {
            if (kept) Resident.KEPT.keep(device, r);
            else Resident.KEPT.release(r);
        }
    }

    /** The estimate from the groups' values as the JVM code combines its own ({@link RyserRoundingEstimate.Sample#combine}). */
    private static RyserRoundingEstimate combine(Resident r, double roundingFactor) {
        RyserRoundingEstimate.Sample s = r.sample;
        int chunks = s.chunkStarts().length, segments = r.segments, parts = r.parts, doubleItems = r.doubleItems;
        int runs = s.driftRuns().length, driftParts = r.driftParts;
        DoubleArray rounding = r.rounding, drift = r.drift;
        double[] err2 = new double[chunks], term2 = new double[chunks];
        for (int k = 0; k < chunks; k++) {
            // the double sum of the chunk: its stretches' compensated partials, in order (as the JVM's one KahanSum)
            dev.squall.permanent.numeric.KahanSum d = new dev.squall.permanent.numeric.KahanSum();
            for (int q = 0; q < segments; q++) {
                int t = k * segments + q;
                d.add(rounding.get(3L * t), rounding.get(3L * t + 1));
                term2[k] += rounding.get(3L * t + 2);
            }
            // the double-double sum of its parts (TwoSum of the high parts, low parts folded in)
            double hi = 0, lo = 0;
            for (int q = 0; q < parts; q++) {
                int t = doubleItems + k * parts + q;
                double ph = rounding.get(3L * t), pl = rounding.get(3L * t + 1);
                double sum = hi + ph, bb = sum - hi, e = (hi - (sum - bb)) + (ph - bb) + lo + pl;
                hi = sum + e;
                lo = e - (hi - sum);
            }
            double diff = (d.sum() - hi) + (d.compensation() - lo);
            err2[k] = diff * diff;
        }
        double[] driftSums = new double[runs];
        for (int run = 0; run < runs; run++) {
            dev.squall.permanent.numeric.KahanSum d = new dev.squall.permanent.numeric.KahanSum();
            for (int q = 0; q < driftParts; q++) d.add(drift.get((long) run * driftParts + q));
            driftSums[run] = d.value();
        }
        return s.combine(err2, term2, driftSums, roundingFactor);
    }

    /**
     * The task graph, plan and device buffers of the last estimate on a device, kept for the next one of the same order
     * and run chunk (a warm repeat then only uploads the matrix): the sample and every launch size follow from those two.
     */
    private static final class Resident {
        static final KeptPlans<Resident> KEPT = new KeptPlans<>(r -> r.plan);

        final int n;
        final long runChunk;
        final RyserRoundingEstimate.Sample sample;
        final int segments, parts, doubleItems, driftParts;
        final DoubleArray cols, rounding, drift;
        final ExecutionPlan plan;

        private Resident(Device device, int n, long runChunk) {
            this.n = n;
            this.runChunk = runChunk;
            sample = RyserRoundingEstimate.Sample.of(n, runChunk);
            int chunks = sample.chunkStarts().length;
            int length = (int) sample.length();
            int restart = (int) sample.restart();
            segments = length / restart;
            parts = Math.min(DOUBLE_DOUBLE_PARTS, length);
            doubleItems = chunks * segments;
            int roundingItems = doubleItems + chunks * parts;
            int runs = sample.driftRuns().length;
            int runChunkSteps = (int) sample.runChunk();
            driftParts = Math.min(DRIFT_PARTS, runChunkSteps);
            int driftItems = runs * driftParts;
            cols = new DoubleArray((long) n * n);
            LongArray chunkStarts = LongArray.fromArray(sample.chunkStarts());
            rounding = new DoubleArray(3L * roundingItems);
            TaskGraph g = new TaskGraph("estimate")
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, chunkStarts)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, cols)
                    .task("rounding", EstimateKernels::roundingChunks, new KernelContext(), cols, chunkStarts, rounding, n, length, restart, segments,
                            parts, doubleItems, roundingItems);
            if (runs > 0) {
                LongArray driftStarts = LongArray.fromArray(sample.driftRuns());
                drift = new DoubleArray(driftItems);
                g.transferToDevice(DataTransferMode.FIRST_EXECUTION, driftStarts)
                        .task("drift", EstimateKernels::driftParts, new KernelContext(), cols, driftStarts, drift, n, runChunkSteps, driftParts, driftItems);
                g.transferToHost(DataTransferMode.EVERY_EXECUTION, rounding, drift);
            } else {
                drift = null;
                g.transferToHost(DataTransferMode.EVERY_EXECUTION, rounding);
            }
            plan = new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true);
            // one work-group per stretch of steps, one work-item per row
            plan.withGrid("rounding", WorkerGrid.of((long) roundingItems * EstimateKernels.GROUP).withLocal(EstimateKernels.GROUP));
            if (runs > 0) plan.withGrid("drift", WorkerGrid.of((long) driftItems * EstimateKernels.GROUP).withLocal(EstimateKernels.GROUP));
        }
    }
}
