package dev.squall.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Runs the STREAM suite through JMH in this JVM (no fork, one short iteration) on the jvm device and the first OpenCL
 * device, at sizes that are and are not multiples of a work-group, in both precisions, and reads JMH's JSON: one
 * result per parameter combination, each a positive time. The benchmark's setup checks the triad's values, so a wrong
 * result is a JMH failure, which {@code failOnError} turns into an exception. A device that is not present fails.
 */
class StreamBenchmarkTest {
    private static Options options(Path json, String... devices) {
        return new OptionsBuilder()
                .include(StreamBenchmark.class.getName() + ".triad$")
                .param("device", devices)
                .param("size", "1000", "65537")
                .param("precision", "fp32", "fp64")
                .forks(0).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(100))
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON).result(json.toString())
                .build();
    }

    private static String opencl() {
        boolean present = Devices.all().stream().anyMatch(d -> d.info().backend().equals("opencl"));
        if (!present && System.getenv("SQUALL_REQUIRE_OPENCL") != null) fail("SQUALL_REQUIRE_OPENCL is set and no OpenCL device is present");
        return present ? "opencl" : null;
    }

    @Test
    void triadOnJvmAndOpenClWritesOneJsonResultPerParameterCombination(@TempDir Path dir) throws Exception {
        List<String> devices = new ArrayList<>(List.of("jvm"));
        if (opencl() != null) devices.add("opencl");
        Path json = dir.resolve("jmh.json");
        new Runner(options(json, devices.toArray(String[]::new))).run();

        JsonNode results = new ObjectMapper().readTree(json.toFile());
        assertEquals(devices.size() * 2 * 2, results.size(), results::toPrettyString);
        Set<String> seen = new HashSet<>();
        for (JsonNode r : results) {
            assertEquals("dev.squall.bench.jmh.StreamBenchmark.triad", r.get("benchmark").asText());
            assertEquals("avgt", r.get("mode").asText());
            JsonNode p = r.get("params");
            seen.add(p.get("device").asText() + "/" + p.get("size").asText() + "/" + p.get("precision").asText());
            double score = r.get("primaryMetric").get("score").asDouble();
            assertTrue(score > 0 && Double.isFinite(score), r::toPrettyString);
            assertEquals("us/op", r.get("primaryMetric").get("scoreUnit").asText());
        }
        for (String d : devices) for (String n : List.of("1000", "65537")) for (String p : List.of("fp32", "fp64")) {
            assertTrue(seen.contains(d + "/" + n + "/" + p), () -> "no result for " + d + "/" + n + "/" + p + " in " + seen);
        }
    }

    /** The messages of {@code t}, its causes and the exceptions suppressed in it (JMH keeps a benchmark's there). */
    private static String messages(Throwable t) {
        if (t == null) return "";
        StringBuilder s = new StringBuilder(String.valueOf(t.getMessage())).append(' ').append(messages(t.getCause()));
        for (Throwable x : t.getSuppressed()) s.append(' ').append(messages(x));
        return s.toString();
    }

    @Test
    void aDeviceThatIsNotPresentFailsTheRunNamingIt(@TempDir Path dir) {
        RunnerException e = assertThrows(RunnerException.class, () -> new Runner(options(dir.resolve("jmh.json"), "cuda:97")).run());
        String all = messages(e);
        assertTrue(all.contains("device=cuda:97 is not present"), all);
    }
}
