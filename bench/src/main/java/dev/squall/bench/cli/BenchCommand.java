package dev.squall.bench.cli;

import dev.squall.bench.queues.QueueOverlap;
import dev.squall.bench.stream.DispatchResult;
import dev.squall.bench.stream.StreamBench;
import dev.squall.bench.stream.StreamResult;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code squall bench}: device benchmarks with results as a table and as JSON. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark devices. Suites: stream (STREAM copy/scale/add/triad in fp32 and fp64, plus dispatch overhead);",
                "queues (two independent kernels, each a few work-groups of a long loop, on one queue and on two queues: the ratio is the overlap).",
                "Every STREAM figure names device, size and precision, and is given as a ratio to the device's copy bandwidth.", "",
                "Examples:", "  squall bench stream", "  squall bench stream --devices cuda:0,opencl:0:0 --size 67108864 --out bench/results",
                "  squall bench --suite quick --devices all", "  squall bench queues --devices cuda:0 --iterations 1048576"})
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "stream | queues (default: the --suite value)")
    String suiteName;

    @Option(names = "--suite", defaultValue = "quick", description = "quick (small arrays) | full (large arrays) | stream | queues (default: ${DEFAULT-VALUE})")
    String suite;

    @Option(names = "--devices", defaultValue = "all", description = "all, or a comma-separated list of device ids (default: ${DEFAULT-VALUE})")
    String devices;

    @Option(names = "--size", description = "elements per array (default: 2^26 on GPUs, 2^24 elsewhere; quick: 2^22)")
    Integer size;

    @Option(names = "--precision", defaultValue = "both", description = "fp32 | fp64 | both (default: ${DEFAULT-VALUE})")
    String precision;

    @Option(names = "--repeat", defaultValue = "20", description = "timed executions per kernel; the median is reported (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--dispatch-runs", defaultValue = "20000", description = "executions timed for dispatch overhead (default: ${DEFAULT-VALUE})")
    int dispatchRuns;

    @Option(names = "--out", paramLabel = "DIR", description = "write the results as JSON into DIR")
    Path out;

    @Option(names = "--json", description = "print one JSON object on stdout instead of the table")
    boolean json;

    @Option(names = "--iterations", description = "queues: loop steps per work-item (default: 2^20 on GPUs, 2^14 elsewhere)")
    Integer iterations;

    @Option(names = "--groups", defaultValue = "0", description = "queues: work-groups per kernel; 0 for a quarter of the compute units (default: ${DEFAULT-VALUE})")
    int groups;

    @Option(names = "--local", defaultValue = "128", description = "queues: work-items per group (default: ${DEFAULT-VALUE})")
    int local;

    @Override
    public Integer call() throws IOException {
        String s = suiteName != null ? suiteName : suite;
        if (!List.of("quick", "full", "stream", "queues").contains(s)) throw new IllegalArgumentException("unknown suite " + s + " (quick, full, stream, queues)");
        if (!List.of("fp32", "fp64", "both").contains(precision)) throw new IllegalArgumentException("--precision must be fp32, fp64 or both, got " + precision);
        if (repeat < 1) throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        List<Device> ds = devices.equals("all") ? Devices.all() : java.util.Arrays.stream(devices.split(",")).map(Devices::get).toList();
        if (s.equals("queues")) return queues(ds);
        List<StreamResult> results = new ArrayList<>();
        List<DispatchResult> dispatch = new ArrayList<>();
        for (Device d : ds) {
            int n = size != null ? size : s.equals("quick") ? 1 << 22 : (d.info().isGpu() ? 1 << 26 : 1 << 24);
            if (n < 1) throw new IllegalArgumentException("--size must be >= 1, got " + n);
            System.err.println("squall bench: " + d.id() + " (" + d.info().name() + "), " + n + " elements per array");
            for (String p : precision.equals("both") ? List.of("fp32", "fp64") : List.of(precision)) {
                if (p.equals("fp64") && !d.info().fp64()) {
                    System.err.println("  " + d.id() + " has no fp64: skipped fp64");
                    continue;
                }
                results.addAll(StreamBench.bandwidth(d, n, p, repeat, json ? null : System.out::println));
            }
            DispatchResult dr = StreamBench.dispatch(d, d.info().type() == DeviceType.JVM ? Math.min(dispatchRuns, 2000) : dispatchRuns);
            dispatch.add(dr);
            if (!json) System.out.printf("  %-8s dispatch: one-kernel graph, data resident: median %.1f us (p10 %.1f, p90 %.1f) over %d; "
                            + "first launch of a cached kernel %.1f ms%s; cold build %.1f ms%n",
                    d.id(), dr.medianMicros(), dr.p10Micros(), dr.p90Micros(), dr.executions(), dr.firstLaunchMillis(),
                    dr.firstLaunchFromDiskCache() ? "" : " (NOT from the disk cache)", dr.coldBuildMillis());
        }
        boolean wrong = results.stream().anyMatch(r -> !(r.maxRelError() <= 1e-6));
        String jsonText = toJson(results, dispatch);
        if (json) System.out.println(jsonText);
        if (out != null) {
            Files.createDirectories(out);
            Path f = out.resolve("stream-" + Instant.now().toString().replace(':', '-') + ".json");
            Files.writeString(f, jsonText + "\n");
            System.err.println("squall bench: wrote " + f);
        }
        if (wrong) System.err.println("squall bench: some results disagree with the host reference");
        return wrong ? SquallCommand.VERIFY_FAILED : 0;
    }

    /** The queues suite: one-queue and two-queue times of two independent kernels per device, and their ratio. */
    private int queues(List<Device> ds) throws IOException {
        if (iterations != null && iterations < 1) throw new IllegalArgumentException("--iterations must be >= 1, got " + iterations);
        if (groups < 0 || local < 1) throw new IllegalArgumentException("--groups must be >= 0 and --local >= 1, got " + groups + ", " + local);
        List<QueueOverlap.Result> results = new ArrayList<>();
        for (Device d : ds) {
            int steps = iterations != null ? iterations : d.info().isGpu() ? 1 << 20 : 1 << 14;
            try (QueueOverlap q = new QueueOverlap(d, groups, local, steps)) {
                QueueOverlap.Result r = q.measure(repeat);
                results.add(r);
                if (!json) System.out.printf("  %-12s queues: 2 kernels x %d groups of %d, %d steps: one queue %.3f ms, two queues %.3f ms, "
                                + "ratio %.2f (median of %d; max rel error %.1e)%n", r.device(), r.groups(), r.local(), r.iterations(),
                        r.oneQueueMillis(), r.twoQueuesMillis(), r.ratio(), r.repeats(), r.maxRelError());
            }
        }
        List<String> items = new ArrayList<>();
        for (QueueOverlap.Result r : results) {
            items.add("{\"device\":" + Json.str(r.device()) + ",\"deviceName\":" + Json.str(r.deviceName()) + ",\"groups\":" + r.groups()
                    + ",\"local\":" + r.local() + ",\"iterations\":" + r.iterations() + ",\"repeats\":" + r.repeats()
                    + ",\"oneQueueMs\":" + Json.num(r.oneQueueMillis()) + ",\"twoQueuesMs\":" + Json.num(r.twoQueuesMillis())
                    + ",\"ratio\":" + Json.num(r.ratio()) + ",\"maxRelError\":" + Json.num(r.maxRelError()) + "}");
        }
        String jsonText = "{\"suite\":\"queues\",\"java\":" + Json.str(Runtime.version().toString()) + ",\"queues\":[" + String.join(",", items) + "]}";
        if (json) System.out.println(jsonText);
        if (out != null) {
            Files.createDirectories(out);
            Path f = out.resolve("queues-" + Instant.now().toString().replace(':', '-') + ".json");
            Files.writeString(f, jsonText + "\n");
            System.err.println("squall bench: wrote " + f);
        }
        boolean wrong = results.stream().anyMatch(r -> !(r.maxRelError() <= 1e-9));
        if (wrong) System.err.println("squall bench: the spin kernel disagrees with the host reference");
        return wrong ? SquallCommand.VERIFY_FAILED : 0;
    }

    private static String toJson(List<StreamResult> rs, List<DispatchResult> ds) {
        List<String> a = new ArrayList<>(), b = new ArrayList<>();
        for (StreamResult r : rs) {
            a.add("{\"device\":" + Json.str(r.device()) + ",\"deviceName\":" + Json.str(r.deviceName()) + ",\"kernel\":" + Json.str(r.kernel())
                    + ",\"precision\":" + Json.str(r.precision()) + ",\"elements\":" + r.elements() + ",\"bytes\":" + r.bytes()
                    + ",\"medianMs\":" + Json.num(r.medianMillis()) + ",\"gbPerS\":" + Json.num(r.gbPerSecond())
                    + ",\"ratioToCopy\":" + Json.num(r.ratioToCopy()) + ",\"maxRelError\":" + Json.num(r.maxRelError()) + "}");
        }
        for (DispatchResult d : ds) {
            b.add("{\"device\":" + Json.str(d.device()) + ",\"medianUs\":" + Json.num(d.medianMicros()) + ",\"p10Us\":" + Json.num(d.p10Micros())
                    + ",\"p90Us\":" + Json.num(d.p90Micros()) + ",\"executions\":" + d.executions()
                    + ",\"firstLaunchMs\":" + Json.num(d.firstLaunchMillis()) + ",\"firstLaunchFromDiskCache\":" + d.firstLaunchFromDiskCache()
                    + ",\"coldBuildMs\":" + Json.num(d.coldBuildMillis()) + "}");
        }
        return "{\"suite\":\"stream\",\"java\":" + Json.str(Runtime.version().toString()) + ",\"stream\":[" + String.join(",", a)
                + "],\"dispatch\":[" + String.join(",", b) + "]}";
    }
}
