package dev.squall.bench.demo;

import dev.squall.bench.suite.DeviceLimits;
import dev.squall.bench.suite.Measurement;
import dev.squall.bench.suite.ResultHook;
import dev.squall.bench.suite.Suites;
import dev.squall.bench.suite.Workload;
import dev.squall.tasks.runtime.Device;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tour of {@code squall demo} on one device: the device's limits (STREAM copy, multiply-add throughput) measured
 * once and warm, then each workload of {@link Suites#demo} timed, related to the limit that bounds it, and verified
 * against its module's plain-Java reference.
 *
 * <pre>{@code DemoTour.Report r = DemoTour.run(Devices.get("jvm"), false, System.out); }</pre>
 */
public final class DemoTour {
    /** Sees every result before it is verified; tests set it to corrupt one (never set in a run). */
    static volatile ResultHook hook = ResultHook.NONE;

    private DemoTour() {
    }

    /** A device's tour: its limits and one measurement per workload. */
    public record Report(Device device, DeviceLimits limits, List<Measurement> rows) {
        /** Every workload's result matched its reference. */
        public boolean ok() {
            return rows.stream().allMatch(Measurement::ok);
        }
    }

    /** Timed samples per workload. */
    static int samples(boolean full) {
        return full ? 5 : 3;
    }

    /** Runs the tour ({@code full}: the larger sizes) on {@code device}, printing a line per step on {@code out} (null: quiet). */
    public static Report run(Device device, boolean full, PrintStream out) {
        return run(device, full, out, () -> {
        });
    }

    /** The steps of a tour: the limits, then each workload. */
    public static int steps(boolean full) {
        return 1 + Suites.demo(full).size();
    }

    /** As {@link #run(Device, boolean, PrintStream)}, calling {@code step} after each of the {@link #steps} steps. */
    public static Report run(Device device, boolean full, PrintStream out, Runnable step) {
        DeviceLimits limits = DeviceLimits.measure(device);
        step.run();
        if (out != null) {
            out.printf(Locale.ROOT, "== %s: %s%n   limits: STREAM copy %.1f GB/s (%d doubles an array, warm), multiply-add %.1f GFLOP/s%n",
                    device.id(), device.info().name(), limits.copyGbs(), limits.copyElements(), limits.fmaGflops());
        }
        List<Measurement> rows = new ArrayList<>();
        for (Workload w : Suites.demo(full)) {
            Measurement m = w.measure(device, limits, samples(full), hook);
            rows.add(m);
            step.run();
            if (out != null) out.println(line(m));
        }
        return new Report(device, limits, rows);
    }

    /** One workload's line: what, size, median time, rate, ratio to the limit, its own figure, the check. */
    static String line(Measurement m) {
        return String.format(Locale.ROOT, "   %-34s %-24s %9.3f ms %9.2f %-7s %5.2f of %-4s  %s%n   %34s error %.1e (<= %.1e) %s: %s [%.1f s]",
                m.title(), m.size(), m.medianMs(), m.rate(), m.bound().unit(), m.ratioToLimit(), m.bound().limitName(), m.note(),
                "", m.error(), m.tolerance(), m.ok() ? "ok" : "WRONG", m.checkedAgainst(), m.wallMs() / 1e3);
    }

    /**
     * The comparison: a row per workload, a column per device (median time and ratio to the device's limit), the
     * fastest device and its speedup over the slowest.
     */
    public static void table(List<Report> reports, PrintStream out) {
        if (reports.isEmpty()) return;
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-12s %-24s", "workload", "size"));
        for (Report r : reports) head.append(String.format(Locale.ROOT, " %24s", r.device().id()));
        head.append("  fastest");
        out.println(head);
        int n = reports.getFirst().rows().size();
        for (int i = 0; i < n; i++) {
            Measurement first = reports.getFirst().rows().get(i);
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-12s %-24s", first.workload(), first.size()));
            Measurement best = null, worst = null;
            for (Report r : reports) {
                Measurement m = r.rows().get(i);
                row.append(String.format(Locale.ROOT, " %10.3f ms %4.2f %-4s%s", m.medianMs(), m.ratioToLimit(), m.bound().limitName(), m.ok() ? " " : "!"));
                if (best == null || m.medianMs() < best.medianMs()) best = m;
                if (worst == null || m.medianMs() > worst.medianMs()) worst = m;
            }
            row.append(reports.size() > 1 ? String.format(Locale.ROOT, "  %s (%.1fx)", best.device(), worst.medianMs() / best.medianMs()) : "  " + best.device());
            out.println(row);
        }
        out.println("ratios: rate over the device's STREAM copy (GB/s) or multiply-add (GFLOP/s) limit; ! marks a wrong result");
    }
}
