package dev.squall.spark.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.squall.cli.JsonOutput;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

/** {@code squall spark ...} as the spark-submit main runs it (the squall application's error handling and exit codes). */
class SparkCommandTest {
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            var cl = SquallSparkMain.commandLine();
            cl.setErr(new java.io.PrintWriter(e, true));
            int code = dev.squall.cli.Launcher.execute(cl, args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void permanentVerifiesInLocalModeAndItsJsonCarriesTheValue() throws Exception {
        Run p = run("permanent", "--random", "15:0.6:3", "--master", "local[2]", "--no-local-gpus", "--verify", "--repeat", "2");
        assertEquals(0, p.code(), p.out() + p.err());
        assertEquals(2, p.out().split("chunks of", -1).length - 1, p.out());
        assertTrue(p.out().contains(": ok;"), p.out());

        Run j = run("permanent", "--random", "17:0.5:4", "--master", "local[2]", "--no-local-gpus", "--device", "jvm", "--verify", "--json");
        assertEquals(0, j.code(), j.out() + j.err());
        JsonNode r = JsonOutput.mapper().readTree(j.out().strip());
        SquareMatrix a = RandomSquareMatrices.parse("17:0.5:4");
        double want = new ChunkedJvmPermanent(2).dense(RowScaling.of(a).scaled());
        assertEquals("spark permanent", r.get("command").asText());
        assertEquals(17, r.get("n").asInt());
        assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(r.get("sweep_value").asDouble()), j.out());
        assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(r.get("reference").asDouble()));
        assertEquals(2, r.get("chunks").asInt(), "2 slots x 1 chunk by default: 2^16 steps are far below 2^31 a chunk");
        assertEquals(1L << 16, r.get("chunks").asLong() * r.get("chunk_steps").asLong());
        assertEquals(2, r.get("ran_on").get("jvm").asInt());

