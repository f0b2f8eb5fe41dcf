package dev.squall.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.squall.cli.JsonOutput;
import dev.squall.bench.chart.Java2dText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code squall bench} with a workload suite: the JSON it prints and writes reads back with its documented schema and
 * consistent figures, the CSV holds the same rows, the charts are real SVG and PNG files, and --compare flags a run
 * that is slower than an earlier one beyond the measured spread.
 */
class BenchCommandTest {
    @Test
    void aWorkloadSuiteWritesJsonCsvAndChartsAndComparesWithAnEarlierRun(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("bench", "--suite", "permanent", "--devices", "jvm", "--repeat", "3", "--out", dir.toString(), "--json");
        assertEquals(0, r.code(), r.toString());
        JsonNode res = JsonOutput.mapper().readTree(r.out().strip());
        SquallCommandJsonTest.fields(BenchCommand.SuiteResult.class, res);
        assertEquals("permanent", res.get("suite").asText());
        assertTrue(res.get("ok").asBoolean() && res.get("compared_with").isNull() && res.get("comparison").isEmpty(), res.toString());
        SquallCommandJsonTest.fields(DemoCommand.DeviceLimitsRow.class, res.get("devices").get(0));
        JsonNode rows = res.get("rows");
        assertEquals(3, rows.size(), "three sizes on one device");
        double last = 0;
        for (JsonNode row : rows) {
            SquallCommandJsonTest.fields(BenchCommand.SuiteRow.class, row);
            assertEquals("jvm", row.get("device").asText());
            assertEquals(3, row.get("samples_ms").size());
            assertEquals(1.0, row.get("speedup_over_jvm").asDouble(), "jvm against itself");
            assertEquals(row.get("work").asDouble() / (row.get("median_ms").asDouble() * 1e-3) / 1e9, row.get("rate").asDouble(), 1e-9 * row.get("rate").asDouble());
            assertTrue(row.get("scale").asDouble() > last, "sizes grow");
            last = row.get("scale").asDouble();
            assertTrue(row.get("ok").asBoolean() && row.get("error").asDouble() <= row.get("tolerance").asDouble(), row.toString());
        }

        // the files it lists: the same JSON, a CSV of the same rows, charts that are SVG and PNG
        List<String> files = new java.util.ArrayList<>();
        res.get("files").forEach(f -> files.add(f.asText()));
        Path json = Path.of(files.stream().filter(f -> f.endsWith(".json")).findFirst().orElseThrow());
        assertEquals(rows, JsonOutput.mapper().readTree(Files.readString(json)).get("rows"));
        List<String> csv = Files.readAllLines(Path.of(files.stream().filter(f -> f.endsWith(".csv")).findFirst().orElseThrow()));
        assertEquals(4, csv.size(), "header and three rows: " + csv);
        assertTrue(csv.getFirst().startsWith("workload,title,size,scale,scale_unit,device,") && csv.get(1).startsWith("\"permanent\","), csv.toString());
        assertEquals(BenchCommand.SuiteRow.class.getRecordComponents().length, csv.getFirst().split(",").length);
        if (Java2dText.failure() != null) {
            // a host whose Java cannot draw text (no fonts): the measurements are written, the charts are named as not drawn
            assertTrue(r.err().contains("charts not drawn"), r.err());
            assertTrue(files.stream().noneMatch(f -> f.endsWith(".png") || f.endsWith(".svg")), files.toString());
        } else for (String chart : List.of("bars-permanent", "scaling-permanent")) {
            byte[] png = Files.readAllBytes(dir.resolve(chart + ".png"));
            assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', chart + ".png is a PNG");
            String svg = Files.readString(dir.resolve(chart + ".svg"));
            assertTrue(svg.contains("<svg") && svg.strip().endsWith("</svg>"), chart + ".svg is an SVG");
            assertTrue(files.contains(dir.resolve(chart + ".png").toString()), files.toString());
        }

        // an earlier run a thousand times faster: every timing of this run is a regression beyond any spread a shared machine shows
        ObjectNode old = (ObjectNode) JsonOutput.mapper().readTree(Files.readString(json));
        for (JsonNode row : old.get("rows")) ((ObjectNode) row).put("median_ms", row.get("median_ms").asDouble() / 1000).put("spread", 0.1);
        Path fast = Files.writeString(dir.resolve("fast.json"), old.toString());
        CliRun slower = CliRun.of("bench", "--suite", "permanent", "--devices", "jvm", "--repeat", "3", "--compare", fast.toString());
        assertEquals(0, slower.code(), slower.toString());
        assertEquals(3, slower.out().lines().filter(l -> l.contains("REGRESSION")).count(), slower.toString());
        assertTrue(slower.out().contains("3 regression(s) beyond the measured spread"), slower.toString());
        // one a thousand times slower: every timing is faster, none a regression
        for (JsonNode row : old.get("rows")) ((ObjectNode) row).put("median_ms", row.get("median_ms").asDouble() * 1e6);
        ((ArrayNode) old.get("rows")).remove(2);   // a timing the old run lacks is left out
        Path slow = Files.writeString(dir.resolve("slow.json"), old.toString());
        CliRun faster = CliRun.of("bench", "--suite", "permanent", "--devices", "jvm", "--repeat", "3", "--compare", slow.toString(), "--json");
        assertEquals(0, faster.code(), faster.toString());
        JsonNode f = JsonOutput.mapper().readTree(faster.out().strip());
        assertEquals(0, f.get("regressions").asInt(), f.toString());
        assertEquals(2, f.get("comparison").size(), f.toString());
        for (JsonNode d : f.get("comparison")) assertEquals("faster", d.get("verdict").asText(), d.toString());
        assertEquals(slow.toString(), f.get("compared_with").asText());
    }

