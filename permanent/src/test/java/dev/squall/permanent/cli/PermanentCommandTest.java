package dev.squall.permanent.cli;

import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.squall.cli.Launcher;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class PermanentCommandTest {
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        try {
            int code = Launcher.execute(Launcher.configure(new CommandLine(new PermanentCommand())), args);
            return new Run(code, out.toString(), err.toString());
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void randomMatrixWithVerifyAndJson(@TempDir Path dir) {
        Run r = run("--random", "16:0.4:3", "--device", "jvm", "--verify", "--json");
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.trim().startsWith("{") && r.out.contains("\"verify\":{\"ok\":true"), r.out);
        assertTrue(r.out.contains("\"steps_per_second\":"), r.out);
    }

    /** --repeat: every solve's milliseconds and their median in the JSON, the fastest run's fields, the median in the text. */
    @Test
    void repeatReportsEverySolveAndTheMedian() throws Exception {
        Run j = run("--random", "18:0.3:2", "--device", "jvm", "--repeat", "4", "--json");
        assertEquals(0, j.code, j.err);
        var node = dev.squall.cli.JsonOutput.mapper().readTree(j.out);
        double[] ms = new double[4];
        for (int i = 0; i < 4; i++) ms[i] = node.get("repeat_ms").get(i).asDouble();
        assertEquals(4, node.get("repeat_ms").size());
        double[] sorted = ms.clone();
        java.util.Arrays.sort(sorted);
        assertEquals((sorted[1] + sorted[2]) / 2, node.get("median_ms").asDouble(), 1e-9);
        assertEquals(sorted[0], node.get("seconds").asDouble() * 1e3, 1e-6, "the reported run is the fastest");
        assertEquals(sorted[0], node.get("timings").get("total_ms").asDouble(), 1e-6);
        Run t = run("--random", "18:0.3:2", "--device", "jvm", "--repeat", "3");
        assertTrue(t.out.contains("repeats     3 solves in this process: median "), t.out);
    }

    /** Under --method auto a small block runs on the JVM whatever the device: the output says so (no silent switch). */
    @Test
    void smallBlocksOnAnotherDeviceAreReported() throws Exception {
        for (Device d : TestDevices.all()) {
            if (d.info().type() == DeviceType.JVM) continue;
            Run j = run("--random", "12:0.5:3", "--device", d.id(), "--json");
            assertEquals(0, j.code, j.out + j.err);
            var node = dev.squall.cli.JsonOutput.mapper().readTree(j.out);
            assertEquals(d.id(), node.get("device").asText());
            assertEquals("jvm", node.get("ran_on").get(0).asText(), j.out);
            Run t = run("--random", "12:0.5:3", "--device", d.id());
            assertTrue(t.out.contains("device      " + d + "; blocks ran on jvm"), t.out);
        }
        Run jvm = run("--random", "12:0.5:3", "--device", "jvm");
        assertTrue(jvm.out.contains("device      jvm") && !jvm.out.contains("blocks ran on"), jvm.out);
    }

    @Test
    void matrixMarketFileExactCount(@TempDir Path dir) throws Exception {
        // J_12 - I as a pattern matrix: D_12 = 176214841
        StringBuilder s = new StringBuilder("%%MatrixMarket matrix coordinate pattern general\n% derangements\n12 12 132\n");
        for (int i = 1; i <= 12; i++) for (int j = 1; j <= 12; j++) if (i != j) s.append(i).append(' ').append(j).append('\n');
        Path f = dir.resolve("d12.mtx");
        Files.writeString(f, s);
        Run r = run("--matrix", f.toString(), "--device", "jvm", "--exact", "--verify");
        assertEquals(0, r.code, r.out + r.err);
        assertTrue(r.out.contains("exact       " + derangements(12)), r.out);
        assertTrue(r.out.contains("verify      OK"), r.out);
        assertTrue(r.out.contains("method      "), r.out);
    }

    @Test
    void exactKernelOnTheOpenClOrCudaDevices() {
        for (Device d : TestDevices.all()) {
            if (d.info().type() == DeviceType.JVM) continue;
            BigInteger want = matchings(RandomSquareMatrices.parse("19:0.5:9").pattern());
            for (String kernel : new String[] {"generated", "generic"}) {
                Run r = run("--random", "19:0.5:9", "--binary", "--exact", "--exact-kernel", kernel, "--repeat", "2", "--verify", "--device", d.id(), "--json");
                assertEquals(0, r.code, r.out + r.err);
                assertTrue(r.out.contains("\"exact\":\"" + want + "\",\"exact_is_value\":true"), want + " in " + r.out);
                assertTrue(r.out.contains("\"exact_path\":\"" + kernel + " 64-bit Ryser kernel\""), r.out);
                assertTrue(r.out.contains("\"exact_device\":\"" + d.id() + "\""), r.out);
                assertTrue(r.out.contains("\"verify_exact\":{\"ok\":true"), r.out);
                assertTrue(r.out.contains("\"verify\":{\"ok\":true"), r.out);
            }
        }
        Run bad = run("--random", "8:0.5", "--binary", "--exact", "--exact-kernel", "fast");
        assertEquals(2, bad.code);
        assertTrue(bad.err.contains("--exact-kernel") && bad.err.contains("'fast'"), bad.err);
    }

    @Test
    void accurateDoubleDoubleSweep() {
        Run r = run("--random", "17:0.4:5", "--accurate", "--verify", "--threads", "2");
        assertEquals(0, r.code, r.out + r.err);
        assertTrue(r.out.contains("accurate@jvm"), r.out);
        assertTrue(r.out.contains("verify      OK"), r.out);
        SquareMatrix a = RandomSquareMatrices.parse("17:0.4:5");
        double want = new ChunkedJvmPermanent(2).dense(a);
        Run j = run("--random", "17:0.4:5", "--accurate", "--json");
        String v = j.out.replaceAll("(?s).*\"value\":([^,]+),.*", "$1");
        assertRelative(want, Double.parseDouble(v), 1e-10, "accurate vs JVM dense sweep");
    }

    @Test
    void exactCountOfABlockDiagonalMatrixBeyondTheSweepLimits(@TempDir Path dir) throws Exception {
        // 64x64 pattern, J_8 eight times on the diagonal: perm = (8!)^8 ~ 7e36, blocks of order 8
        StringBuilder s = new StringBuilder("%%MatrixMarket matrix coordinate pattern general\n64 64 512\n");
        for (int b = 0; b < 8; b++) for (int i = 1; i <= 8; i++) for (int j = 1; j <= 8; j++) s.append(8 * b + i).append(' ').append(8 * b + j).append('\n');
        Path f = dir.resolve("blocks.mtx");
        Files.writeString(f, s);
        Run r = run("--matrix", f.toString(), "--device", "jvm", "--exact", "--json");
        assertEquals(0, r.code, r.out + r.err);
        assertTrue(r.out.contains("\"exact\":\"" + factorial(8).pow(8) + "\",\"exact_is_value\":true"), r.out);
        assertTrue(r.out.contains("\"exact_blocks\":[8,8,8,8,8,8,8,8]"), r.out);
        r = run("--matrix", f.toString(), "--device", "jvm", "--exact", "--no-decompose");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("64x64") && r.err.contains("n <= 40"), r.err);
    }

    @Test
    void exactAndAccurateMisuseExitTwo() {
        // --exact on a real matrix runs the exact rational path (no longer a misuse): its value matches the double result
        Run r = run("--random", "8:0.5", "--exact", "--device", "jvm");
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.contains("error       0 (exact"), r.out);
        for (Device d : TestDevices.all()) {
            if (d.info().type() == DeviceType.JVM) continue;
            r = run("--random", "8:0.5", "--accurate", "--device", d.id());
            assertEquals(2, r.code);
            assertTrue(r.err.contains("--device jvm"), r.err);
        }
        r = run("--random", "8:0.5", "--accurate", "--method", "dense");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("--method dense"), r.err);
        r = run("--matrix", "x.mtx", "--binary");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("--binary"), r.err);
    }

    /** The error estimate's cost against the Ryser sweep: in the JSON timings and in the --timings text. */
    @Test
    void timingsStateTheEstimatesShareOfTheSweep() throws Exception {
        Run j = run("--random", "22:0.4:5", "--device", "jvm", "--method", "sparse", "--no-decompose", "--json");
        assertEquals(0, j.code, j.err);
        var t = dev.squall.cli.JsonOutput.mapper().readTree(j.out).get("timings");
        double sweep = t.get("sweep_ms").asDouble(), est = t.get("estimate_ms").asDouble();
        assertTrue(sweep > 0 && est > 0, j.out);
        assertEquals(est / sweep, t.get("estimate_fraction").asDouble(), 1e-9 * est / sweep);
        // sampled steps in double and double-double (8 double steps each), drift steps (2 each), over the 2^21 swept steps
        long chunk = dev.squall.permanent.cpu.ChunkedJvmPermanent.chunkSize(22);
        double work = dev.squall.permanent.cpu.RyserRoundingEstimate.sampleSteps(22, chunk) * 8.0
                + dev.squall.permanent.cpu.RyserRoundingEstimate.driftSteps(22, chunk) * 2.0;
        assertEquals(work / Math.pow(2, 21), t.get("estimate_work_fraction").asDouble(), 1e-12);
        Run text = run("--random", "22:0.4:5", "--device", "jvm", "--method", "sparse", "--no-decompose", "--timings");
        assertTrue(text.out.contains("estimate    ") && text.out.contains("% of its time"), text.out);
        // a frontier or exact result has no Ryser sweep: no fraction
        Run f = run("--generate", "mesh:20:1", "--device", "jvm", "--json");
        assertEquals(0, f.code, f.err);
        var ft = dev.squall.cli.JsonOutput.mapper().readTree(f.out).get("timings");
        if (!f.out.contains("sparse@") && !f.out.contains("dense@")) assertTrue(ft.get("estimate_fraction").isNull(), f.out);
    }

    @Test
    void badInputsExitTwoWithAClearMessage(@TempDir Path dir) throws Exception {
        Path rect = dir.resolve("rect.mtx");
        Files.writeString(rect, "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 1 2.0\n");
        Run r = run("--matrix", rect.toString());
        assertEquals(2, r.code);
        assertTrue(r.err.contains("rect.mtx:2") && r.err.contains("3 x 4"), r.err);
        Path bad = dir.resolve("bad.mtx");
        Files.writeString(bad, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2.0\n2 x 1.0\n");
        r = run("--matrix", bad.toString());
        assertEquals(2, r.code);
        assertTrue(r.err.contains("bad.mtx:4") && r.err.contains("'x'"), r.err);
        r = run("--random", "64:1", "--no-decompose", "--device", "jvm");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("n = 64"), r.err);
        r = run("--random", "abc:0.1");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("'abc'"), r.err);
        r = run("--random", "5:0.5", "--precision", "fp32");
        assertEquals(2, r.code);
        r = run("--matrix", dir.resolve("missing.mtx").toString());
        assertEquals(2, r.code);
        assertTrue(r.err.contains("no such file"), r.err);
        r = run("--random", "22:0.4", "--device", "jvm", "--restart", "3");
        assertEquals(2, r.code);
        assertTrue(r.err.contains("restart every 2^3 steps"), r.err);
        assertEquals(2, run().code, "no input");
    }

    @Test
    void rationalExactAndErrorBoundInJson(@TempDir Path dir) throws Exception {
        // 0.1*1.5 + 0.3*0.02 = 0.156 = 39/250 read as decimals
        Path f = dir.resolve("dec.mtx");
        java.nio.file.Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 0.1\n1 2 0.3\n2 1 0.02\n2 2 1.5\n");
        Run e = run("--matrix", f.toString(), "--exact", "--json");
        assertEquals(0, e.code, e.err);
        assertTrue(e.out.contains("\"exact_numerator\":\"39\"") && e.out.contains("\"exact_denominator\":\"250\""), e.out);
        // balanced, the double sweep's error here is ~4e-16 relative (measured: at n = 18 the whole double-double sum is
        // the reference); a tolerance below it makes the escalation certain: the frontier program's rigorous bound (6e-14)
        // does not meet it either, the double-double sweep does
        Run g = run("--generate", "banded:18:3", "--device", "jvm", "--method", "dense", "--no-decompose", "--tol", "1e-16", "--json");
        assertEquals(0, g.code, g.err);
        assertTrue(g.out.contains("\"error_bound\":") && g.out.contains("\"methods\":[\"accurate@jvm\"]")
                && g.out.contains("escalated: dense@jvm") && g.out.contains("frontier@jvm"), g.out);
        Run bad = run("--generate", "banded:18:3", "--tol", "2");
        assertEquals(2, bad.code, bad.out);
        assertTrue(bad.err.contains("tolerance"), bad.err);
    }
}