        Run four = run("permanent", "--random", "17:0.5:4", "--master", "local[2]", "--no-local-gpus", "--device", "jvm", "--chunks-per-slot", "4", "--json");
        assertEquals(0, four.code(), four.out() + four.err());
        JsonNode f = JsonOutput.mapper().readTree(four.out().strip());
        assertEquals(8, f.get("chunks").asInt(), "2 slots x 4 chunks");
        assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(f.get("sweep_value").asDouble()), "the value does not depend on the chunking");
        assertTrue(r.get("verified").asBoolean() && r.get("ok").asBoolean() && r.get("relative_error").asDouble() == 0, j.out());
    }

    @Test
    void cgVerifiesAgainstPcgAndTheBaseline() throws Exception {
        Run c = run("cg", "--hpcg", "6:6:6", "--blocks", "2", "--master", "local[2]", "--no-local-gpus", "--baseline", "--verify");
        assertEquals(0, c.code(), c.out() + c.err());
        assertTrue(c.out().contains("equal bit for bit") && c.out().contains("ok"), c.out());
        Run j = run("cg", "--hpcg", "5:4:7", "--blocks", "3", "--master", "local[3]", "--no-local-gpus", "--verify", "--json");
        assertEquals(0, j.code(), j.out() + j.err());
        JsonNode r = JsonOutput.mapper().readTree(j.out().strip());
        assertEquals(140, r.get("rows").asInt());
        assertEquals(3, r.get("devices").size());
        assertTrue(r.get("converged").asBoolean() && r.get("relative_difference").asDouble() <= 1e-9 && r.get("rel_residual").asDouble() <= 1e-10, j.out());
    }

    @Test
    void h2VerifiesAgainstTheSingleProcessMatrixAndTheExactSum() throws Exception {
        Run t = run("h2", "--points", "2d", "--n", "3000", "--tasks", "4", "--master", "local[2]", "--no-local-gpus", "--verify",
                "--repeat", "2");
        assertEquals(0, t.code(), t.out() + t.err());
        assertTrue(t.out().contains("in 4 subtrees (level 2)") && t.out().contains("relative difference") && !t.out().contains("FAILED"), t.out());
        Run j = run("h2", "--points", "3d", "--n", "2000", "--tasks", "8", "--order", "3", "--leaf", "20", "--kernel", "gauss:0.3", "--admissibility",
                "center", "--master", "local[2]", "--no-local-gpus", "--verify", "--tolerance", "5e-2", "--json");
        assertEquals(0, j.code(), j.out() + j.err());
        JsonNode r = JsonOutput.mapper().readTree(j.out().strip());
        assertEquals("spark h2", r.get("command").asText());
        assertEquals(2000, r.get("n").asInt());
        assertEquals(27, r.get("rank").asInt());
        assertEquals(8, r.get("devices").size());
        assertEquals(3, r.get("level").asInt());
        assertTrue(r.get("relative_difference").asDouble() <= 1e-12 && r.get("sample_error").asDouble() <= 5e-2 && r.get("ok").asBoolean(), j.out());
        assertTrue(r.get("halo_values").asLong() > 0 && r.get("product_seconds").asDouble() > 0, j.out());
        Run bad = run("h2", "--tasks", "3", "--master", "local[1]");
        assertEquals(2, bad.code(), bad.out() + bad.err());
        assertTrue(bad.err().contains("power of two"), bad.err());
        Run deep = run("h2", "--n", "100", "--tasks", "64", "--master", "local[1]", "--no-local-gpus");
        assertEquals(2, deep.code(), deep.out() + deep.err());
        assertTrue(deep.err().contains("--tasks 64") && deep.err().contains("cut level"), deep.err());
        assertEquals(2, run("h2", "--points", "4d", "--master", "local[1]").code());
    }

    @Test
    void overheadReportsJson() throws Exception {
        Run j = run("overhead", "--master", "local[2]", "--tasks", "8", "--repeat", "1", "--scaling-n", "14", "--max-chunks-per-slot", "2",
                "--no-local-gpus", "--json");
        assertEquals(0, j.code(), j.out() + j.err());
        JsonNode r = JsonOutput.mapper().readTree(j.out().strip());
        assertEquals(8, r.get("overhead").get("tasks").asInt());
        assertEquals(2, r.get("overhead").get("slots").asInt());
        assertEquals(2, r.get("scaling").get("points").size());
        assertEquals(4, r.get("scaling").get("points").get(1).get("chunks").asInt());
    }

    @Test
    void badInputExitsWith2() {
        Run r = run("permanent", "--random", "15:zero", "--master", "local[1]");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("density 'zero'"), r.err());
        Run m = run("permanent", "--random", "15:0.5", "--method", "auto", "--master", "local[1]");
        assertEquals(2, m.code(), m.out() + m.err());
        assertTrue(m.err().contains("auto"), m.err());
        Run g = run("cg", "--hpcg", "6:6", "--master", "local[1]");
        assertEquals(2, g.code());
        assertTrue(g.err().contains("NX:NY:NZ"), g.err());
        assertEquals(2, run("overhead", "--tasks", "1").code());
        assertEquals(2, run("permanent", "--random", "8:0.5", "--repeat", "0").code());
        // a GPU required where local mode has none (this machine has no CUDA device): the task's message, exit 2
        if (dev.squall.tasks.runtime.Devices.all().stream().noneMatch(d -> d.id().startsWith("cuda:"))) {
            Run gpu = run("permanent", "--random", "10:0.5", "--master", "local[1,1]", "--require-gpu");
            assertEquals(2, gpu.code(), gpu.out() + gpu.err());
            assertTrue(gpu.err().contains("needs a GPU but has none"), gpu.err());
            assertFalse(gpu.err().contains("\tat "), "no stack trace: " + gpu.err());
        }
    }

    @Test
    void helpTeachesWithoutStartingSpark() {
        Run h = run("--help");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("permanent") && h.out().contains("cg") && h.out().contains("h2") && h.out().contains("overhead") && h.out().contains("spark-dist"), h.out());
        Run none = run();
        assertEquals(2, none.code());
        assertTrue(none.err().contains("Usage: spark"), none.err());
        Run p = run("permanent", "--help");
        assertEquals(0, p.code());
        assertTrue(p.out().contains("--master") && p.out().contains("--device") && p.out().contains("Examples"), p.out());
    }
}