    @Test
    void peersFilesAddTheirRowsAsDevicesOfTheirOwn(@TempDir Path dir) throws Exception {
        CliRun first = CliRun.of("bench", "--suite", "permanent", "--devices", "jvm", "--repeat", "2", "--json");
        assertEquals(0, first.code(), first.toString());
        // a peer in the schema bench/peers/suite_json.py writes: its own device id, no limits, twice the time of this run
        ObjectNode peer = (ObjectNode) JsonOutput.mapper().readTree(first.out().strip());
        ArrayNode devices = peer.putArray("devices");
        devices.addObject().put("device", "peerlib:0").put("name", "a peer library").putNull("copy_gbs").putNull("fma_gflops").put("measure_ms", 0.0);
        for (JsonNode row : peer.get("rows")) {
            ObjectNode o = (ObjectNode) row;
            double ms = 2 * o.get("median_ms").asDouble();
            o.put("device", "peerlib:0").put("median_ms", ms).put("rate", o.get("work").asDouble() / (ms * 1e-3) / 1e9).putNull("limit").putNull("ratio_to_limit");
        }
        Path peerFile = Files.writeString(dir.resolve("peer.json"), peer.toString());

        CliRun r = CliRun.of("bench", "--suite", "permanent", "--devices", "jvm", "--repeat", "2", "--peers", peerFile.toString(), "--out", dir.toString());
        assertEquals(0, r.code(), r.toString());
        assertEquals(3, r.out().lines().filter(l -> l.startsWith("permanent") && l.contains("peerlib:0")).count(), r.out());
        assertEquals(3, r.out().lines().filter(l -> l.startsWith("permanent") && l.contains(" jvm ")).count(), r.out());
        Path json;
        try (var files = Files.list(dir)) {
            json = files.filter(f -> f.getFileName().toString().startsWith("bench-permanent-") && f.toString().endsWith(".json")).findFirst().orElseThrow();
        }
        JsonNode res = JsonOutput.mapper().readTree(Files.readString(json));
        assertEquals(6, res.get("rows").size(), res.toString());
        assertEquals(List.of("jvm", "peerlib:0"), List.of(res.get("devices").get(0).get("device").asText(), res.get("devices").get(1).get("device").asText()));
        for (JsonNode row : res.get("rows")) {
            SquallCommandJsonTest.fields(BenchCommand.SuiteRow.class, row);
            if (!row.get("device").asText().equals("peerlib:0")) continue;
            JsonNode jvm = null;
            for (JsonNode j : res.get("rows")) if (j.get("device").asText().equals("jvm") && j.get("size").equals(row.get("size"))) jvm = j;
            assertNotNull(jvm, row.toString());
            assertEquals(jvm.get("median_ms").asDouble() / row.get("median_ms").asDouble(), row.get("speedup_over_jvm").asDouble(), 1e-12, row.toString());
            assertTrue(row.get("limit").isNull() && row.get("ratio_to_limit").isNull(), "no limit: null, " + row);
        }
        Path csv = Path.of(json.toString().replace(".json", ".csv"));
        assertEquals(3, Files.readAllLines(csv).stream().filter(l -> l.contains("\"peerlib:0\"")).count(), "the CSV holds the peer's rows");
        if (Java2dText.failure() == null) assertTrue(Files.size(dir.resolve("bars-permanent.png")) > 1000, "charts drawn with the peer");
        else assertTrue(r.err().contains("charts not drawn"), "no fonts on this host, and the run says so: " + r.err());

        // a row without its time is named, before anything runs
        ((ObjectNode) peer.get("rows").get(1)).remove("median_ms");
        Path bad = Files.writeString(dir.resolve("bad.json"), peer.toString());
        CliRun named = CliRun.of("bench", "--suite", "permanent", "--devices", "jvm", "--peers", bad.toString());
        assertEquals(2, named.code(), named.toString());
        assertTrue(named.err().contains("--peers " + bad + ": row 1 has no median_ms") && !named.stackTrace(), named.toString());
    }

    @Test
    void badSuitesAndComparisonsAreNamed(@TempDir Path dir) {
        CliRun unknown = CliRun.of("bench", "--suite", "fft", "--devices", "jvm");
        assertEquals(2, unknown.code(), unknown.toString());
        assertTrue(unknown.err().contains("unknown suite 'fft'") && unknown.err().contains("ksum-sparse") && !unknown.stackTrace(), unknown.toString());
        CliRun stream = CliRun.of("bench", "stream", "--devices", "jvm", "--compare", dir.resolve("x.json").toString());
        assertEquals(2, stream.code(), stream.toString());
        assertTrue(stream.err().contains("--compare works with the workload suites"), stream.toString());
        CliRun precision = CliRun.of("bench", "--suite", "quick", "--devices", "jvm", "--precision", "fp32");
        assertEquals(2, precision.code(), precision.toString());
        assertTrue(precision.err().contains("--precision applies to the stream and queues suites"), precision.toString());
        CliRun missing = CliRun.of("bench", "--suite", "pcg", "--devices", "jvm", "--compare", dir.resolve("absent.json").toString());
        assertEquals(2, missing.code(), missing.toString());
        assertTrue(missing.err().contains("absent.json: no such file") && !missing.stackTrace(), missing.toString());
    }
}
