package dev.squall.bench.suite;

import java.util.Arrays;

/**
 * One workload at one size on one device: its timed samples, rate, ratio to the device's limit and verification.
 *
 * @param workload     workload id ({@link Workload#name()})
 * @param title        what it computes, in words
 * @param size         the problem size, in words
 * @param scale        the problem size as one number (points, rows, matrices, ...), for scaling charts
 * @param scaleUnit    what {@code scale} counts
 * @param device       device id
 * @param precision    fp32 or fp64
 * @param samplesMs    the timed samples, ms, in the order run (each as {@link Workload} defines its time)
 * @param medianMs     their median
 * @param spread       (largest - smallest) / median of the samples: the run-to-run spread
 * @param bound        memory or compute
 * @param work         counted bytes (memory) or flops (compute) of one sample
 * @param rate         work / median time, GB/s or GFLOP/s
 * @param limit        the device's measured limit for this bound (copy GB/s or fma GFLOP/s)
 * @param ratioToLimit rate / limit
 * @param note         the workload's own figure (pairs/s, updates/s, iterations, format chosen, ...)
 * @param error        error against the reference (see {@code checkedAgainst})
 * @param tolerance    largest error accepted
 * @param checkedAgainst the plain-Java reference and the measure of error
 * @param ok           the error is within the tolerance
 * @param wallMs       wall time of the whole measurement: setup, untimed and timed samples, verification
 */
public record Measurement(String workload, String title, String size, double scale, String scaleUnit, String device, String precision, double[] samplesMs,
                          double medianMs, double spread, Bound bound, double work, double rate, double limit, double ratioToLimit,
                          String note, double error, double tolerance, String checkedAgainst, boolean ok, double wallMs) {
    /** The median of {@code ms} (the upper middle one for an even count). */
    public static double median(double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** (largest - smallest) / median of {@code ms}. */
    public static double spread(double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        return (s[s.length - 1] - s[0]) / s[s.length / 2];
    }
}
