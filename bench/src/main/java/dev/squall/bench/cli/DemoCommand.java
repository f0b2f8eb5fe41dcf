package dev.squall.bench.cli;

import dev.squall.bench.demo.DemoTour;
import dev.squall.bench.suite.Measurement;
import dev.squall.cli.DeviceOption;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.OutputOptions;
import dev.squall.cli.Progress;
import dev.squall.cli.SquallSubcommand;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** {@code squall demo}: what Squall is for, on every device present, timed, related to each device's limits and verified. */
@Command(name = "demo", header = "A tour of Squall on every device present: H2, kernel sums, SpMV, PCG, Cholesky, SGD, a permanent.",
        sortOptions = false,
        description = {"Runs on every device present (or the one --device names): an H2 matrix-vector product on a 2-D point cloud with its"
                + " approximation error, a Gaussian kernel sum dense and block-sparse, SpMV in the automatically chosen format on a real"
                + " matrix (1138_bus), a Jacobi-PCG solve, a batch of small Cholesky factorisations, SGD epochs of a matrix factorisation"
                + " and a permanent. Each reports its median time, its rate (GB/s of counted bytes, or GFLOP/s), the ratio of that rate to"
                + " the device's measured limit (STREAM copy bandwidth, or multiply-add throughput, each measured once per device after a"
                + " warm-up) and its error against the module's plain-Java reference; then a table compares the devices. A wrong result"
                + " exits 1.", "",
                "Examples:",
                "  squall demo",
                "  squall demo --device jvm --json",
                "  squall demo --full --device cuda:0   # needs a GPU"},
        footer = {"", ExitCode.HELP})
public final class DemoCommand implements SquallSubcommand {
    @Option(names = "--quick", description = "small sizes: about a minute on a 2-core machine with two devices (the default)")
    boolean quick;

    @Option(names = "--full", description = "larger sizes (minutes on a CPU; seconds on a GPU)")
    boolean full;

    @Mixin
    DeviceOption device;

    @Mixin
    OutputOptions output;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the sizes run (quick or full), the Java version, each
     * device's measured limits ({@link DeviceLimitsRow}), one row per device and workload ({@link Row}), the fastest
     * device per workload ({@link Fastest}), backends absent, and {@code ok} (every result matched its reference).
     */
    public record Result(String command, String sizes, String java, List<DeviceLimitsRow> devices, List<Row> rows, List<Fastest> fastest,
                         List<String> absent, boolean ok) {
    }

    /** A device: id, name, STREAM copy GB/s, multiply-add GFLOP/s, time taken to measure them (ms). */
    public record DeviceLimitsRow(String device, String name, double copyGbs, double fmaGflops, double measureMs) {
    }

    /**
     * A workload on a device: its id and title, size in words and as a number, device, precision, the timed samples (ms)
     * and their median, the spread ((max - min) / median), the bound (memory or compute), the counted work of a sample
     * (bytes or flops), the rate (GB/s or GFLOP/s) and its unit, the device's limit for that bound and the ratio to it,
     * the workload's own figure, the error against the reference, the tolerance, what it was compared with, {@code ok}, and
     * the wall time of the whole measurement (setup, samples, verification; ms).
     */
    public record Row(String workload, String title, String size, double scale, String device, String precision, double[] samplesMs,
                      double medianMs, double spread, String bound, double work, double rate, String rateUnit, double limit,
                      double ratioToLimit, String note, double error, double tolerance, String checkedAgainst, boolean ok, double wallMs) {
        static Row of(Measurement m) {
            return new Row(m.workload(), m.title(), m.size(), m.scale(), m.device(), m.precision(), m.samplesMs(), m.medianMs(), m.spread(),
                    m.bound().name().toLowerCase(java.util.Locale.ROOT), m.work(), m.rate(), m.bound().unit(), m.limit(), m.ratioToLimit(),
                    m.note(), m.error(), m.tolerance(), m.checkedAgainst(), m.ok(), m.wallMs());
        }
    }

    /** The fastest device for a workload, and its speedup over the slowest (1 with one device). */
    public record Fastest(String workload, String device, double speedupOverSlowest) {
    }

    @Override
    public Integer call() {
        if (quick && full) throw new IllegalArgumentException("give --quick or --full, not both");
        boolean json = output.json();
        List<Device> devices = device.id() == null ? Devices.all() : List.of(Devices.get(device.id()));
        List<String> absent = new ArrayList<>();
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.devices().isEmpty() && device.id() == null) {
                absent.add(s.name() + " absent: " + s.unavailableReason());
                if (!json) System.out.println("(" + s.name() + " absent: " + s.unavailableReason() + ")");
            }
        }
        List<DemoTour.Report> reports = new ArrayList<>();
        for (Device d : devices) {
            // a device's lines are printed when its tour ends, so that they never cross its progress bar
            ByteArrayOutputStream lines = new ByteArrayOutputStream();
            try (Progress bar = Progress.open(!json && Progress.stderrIsTerminal(), "demo on " + d.id(), DemoTour.steps(full), "steps")) {
                reports.add(DemoTour.run(d, full, json ? null : new PrintStream(lines, true, StandardCharsets.UTF_8), bar::step));
            }
            if (!json) System.out.print(lines.toString(StandardCharsets.UTF_8));
        }
        boolean ok = reports.stream().allMatch(DemoTour.Report::ok);
        if (json) {
            JsonOutput.print(result(reports, absent, ok));
        } else {
            System.out.println();
            DemoTour.table(reports, System.out);
            System.out.println(ok ? "every result matches its plain-Java reference" : "SOME RESULTS ARE WRONG (marked WRONG above)");
        }
        return ok ? ExitCode.OK : ExitCode.VERIFY_FAILED;
    }

    private Result result(List<DemoTour.Report> reports, List<String> absent, boolean ok) {
        List<DeviceLimitsRow> ds = reports.stream().map(r -> new DeviceLimitsRow(r.device().id(), r.device().info().name(), r.limits().copyGbs(),
                r.limits().fmaGflops(), r.limits().millis())).toList();
        List<Row> rows = reports.stream().flatMap(r -> r.rows().stream()).map(Row::of).toList();
        List<Fastest> fastest = new ArrayList<>();
        if (!reports.isEmpty()) {
            for (int i = 0; i < reports.getFirst().rows().size(); i++) {
                Measurement best = null, worst = null;
                for (DemoTour.Report r : reports) {
                    Measurement m = r.rows().get(i);
                    if (best == null || m.medianMs() < best.medianMs()) best = m;
                    if (worst == null || m.medianMs() > worst.medianMs()) worst = m;
                }
                fastest.add(new Fastest(best.workload(), best.device(), worst.medianMs() / best.medianMs()));
            }
        }
        return new Result("demo", full ? "full" : "quick", Runtime.version().toString(), ds, rows, fastest, absent, ok);
    }
}
