package dev.squall.bench.cli;

import dev.squall.bench.chart.BenchCharts;
import dev.squall.bench.chart.Java2dText;
import dev.squall.bench.queues.QueueOverlap;
import dev.squall.bench.stream.DispatchResult;
import dev.squall.bench.stream.StreamBench;
import dev.squall.bench.stream.StreamResult;
import dev.squall.bench.suite.Comparison;
import dev.squall.bench.suite.DeviceLimits;
import dev.squall.bench.suite.Measurement;
import dev.squall.bench.suite.Peers;
import dev.squall.bench.suite.ResultHook;
import dev.squall.bench.suite.Suites;
import dev.squall.bench.suite.Workload;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.Progress;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.cli.Sizes;
import dev.squall.cli.SquallSubcommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code squall bench}: device benchmarks with results as a table and as JSON. */
@Command(name = "bench", header = "Device comparisons: Squall's workloads at several sizes on every device, with tables, JSON, CSV and charts.",
        sortOptions = false,
        description = {"Benchmark devices. Workload suites: quick (each workload of squall demo at three small sizes: under five minutes"
                + " on a 2-core machine), full (three sizes that keep a GPU busy), or one workload by name (h2, ksum-dense, ksum-sparse,"
                + " spmv, pcg, cholesky, sgd, permanent; its quick sizes). Each row gives workload, size, device, median time, GB/s or"
                + " GFLOP/s of counted work, the ratio to the device's measured limit (STREAM copy bandwidth or multiply-add"
                + " throughput, measured once per device, warm), the speedup over the jvm device, and the check against the module's"
                + " plain-Java reference (a wrong result exits 1). --out DIR writes the rows as JSON and CSV and draws charts (SVG and"
                + " PNG): bars of each workload's time per device, and per workload the time against the size. --compare OLD.json"
                + " flags each workload, size and device whose median time grew by more than the run-to-run spread (max - min over"
                + " median of the --repeat samples) either run measured. --peers FILE,... adds other libraries' results on the same"
                + " workloads (cuSPARSE, cuSOLVER, PyTorch: the bench/peers/ scripts write them in this command's JSON schema) as devices"
                + " of their own in the table, CSV, JSON and charts.",
                "Other suites: stream (STREAM copy/scale/add/triad in fp32 and fp64, plus dispatch overhead; --size, --precision,"
                + " --dispatch-runs), queues (two independent kernels, each a few work-groups of a long loop, on one queue and on two"
                + " queues: the ratio is the overlap). Runs on every device present (--devices all), a list (--devices cuda:0,jvm) or"
                + " one (--device jvm).", "",
                "Examples:",
                "  squall bench --suite spmv --devices jvm --repeat 3 --out /tmp/squall-bench",
                "  squall bench permanent --device jvm --repeat 2 --json",
                "  squall bench stream --device jvm --size 1000000 --repeat 5",
                "  squall bench stream --devices all --size 1000000 --precision fp32 --json",
                "  squall bench stream --devices jvm --size 1000000 --dispatch-runs 200 --out /tmp/squall-bench",
                "  squall bench queues --device jvm --iterations 4096 --repeat 3",
                "  squall bench stream --devices cuda:0,opencl:0:0 --size 67108864   # needs a GPU",
                "  squall bench queues --devices cuda:0 --iterations 1048576   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 20, precisions = {"both", "fp32", "fp64"})
public final class BenchCommand implements SquallSubcommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "quick, full, a workload's name, stream or queues (default: the --suite value)")
    String suiteName;

    @Option(names = "--suite", defaultValue = "quick", description = "quick | full | h2 | ksum-dense | ksum-sparse | spmv | pcg | cholesky | sgd | permanent | stream | queues (default: ${DEFAULT-VALUE})")
    String suite;

    @Option(names = "--compare", paramLabel = "OLD.json", description = "a JSON file an earlier run wrote (--out): flag the timings that got slower beyond the measured spread")
    Path compare;

    @Option(names = "--peers", paramLabel = "FILE", split = ",", description = "results of other libraries on the same workloads, in this command's"
            + " JSON schema (the bench/peers/ scripts write them: cuSPARSE, cuSOLVER, PyTorch): shown as devices of their own in the table, CSV, JSON and charts")
    List<Path> peers;

    @Option(names = "--devices", paramLabel = "LIST", description = "all, or a comma-separated list of device ids (default: all; --device D runs one)")
    String devices;

    @Option(names = "--size", description = "stream: elements per array (default: 2^26 on GPUs, 2^24 elsewhere)")
    Integer size;

    @Option(names = "--dispatch-runs", defaultValue = "20000", description = "executions timed for dispatch overhead (default: ${DEFAULT-VALUE})")
    int dispatchRuns;

    @Option(names = "--out", paramLabel = "DIR", description = "write the results into DIR: JSON, and for workload suites CSV and charts (SVG, PNG)")
    Path out;

    @Option(names = "--iterations", description = "queues: loop steps per work-item (default: 2^20 on GPUs, 2^14 elsewhere)")
    Integer iterations;

    @Option(names = "--groups", defaultValue = "0", description = "queues: work-groups per kernel; 0 for a quarter of the compute units (default: ${DEFAULT-VALUE})")
    int groups;

    @Option(names = "--local", defaultValue = "128", description = "queues: work-items per group (default: ${DEFAULT-VALUE})")
    int local;

    @Mixin
    RunOptions run;

    @Spec
    CommandSpec spec;

    /**
     * {@code --json} result of a workload suite (schema in tornado-tasks/cli/JSON.md): the suite, the Java version, each
     * device's measured limits, one row per workload, size and device ({@link SuiteRow}), the file compared with (null
     * without --compare), the comparison ({@link Comparison.Delta}: workload, size, device, old and new median ms, new /
     * old, the spread allowed, the verdict regression, faster or same), the number of regressions, the files written
     * (--out), and {@code ok} (every result matched its reference).
     */
    public record SuiteResult(String command, String suite, String java, List<DemoCommand.DeviceLimitsRow> devices, List<SuiteRow> rows,
                              String comparedWith, List<Comparison.Delta> comparison, int regressions, List<String> files, boolean ok) {
    }

    /**
     * A workload at one size on one device: as {@code squall demo}'s rows ({@link DemoCommand.Row}), with what the size
     * counts and the speedup over the jvm device (its median time over this one's; null when jvm did not run).
     */
    public record SuiteRow(String workload, String title, String size, double scale, String scaleUnit, String device, String precision,
                           double[] samplesMs, double medianMs, double spread, String bound, double work, double rate, String rateUnit, double limit,
                           double ratioToLimit, Double speedupOverJvm, String note, double error, double tolerance, String checkedAgainst, boolean ok,
                           double wallMs) {
    }
    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the suite, the Java version, the precisions run, one row per device,
     * kernel and precision ({@link StreamRow}), one dispatch row per device ({@link DispatchRow}), and {@code ok} (every
     * kernel's result matched the host reference).
     */
    public record Result(String command, String suite, String java, String precision, List<StreamRow> stream, List<DispatchRow> dispatch, boolean ok) {
    }

    /** One STREAM figure: device, kernel, precision, elements, bytes moved, median ms, GB/s, ratio to copy, largest relative error. */
    public record StreamRow(String device, String deviceName, String kernel, String precision, long elements, long bytes, double medianMs, double gbPerS,
                            double ratioToCopy, double maxRelError) {
    }

    /** {@code bench queues --json} (schema in tornado-tasks/cli/JSON.md): the suite, the Java version, one row per device, {@code ok}. */
    public record QueuesResult(String command, String suite, String java, List<QueuesRow> queues, boolean ok) {
    }

    /** Two kernels of {@code groups} x {@code local} work-items and {@code iterations} steps: one queue, two queues (ms), their ratio, error. */
    public record QueuesRow(String device, String deviceName, int groups, int local, int iterations, int repeats, double oneQueueMs, double twoQueuesMs,
                            double ratio, double maxRelError) {
    }

    /** Dispatch overhead of one device: median, p10, p90 (us), executions, first launch (ms, from the disk cache?), cold build (ms). */
    public record DispatchRow(String device, double medianUs, double p10Us, double p90Us, int executions, double firstLaunchMs,
                              boolean firstLaunchFromDiskCache, double coldBuildMs) {
    }

    @Override
    public Integer call() throws IOException {
        String s = (suiteName != null ? suiteName : suite).strip().toLowerCase(java.util.Locale.ROOT);
        List<Workload> workloads = s.equals("stream") || s.equals("queues") ? null : Suites.suite(s);   // names the suites on a typo
        if (run.deviceId() != null && devices != null) throw new IllegalArgumentException("give --device D (one device) or --devices LIST, not both");
        if (peers != null && workloads == null) throw new IllegalArgumentException("--peers works with the workload suites (quick, full, a workload), not " + s);
        if (compare != null && workloads == null) throw new IllegalArgumentException("--compare works with the workload suites (quick, full, a workload), not " + s);
        if (workloads != null) {
            for (String o : List.of("--precision", "--size", "--dispatch-runs", "--iterations", "--groups", "--local")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                    throw new IllegalArgumentException(o + " applies to the stream and queues suites; each workload of " + s + " has its own precision and sizes");
                }
            }
        }
        String precision = run.precisionName();
        int repeat = run.repeat();
        boolean json = run.json();
        if (devices != null && devices.isBlank()) throw new IllegalArgumentException("--devices '" + devices + "': empty (give all or a comma-separated list of ids)");
        List<Device> ds = run.deviceId() != null ? List.of(run.device())
                : devices == null || devices.strip().equals("all") ? Devices.all() : java.util.Arrays.stream(devices.split(",")).map(String::strip).map(Devices::get).toList();
        if (s.equals("queues")) return queues(ds, repeat, json);
        if (workloads != null) return workloads(s, workloads, ds, json);
        if (size != null) Sizes.inRange("--size", size, 1, Integer.MAX_VALUE);
        Sizes.inRange("--dispatch-runs", dispatchRuns, 1, Integer.MAX_VALUE);
        List<String> precisions = precision.equals("both") ? List.of("fp32", "fp64") : List.of(precision);
        Progress bar = Progress.open(run.progress(), "bench " + s, (long) ds.size() * (precisions.size() + 1), "phases");
        List<StreamResult> results = new ArrayList<>();
        List<DispatchResult> dispatch = new ArrayList<>();
        for (Device d : ds) {
            int n = size != null ? size : d.info().isGpu() ? 1 << 26 : 1 << 24;
            System.err.println("squall bench: " + d.id() + " (" + d.info().name() + "), " + n + " elements per array");
            for (String p : precisions) {
                if (p.equals("fp64") && !d.info().fp64()) {
                    System.err.println("  " + d.id() + " has no fp64: skipped fp64");
                    bar.step();
                    continue;
                }
                results.addAll(StreamBench.bandwidth(d, n, p, repeat, json ? null : System.out::println));
                bar.step();
            }
            DispatchResult dr = StreamBench.dispatch(d, d.info().type() == DeviceType.JVM ? Math.min(dispatchRuns, 2000) : dispatchRuns);
            dispatch.add(dr);
            bar.step();
            if (!json) System.out.printf("  %-8s dispatch: one-kernel graph, data resident: median %.1f us (p10 %.1f, p90 %.1f) over %d; "
                            + "first launch of a cached kernel %.1f ms%s; cold build %.1f ms%n",
                    d.id(), dr.medianMicros(), dr.p10Micros(), dr.p90Micros(), dr.executions(), dr.firstLaunchMillis(),
                    dr.firstLaunchFromDiskCache() ? "" : " (NOT from the disk cache)", dr.coldBuildMillis());
        }
        bar.close();
        boolean wrong = results.stream().anyMatch(r -> !(r.maxRelError() <= 1e-6));
        String jsonText = JsonOutput.toJson(result(s, precision, results, dispatch, !wrong));
        if (json) System.out.println(jsonText);
        if (out != null) {
            Files.createDirectories(out);
            Path f = out.resolve("stream-" + Instant.now().toString().replace(':', '-') + ".json");
            Files.writeString(f, jsonText + "\n");
            System.err.println("squall bench: wrote " + f);
        }
        if (wrong) System.err.println("squall bench: some results disagree with the host reference");
        return wrong ? ExitCode.VERIFY_FAILED : ExitCode.OK;
    }

    /** Timed samples per workload when --repeat is not given. */
    static final int WORKLOAD_SAMPLES = 5;

    /**
     * A workload suite: each device's limits, then every workload on it with progress; the table, the comparison with
     * --compare, and with --out the JSON, CSV and charts.
     */
    private int workloads(String suiteName, List<Workload> workloads, List<Device> ds, boolean json) throws IOException {
        int samples = spec.commandLine().getParseResult().hasMatchedOption("--repeat") ? run.repeat() : WORKLOAD_SAMPLES;
        List<Comparison.Entry> old = compare == null ? null : Comparison.read(compare);
        for (Path p : peers == null ? List.<Path>of() : peers) Peers.read(p);   // a bad file fails before the runs
        List<DemoCommand.DeviceLimitsRow> limitRows = new ArrayList<>();
        List<Measurement> rows = new ArrayList<>();
        try (Progress bar = Progress.open(run.progress(), "bench " + suiteName, (long) ds.size() * (workloads.size() + 1), "steps")) {
            for (Device d : ds) {
                System.err.printf(Locale.ROOT, "squall bench: %s (%s): measuring its limits%n", d.id(), d.info().name());
                DeviceLimits limits = DeviceLimits.measure(d);
                limitRows.add(new DemoCommand.DeviceLimitsRow(d.id(), d.info().name(), limits.copyGbs(), limits.fmaGflops(), limits.millis()));
                bar.step();
                for (Workload w : workloads) {
                    Measurement m = w.measure(d, limits, samples, ResultHook.NONE);
                    rows.add(m);
                    bar.step();
                    if (!run.progress()) System.err.printf(Locale.ROOT, "squall bench: %s %s %s: %.4g ms%s%n", d.id(), m.workload(), m.size(), m.medianMs(), m.ok() ? "" : " WRONG");
                }
            }
        }
        for (Path p : peers == null ? List.<Path>of() : peers) {
            Peers.File f = Peers.read(p);
            for (Peers.Device d : f.devices()) limitRows.add(new DemoCommand.DeviceLimitsRow(d.id(), d.name(), d.copyGbs(), d.fmaGflops(), 0));
            rows.addAll(f.rows());
        }
        List<SuiteRow> out = rows.stream().map(m -> row(m, rows)).toList();
        List<Comparison.Delta> deltas = old == null ? List.of() : Comparison.compare(old, rows.stream().map(Comparison::of).toList());
        int regressions = (int) deltas.stream().filter(Comparison.Delta::regression).count();
        boolean ok = rows.stream().allMatch(Measurement::ok);
        List<String> files = new ArrayList<>();
        if (this.out != null) {
            Files.createDirectories(this.out);
            String stem = "bench-" + suiteName + "-" + Instant.now().toString().replace(':', '-');
            Path jsonFile = this.out.resolve(stem + ".json"), csvFile = this.out.resolve(stem + ".csv");
            files.add(jsonFile.toString());
            files.add(csvFile.toString());
            try {
                for (Path f : BenchCharts.write(this.out, suiteName, rows)) files.add(f.toString());
            } catch (RuntimeException | java.awt.AWTError | LinkageError e) {
                // Java2D needs fonts and native libraries from the host (fontconfig); a bare GPU host may have none.
                // Only that failure is reported and passed over: the measurements are still written, and the charts
                // can be drawn from the JSON elsewhere (scripts/docs). Anything else is a bug and propagates.
                if (!Java2dText.fromJava2d(e)) throw e;
                System.err.println("squall bench: charts not drawn (" + e + "): this host's Java cannot render text or images; "
                        + "the table, JSON and CSV are written, scripts/docs draws the charts from the JSON");
            }
            Files.writeString(csvFile, csv(out));
            Files.writeString(jsonFile, JsonOutput.toJson(new SuiteResult("bench", suiteName, Runtime.version().toString(), limitRows, out,
                    compare == null ? null : compare.toString(), deltas, regressions, files, ok)) + "\n");
        }
        SuiteResult result = new SuiteResult("bench", suiteName, Runtime.version().toString(), limitRows, out, compare == null ? null : compare.toString(),
                deltas, regressions, files, ok);
        if (json) {
            JsonOutput.print(result);
        } else {
            table(limitRows, out);
            if (compare != null) comparison(deltas);
            for (String f : files) System.out.println("wrote      " + f);
        }
        if (!ok) System.err.println("squall bench: some results disagree with their reference (marked WRONG)");
        return ok ? ExitCode.OK : ExitCode.VERIFY_FAILED;
    }

    private static SuiteRow row(Measurement m, List<Measurement> all) {
        Double speedup = all.stream().filter(j -> j.device().equals("jvm") && j.workload().equals(m.workload()) && j.size().equals(m.size()))
                .map(j -> j.medianMs() / m.medianMs()).findFirst().orElse(null);
        return new SuiteRow(m.workload(), m.title(), m.size(), m.scale(), m.scaleUnit(), m.device(), m.precision(), m.samplesMs(), m.medianMs(), m.spread(),
                m.bound().name().toLowerCase(Locale.ROOT), m.work(), m.rate(), m.bound().unit(), m.limit(), m.ratioToLimit(), speedup, m.note(), m.error(),
                m.tolerance(), m.checkedAgainst(), m.ok(), m.wallMs());
    }

    private static void table(List<DemoCommand.DeviceLimitsRow> limits, List<SuiteRow> rows) {
        for (DemoCommand.DeviceLimitsRow l : limits) {
            if (Double.isNaN(l.copyGbs())) {
                System.out.printf(Locale.ROOT, "device     %s (%s): a peer, no limits given%n", l.device(), l.name());
                continue;
            }
            System.out.printf(Locale.ROOT, "device     %s (%s): STREAM copy %.1f GB/s, multiply-add %.1f GFLOP/s%n", l.device(), l.name(), l.copyGbs(), l.fmaGflops());
        }
        System.out.printf(Locale.ROOT, "%-12s %-26s %-12s %11s %17s %10s %8s %6s %s%n", "workload", "size", "device", "median ms", "rate", "of limit", "vs jvm",
                "spread", "check");
        for (SuiteRow r : rows) {
            System.out.printf(Locale.ROOT, "%-12s %-26s %-12s %11.4f %9.3f %-7s %5.2f %-4s %8s %5.0f%% %s%n", r.workload(), r.size(), r.device(), r.medianMs(),
                    r.rate(), r.rateUnit(), r.ratioToLimit(), r.bound().equals("memory") ? "copy" : "fma",
                    r.speedupOverJvm() == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.speedupOverJvm()), 100 * r.spread(),
                    r.ok() ? String.format(Locale.ROOT, "ok %.0e", r.error()) : String.format(Locale.ROOT, "WRONG %.1e > %.1e", r.error(), r.tolerance()));
        }
    }

    private static void comparison(List<Comparison.Delta> deltas) {
        System.out.printf(Locale.ROOT, "%ncompared  %-12s %-26s %-12s %11s %11s %7s %7s  %s%n", "workload", "size", "device", "old ms", "new ms", "new/old", "spread", "verdict");
        for (Comparison.Delta d : deltas) {
            System.out.printf(Locale.ROOT, "          %-12s %-26s %-12s %11.4f %11.4f %7.3f %6.0f%%  %s%n", d.workload(), d.size(), d.device(), d.oldMs(), d.newMs(),
                    d.ratio(), 100 * d.allowedSpread(), d.regression() ? "REGRESSION" : d.verdict());
        }
        long n = deltas.stream().filter(Comparison.Delta::regression).count();
        System.out.println(deltas.isEmpty() ? "          no workload, size and device in common with the old run"
                : n == 0 ? "          no regression beyond the measured spread" : "          " + n + " regression(s) beyond the measured spread");
    }

    /** The rows as CSV (RFC 4180: a header line, text quoted, samples separated by spaces in one field). */
    static String csv(List<SuiteRow> rows) {
        StringBuilder b = new StringBuilder();
        List<String> head = new ArrayList<>();
        for (var c : SuiteRow.class.getRecordComponents()) head.add(new com.fasterxml.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName()));
        b.append(String.join(",", head)).append("\r\n");
        for (SuiteRow r : rows) {
            StringBuilder samples = new StringBuilder();
            for (double v : r.samplesMs()) samples.append(samples.isEmpty() ? "" : " ").append(v);
            List<String> f = List.of(quote(r.workload()), quote(r.title()), quote(r.size()), num(r.scale()), quote(r.scaleUnit()), quote(r.device()),
                    quote(r.precision()), quote(samples.toString()), num(r.medianMs()), num(r.spread()), quote(r.bound()), num(r.work()), num(r.rate()),
                    quote(r.rateUnit()), num(r.limit()), num(r.ratioToLimit()), r.speedupOverJvm() == null ? "" : num(r.speedupOverJvm()), quote(r.note()),
                    num(r.error()), num(r.tolerance()), quote(r.checkedAgainst()), Boolean.toString(r.ok()), num(r.wallMs()));
            b.append(String.join(",", f)).append("\r\n");
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String num(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "";
    }

    /** The queues suite: one-queue and two-queue times of two independent kernels per device, and their ratio. */
    private int queues(List<Device> ds, int repeat, boolean json) throws IOException {
        if (iterations != null) Sizes.inRange("--iterations", iterations, 1, Integer.MAX_VALUE);
        Sizes.inRange("--groups", groups, 0, Integer.MAX_VALUE);
        Sizes.inRange("--local", local, 1, Integer.MAX_VALUE);
        List<QueuesRow> rows = new ArrayList<>();
        try (Progress bar = Progress.open(run.progress(), "bench queues", ds.size(), "devices")) {
            for (Device d : ds) {
                int steps = iterations != null ? iterations : d.info().isGpu() ? 1 << 20 : 1 << 14;
                try (QueueOverlap q = new QueueOverlap(d, groups, local, steps)) {
                    QueueOverlap.Result r = q.measure(repeat);
                    rows.add(new QueuesRow(r.device(), r.deviceName(), r.groups(), r.local(), r.iterations(), r.repeats(), r.oneQueueMillis(),
                            r.twoQueuesMillis(), r.ratio(), r.maxRelError()));
                    if (!json) System.out.printf("  %-12s queues: 2 kernels x %d groups of %d, %d steps: one queue %.3f ms, two queues %.3f ms, "
                                    + "ratio %.2f (median of %d; max rel error %.1e)%n", r.device(), r.groups(), r.local(), r.iterations(),
                            r.oneQueueMillis(), r.twoQueuesMillis(), r.ratio(), r.repeats(), r.maxRelError());
                }
                bar.step();
            }
        }
        boolean wrong = rows.stream().anyMatch(r -> !(r.maxRelError() <= 1e-9));
        String jsonText = JsonOutput.toJson(new QueuesResult("bench", "queues", Runtime.version().toString(), rows, !wrong));
        if (json) System.out.println(jsonText);
        if (out != null) {
            Files.createDirectories(out);
            Path f = out.resolve("queues-" + Instant.now().toString().replace(':', '-') + ".json");
            Files.writeString(f, jsonText + "\n");
            System.err.println("squall bench: wrote " + f);
        }
        if (wrong) System.err.println("squall bench: the spin kernel disagrees with the host reference");
        return wrong ? ExitCode.VERIFY_FAILED : ExitCode.OK;
    }

    private static Result result(String suite, String precision, List<StreamResult> rs, List<DispatchResult> ds, boolean ok) {
        List<StreamRow> stream = rs.stream().map(r -> new StreamRow(r.device(), r.deviceName(), r.kernel(), r.precision(), r.elements(), r.bytes(),
                r.medianMillis(), r.gbPerSecond(), r.ratioToCopy(), r.maxRelError())).toList();
        List<DispatchRow> dispatch = ds.stream().map(d -> new DispatchRow(d.device(), d.medianMicros(), d.p10Micros(), d.p90Micros(), d.executions(),
                d.firstLaunchMillis(), d.firstLaunchFromDiskCache(), d.coldBuildMillis())).toList();
        return new Result("bench", suite, Runtime.version().toString(), precision, stream, dispatch, ok);
    }
}
