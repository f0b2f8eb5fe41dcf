package dev.squall.bench.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.squall.bench.cli.SquallCommand;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.Launcher;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

/** {@code squall demo}'s verification is real: a result corrupted on its way to the check fails it, and the demo exits 1. */
class DemoTourTest {
    @Test
    void aCorruptedResultFailsItsWorkloadAndTheDemoExitsOne() throws Exception {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        DemoTour.hook = (workload, values) -> {
            if (workload.equals("cholesky")) values[values.length - 1] += 1e-6;   // one entry of the last factor
        };
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            code = Launcher.execute(SquallCommand.commandLine(), new String[] {"demo", "--device", "jvm", "--json"});
        } finally {
            DemoTour.hook = dev.squall.bench.suite.ResultHook.NONE;
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, text);
        JsonNode r = JsonOutput.mapper().readTree(text.strip());
        assertFalse(r.get("ok").asBoolean(), text);
        int rows = 0;
        for (JsonNode row : r.get("rows")) {
            rows++;
            boolean corrupted = row.get("workload").asText().equals("cholesky");
            assertEquals(!corrupted, row.get("ok").asBoolean(), row.toString());
            if (corrupted) assertTrue(row.get("error").asDouble() > row.get("tolerance").asDouble(), row.toString());
        }
        assertEquals(8, rows, text);
    }

    @Test
    void theTableComparesDevicesAndMarksWrongResults() {
        var jvm = dev.squall.tasks.runtime.Devices.jvm();
        var limits = new dev.squall.bench.suite.DeviceLimits("jvm", 10, 1, 20, 0);
        var ok = new dev.squall.bench.suite.SpmvAuto("5pt:9x7").measure(jvm, limits, 1, dev.squall.bench.suite.ResultHook.NONE);
        var wrong = new dev.squall.bench.suite.SpmvAuto("5pt:9x7").measure(jvm, limits, 1, (w, v) -> v[0] = Double.NaN);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DemoTour.table(java.util.List.of(new DemoTour.Report(jvm, limits, java.util.List.of(ok)), new DemoTour.Report(jvm, limits, java.util.List.of(wrong))),
                new PrintStream(b, true, StandardCharsets.UTF_8));
        String t = b.toString(StandardCharsets.UTF_8);
        String row = t.lines().filter(l -> l.startsWith("spmv")).findFirst().orElseThrow(() -> new AssertionError(t));
        assertTrue(row.contains("5pt:9x7 nnz=" + (63 * 5 - 2 * 9 - 2 * 7)), row);
        assertEquals(1, row.chars().filter(c -> c == '!').count(), "the wrong result, and only it, is marked: " + row);
        assertTrue(row.contains("copy"), row);
    }
}
