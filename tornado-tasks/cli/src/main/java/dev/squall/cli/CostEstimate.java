package dev.squall.cli;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Warns on stderr before work expected to take more than {@link #WARN_SECONDS} on the chosen device. The rates are
 * deliberately rough: a GPU at 150 GFLOP/s per multiprocessor (about a third of an H100 multiprocessor's fp32 FMA peak,
 * 128 lanes x 2 x 1.98 GHz), at least 1 TFLOP/s; a CPU or the JVM at 4 GFLOP/s per core. The point is to say "this
 * will take minutes" before a 10-minute run without crying wolf before a 5-second one, not to predict times.
 */
public final class CostEstimate {
    /** Work expected to take longer than this draws a warning. */
    public static final double WARN_SECONDS = 30;

    private CostEstimate() {
    }

    /** Floating-point operations per second assumed for {@code device}. */
    public static double flopRate(Device device) {
        return flopRate(device.info());
    }

    static double flopRate(DeviceInfo info) {
        int units = Math.max(1, info.computeUnits());
        if (info.type() == DeviceType.GPU) return Math.max(1e12, GPU_FLOPS_PER_UNIT * units);
        return CPU_FLOPS_PER_CORE * units;
    }

    /** Assumed rate of one GPU multiprocessor / compute unit. */
    static final double GPU_FLOPS_PER_UNIT = 1.5e11;
    /** Assumed rate of one CPU core. */
    static final double CPU_FLOPS_PER_CORE = 4e9;

    /** Expected seconds of {@code flops} operations on {@code device}. */
    public static double seconds(Device device, double flops) {
        return flops / flopRate(device);
    }

    /**
     * Prints a warning on {@code err} when {@code flops} operations are expected to take longer than
     * {@link #WARN_SECONDS} on {@code device}; {@code what} names the work ("gemm 8192 x 8192 x 8192, 6 runs").
     * Returns the estimate in seconds.
     */
    public static double warnIfSlow(PrintStream err, Device device, double flops, String what) {
        double s = seconds(device, flops);
        warnIfSlowSeconds(err, device, s, what);
        return s;
    }

    /** As {@link #warnIfSlow} for a caller that estimated the seconds itself. */
    public static void warnIfSlowSeconds(PrintStream err, Device device, double seconds, String what) {
        if (seconds > WARN_SECONDS) {
            err.printf(Locale.ROOT, "squall: warning: %s is expected to take about %s on %s (%s); smaller sizes or a GPU run faster%n",
                    what, duration(seconds), device.id(), device.info().name());
        }
    }

    /** "45 s", "12 min", "3.1 h". */
    static String duration(double s) {
        if (s < 120) return String.format(Locale.ROOT, "%.0f s", s);
        if (s < 7200) return String.format(Locale.ROOT, "%.0f min", s / 60);
        if (s < 2 * 86400) return String.format(Locale.ROOT, "%.1f h", s / 3600);
        return String.format(Locale.ROOT, "%.3g days", s / 86400);
    }
}
