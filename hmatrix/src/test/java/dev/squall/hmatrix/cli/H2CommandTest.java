package dev.squall.hmatrix.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.squall.cli.Launcher;
import picocli.CommandLine;

class H2CommandTest {
    @TempDir
    Path dir;

    /** Runs the command as the squall launcher does (bad input -> 2); returns {exit code, stdout, error message}. */
    static Object[] run(String... args) {
        PrintStream old = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        try {
            int code = Launcher.execute(Launcher.configure(new CommandLine(new H2Command())), args);
            // the error line "h2: MESSAGE" of the launcher, or nothing
            String line = err.toString().lines().filter(l -> l.startsWith("h2: ")).reduce((x, y) -> y).orElse("");
            return new Object[] {code, out.toString(), line.isEmpty() ? "" : line.substring(4)};
        } finally {
            System.setOut(old);
            System.setErr(oldErr);
        }
    }

    static double field(String json, String name) {
        int i = json.indexOf("\"" + name + "\":") + name.length() + 3;
        int j = i;
        while (j < json.length() && ",}".indexOf(json.charAt(j)) < 0) j++;
        return Double.parseDouble(json.substring(i, j));
    }

    @Test
    void gridProductVerifiesAndReportsJson() {
        Object[] r = run("--points", "2d", "--n", "3000", "--device", "jvm", "--repeat", "2", "--verify", "--sample", "50", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = ((String) r[1]).strip();
        assertTrue(json.contains("\"verified\":true") && json.contains("\"n\":3000") && json.contains("\"rank\":64"), json);
        assertTrue(field(json, "rel_error") < 1e-7, json);
        assertTrue(field(json, "gbs") > 0 && field(json, "ratio_to_copy") > 0 && field(json, "copy_gbs") > 0, json);
        for (String phase : new String[] {"gather", "dense", "upsweep-leaves", "upsweep-transfers", "coupling", "downsweep-transfers",
                "downsweep-leaves", "scatter"}) {
            assertTrue(json.contains("\"" + phase + "\":"), phase + " in " + json);
        }
        for (String part : new String[] {"leaf-bases", "transfers", "couplings", "dense-blocks"}) {
            assertTrue(json.contains("\"" + part + "\":"), part + " in " + json);
        }
        assertTrue(field(json, "product_device_ms") > 0 && json.contains("\"gemm\":false"), json);
        // the counted bytes are the four streamed parts of the memory report
        double counted = field(json, "counted_bytes");
        String mem = json.substring(json.indexOf("\"memory_bytes\""));
        assertEquals(field(mem, "dense") + field(mem, "coupling") + field(mem, "bases") + field(mem, "transfers"), counted);
    }

    /** --warm-build builds twice and reports both builds, each with its host parts (trees, traversal, structure) and device parts. */
    @Test
    void warmBuildReportsColdAndWarmParts() {
        Object[] r = run("--points", "3d", "--n", "2500", "--order", "3", "--device", "jvm", "--repeat", "1", "--warm-build", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = ((String) r[1]).strip();
        String cold = json.substring(json.indexOf("\"cold_build\""));
        assertTrue(field(cold, "ms") > 0 && field(cold, "host_ms") > 0, json);
        for (String part : new String[] {"trees", "traversal", "structure"}) {
            assertTrue(field(cold, part) >= 0 && field(json.substring(json.indexOf("\"build_host_parts_ms\"")), part) >= 0, part + " in " + json);
        }
        assertTrue(cold.contains("\"couplings\":") && field(json, "build_ms") > 0, json);
        Object[] plain = run("--points", "3d", "--n", "2500", "--order", "3", "--device", "jvm", "--repeat", "1", "--json");
        assertTrue(((String) plain[1]).contains("\"cold_build\":null"), (String) plain[1]);
    }

    @Test
    void csvPointsSeveralVectorsAndText() throws IOException {
        StringBuilder sb = new StringBuilder("x,y,z\n");
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        for (int i = 0; i < 500; i++) sb.append(rnd.nextDouble()).append(',').append(rnd.nextDouble()).append(',').append(rnd.nextDouble()).append('\n');
        Path f = dir.resolve("p.csv");
        Files.writeString(f, sb.toString());
        Object[] r = run("--points", f.toString(), "--order", "4", "--kernel", "matern32:0.3", "--vectors", "2", "--device", "jvm",
                "--repeat", "1", "--verify", "--tolerance", "1e-3");
        assertEquals(0, r[0], (String) r[2]);
        String text = (String) r[1];
        assertTrue(text.contains("500 x 500 3D points") && text.contains("verify     relative error") && text.contains(": ok"), text);
        assertTrue(text.contains("coupling") && text.contains("GB/s"), text);
    }

    @Test
    void sixteenVectorsRunAndVerify() {
        Object[] r = run("--points", "2d", "--n", "1500", "--order", "6", "--vectors", "16", "--device", "jvm", "--repeat", "1", "--verify",
                "--sample", "30", "--tolerance", "1e-5", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = ((String) r[1]).strip();
        // the block-row kernels (the default) run their own tensor-core sums, no linalg GEMMs
        assertTrue(json.contains("\"gemm\":false") && json.contains("\"vectors\":16"), json);
        assertTrue(field(json, "rel_error") < 1e-5 && field(json, "gflops") > 0, json);
    }

    @Test
    void tooTightToleranceFailsVerification() {
        Object[] r = run("--points", "2d", "--n", "1000", "--order", "2", "--leaf", "16", "--device", "jvm", "--repeat", "1", "--verify",
                "--tolerance", "1e-12", "--json");
        assertEquals(1, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("\"verified\":true") && ((String) r[1]).contains("\"ok\":false"), (String) r[1]);
    }

    @Test
    void badInputExitsWithTwoAndSaysWhy() throws IOException {
        Object[] r = run("--points", "4d", "--n", "10", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("4d: no such file"), (String) r[2]);
        r = run("--points", "2d", "--device", "jvm");
        assertTrue(((String) r[2]).contains("needs --n"), (String) r[2]);
        r = run("--points", "2d", "--n", "100", "--kernel", "bessel:1", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("unknown kernel 'bessel'"), (String) r[2]);
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, "0,0\n1,oops\n");
        r = run("--points", f.toString(), "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains(f + ":2:"), (String) r[2]);
        r = run("--points", "2d", "--n", "100", "--admissibility", "far", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--admissibility far: use box or center"), (String) r[2]);
        r = run("--points", "2d", "--n", "100", "--leaf", "1", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("leaf size"), (String) r[2]);
    }

    @Test
    void compressionReportsRanksAndSmallerMemory() {
        Object[] r = run("--points", "2d", "--n", "2000", "--compress", "1e-5", "--device", "jvm", "--repeat", "1", "--verify",
                "--tolerance", "1e-4", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = ((String) r[1]).strip();
        assertTrue(json.contains("\"compression\":{\"tolerance\":1.0E-5") && json.contains("\"row_ranks\":["), json);
        assertTrue(field(json, "memory_after") < field(json, "memory_before"), json);
        assertTrue(field(json, "error_estimate") < 1e-4 && field(json, "rel_error") < 1e-4, json);
        assertTrue(field(json, "projection_gflops") > 0 && json.contains("\"projection_gemm\":false") && json.contains("\"orthogonalise\":"), json);
        // where the time went: each step's plans and its host part, whose wall times add up to the step's
        String parts = json.substring(json.indexOf("\"parts\":"));
        for (String step : new String[] {"orthogonalise", "project-orthogonal", "basis-generation", "truncate", "project-truncated"}) {
            double sum = 0;
            int from = 0;
            while ((from = parts.indexOf("\"" + step + "/", from)) >= 0) {
                sum += field(parts.substring(from), "wall_ms");
                from++;
            }
            double stepMs = field(json.substring(json.indexOf("\"steps_ms\"")), step);
            assertTrue(parts.contains("\"" + step + "/host\":") && Math.abs(sum - stepMs) <= 0.05 * stepMs + 1, step + ": " + sum + " vs " + stepMs + " in " + json);
        }
        assertTrue(parts.contains("\"truncate/svd-gram\":") && field(parts.substring(parts.indexOf("truncate/svd-gram")), "plans") >= 1, json);
        r = run("--points", "2d", "--n", "200", "--compress", "2", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("tolerance must be in (0, 1)"), (String) r[2]);
    }

    /** --warm-compress compresses the first build too and reports it beside the second; it needs --compress. */
    @Test
    void warmCompressReportsBothCompressions() {
        Object[] r = run("--points", "2d", "--n", "1500", "--order", "5", "--compress", "1e-4", "--warm-compress", "--device", "jvm", "--repeat", "1",
                "--json");
        assertEquals(0, r[0], (String) r[2]);
        String json = ((String) r[1]).strip();
        String cold = json.substring(json.indexOf("\"cold_compression\":{"));
        String warm = json.substring(json.indexOf("\"compression\":{"), json.indexOf("\"cold_compression\""));
        // the same matrix compressed to the same tolerance: the same ranks and estimate
        assertEquals(warm.substring(warm.indexOf("\"row_ranks\""), warm.indexOf(']', warm.indexOf("\"row_ranks\""))),
                cold.substring(cold.indexOf("\"row_ranks\""), cold.indexOf(']', cold.indexOf("\"row_ranks\""))), json);
        assertEquals(field(warm, "error_estimate"), field(cold, "error_estimate"), 1e-12 + 1e-9 * field(warm, "error_estimate"), json);
        assertTrue(field(cold, "ms") > 0 && cold.contains("\"parts\":{") && json.contains("\"cold_build\":{"), json);
        r = run("--points", "2d", "--n", "200", "--warm-compress", "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--warm-compress needs --compress"), (String) r[2]);
    }
}
