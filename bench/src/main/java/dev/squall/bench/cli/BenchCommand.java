package dev.squall.bench.cli;

import dev.squall.bench.queues.QueueOverlap;
import dev.squall.bench.stream.DispatchResult;
import dev.squall.bench.stream.StreamBench;
import dev.squall.bench.stream.StreamResult;
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
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code squall bench}: device benchmarks with results as a table and as JSON. */
@Command(name = "bench", header = "Device benchmarks: STREAM bandwidth and dispatch overhead, as a table or JSON.",
        description = {"Benchmark devices. Suites: stream (STREAM copy/scale/add/triad in fp32 and fp64, plus dispatch overhead) on large"
                + " arrays; quick, the same on small arrays; full, an alias of stream; queues (two independent kernels, each a few"
                + " work-groups of a long loop, on one queue and on two queues: the ratio is the overlap). Every STREAM figure names"
                + " device, size and precision, and is given as a ratio to the device's copy bandwidth. Runs on every device present"
                + " (--devices all), a list (--devices cuda:0,jvm) or one (--device jvm).", "",
                "Examples:",
                "  squall bench stream --device jvm --size 1000000 --repeat 5",
                "  squall bench --suite quick --devices all --precision fp32 --json",
                "  squall bench stream --devices jvm --size 1000000 --dispatch-runs 200 --out /tmp/squall-bench",
                "  squall bench queues --device jvm --iterations 4096 --repeat 3",
                "  squall bench stream --devices cuda:0,opencl:0:0 --size 67108864   # needs a GPU",
                "  squall bench queues --devices cuda:0 --iterations 1048576   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 20, precisions = {"both", "fp32", "fp64"})
public final class BenchCommand implements SquallSubcommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "stream, quick, full or queues (default: the --suite value)")
    String suiteName;

    @Option(names = "--suite", defaultValue = "quick", description = "quick (small arrays) | full (large arrays) | stream | queues (default: ${DEFAULT-VALUE})")
    String suite;

    @Option(names = "--devices", paramLabel = "LIST", description = "all, or a comma-separated list of device ids (default: all; --device D runs one)")
    String devices;

    @Option(names = "--size", description = "elements per array (default: 2^26 on GPUs, 2^24 elsewhere; quick: 2^22)")
    Integer size;

    @Option(names = "--dispatch-runs", defaultValue = "20000", description = "executions timed for dispatch overhead (default: ${DEFAULT-VALUE})")
    int dispatchRuns;

    @Option(names = "--out", paramLabel = "DIR", description = "write the results as JSON into DIR")
    Path out;

    @Option(names = "--iterations", description = "queues: loop steps per work-item (default: 2^20 on GPUs, 2^14 elsewhere)")
    Integer iterations;

    @Option(names = "--groups", defaultValue = "0", description = "queues: work-groups per kernel; 0 for a quarter of the compute units (default: ${DEFAULT-VALUE})")
    int groups;

    @Option(names = "--local", defaultValue = "128", description = "queues: work-items per group (default: ${DEFAULT-VALUE})")
    int local;

    @Mixin
    RunOptions run;

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
        String s = suiteName != null ? suiteName : suite;
        if (!List.of("quick", "full", "stream", "queues").contains(s)) throw new IllegalArgumentException("unknown suite " + s + " (quick, full, stream, queues)");
        if (run.deviceId() != null && devices != null) throw new IllegalArgumentException("give --device D (one device) or --devices LIST, not both");
        String precision = run.precisionName();
        int repeat = run.repeat();
        boolean json = run.json();
        if (devices != null && devices.isBlank()) throw new IllegalArgumentException("--devices '" + devices + "': empty (give all or a comma-separated list of ids)");
        List<Device> ds = run.deviceId() != null ? List.of(run.device())
                : devices == null || devices.strip().equals("all") ? Devices.all() : java.util.Arrays.stream(devices.split(",")).map(String::strip).map(Devices::get).toList();
        if (s.equals("queues")) return queues(ds, repeat, json);
        if (size != null) Sizes.inRange("--size", size, 1, Integer.MAX_VALUE);
        Sizes.inRange("--dispatch-runs", dispatchRuns, 1, Integer.MAX_VALUE);
        List<String> precisions = precision.equals("both") ? List.of("fp32", "fp64") : List.of(precision);
        Progress bar = Progress.open(run.progress(), "bench " + s, (long) ds.size() * (precisions.size() + 1), "phases");
        List<StreamResult> results = new ArrayList<>();
        List<DispatchResult> dispatch = new ArrayList<>();
        for (Device d : ds) {
            int n = size != null ? size : s.equals("quick") ? 1 << 22 : (d.info().isGpu() ? 1 << 26 : 1 << 24);
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
