package dev.squall.bench.cli;

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
        description = {"Benchmark devices. Suites: stream (STREAM copy/scale/add/triad in fp32 and fp64, plus dispatch overhead).",
                "Every figure names device, size and precision, and is given as a ratio to the device's copy bandwidth.", "",
                "Examples:", "  squall bench stream", "  squall bench stream --devices cuda:0,opencl:0:0 --size 67108864 --out bench/results",
                "  squall bench --suite quick --devices all"})
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "stream (default: the --suite value)")
    String suiteName;

    @Option(names = "--suite", defaultValue = "quick", description = "quick (small arrays) | full (large arrays) | stream (default: ${DEFAULT-VALUE})")
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

    @Override
    public Integer call() throws IOException {
        String s = suiteName != null ? suiteName : suite;
        if (!List.of("quick", "full", "stream").contains(s)) throw new IllegalArgumentException("unknown suite " + s + " (quick, full, stream)");
        if (!List.of("fp32", "fp64", "both").contains(precision)) throw new IllegalArgumentException("--precision must be fp32, fp64 or both, got " + precision);
        if (repeat < 1) throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        List<Device> ds = devices.equals("all") ? Devices.all() : java.util.Arrays.stream(devices.split(",")).map(Devices::get).toList();
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
