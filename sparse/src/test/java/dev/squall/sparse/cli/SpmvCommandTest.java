package dev.squall.sparse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.testing.CliRunner;
import dev.squall.sparse.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpmvCommandTest {
    /** Runs the command as the squall launcher does (bad input -> 2) and returns exit code and stdout. */
    static Object[] run(String... args) {
        return CliRunner.run(new SpmvCommand(), args);
    }

    @Test
    void generatedStencilVerifiesAndReportsJson() {
        Object[] r = run("--generate", "27pt:13x11x9", "--device", "jvm", "--repeat", "3", "--verify", "--json");
        assertEquals(0, r[0]);
        String json = (String) r[1];
        assertTrue(json.contains("\"format\":\"csr\"") && json.contains("\"verified\":true") && json.contains("\"nnz\":" + (37 * 31 * 25)), json);
        assertTrue(json.contains("\"ratio_to_copy\":"), json);
        // the gather limit is off by default on CPU devices
        assertTrue(json.contains("\"gather_limit_gbs\":null,\"ratio_to_limit\":null"), json);
    }

    /** --gather-limit times the gather-limit kernel once per matrix and gives each format's ratio to it. */
    @Test
    void gatherLimitIsReportedPerFormat() {
        Object[] r = run("--generate", "rmat:9", "--format", "csr-binned,csr", "--gather-limit", "--device", "jvm", "--repeat", "2",
                "--batch", "2", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String[] lines = ((String) r[1]).strip().split("\n");
        assertEquals(2, lines.length, (String) r[1]);
        String limit = null;
        for (String l : lines) {
            int i = l.indexOf("\"gather_limit_gbs\":") + 19;
            String v = l.substring(i, l.indexOf(',', i));
            assertTrue(Double.parseDouble(v) > 0, l);
            if (limit != null) assertEquals(limit, v, "one limit per matrix");
            limit = v;
            int j = l.indexOf("\"ratio_to_limit\":") + 17;
            assertTrue(Double.parseDouble(l.substring(j, l.indexOf(',', j))) > 0, l);
        }
        Object[] t = run("--generate", "rmat:9", "--format", "csr", "--gather-limit", "--device", "jvm", "--repeat", "2");
        assertEquals(0, t[0], (String) t[2]);
        assertTrue(((String) t[1]).contains("gather limit ") && ((String) t[1]).contains("% of it"), (String) t[1]);
    }

    /** auto is not a separate executor: it runs the chosen format's inspector and kernels, byte for byte the same layout. */
    @Test
    void autoRunsTheChosenFormatsExecutor() {
        Object[] r = run("--generate", "skewed:3001x700", "--format", "auto,csr-merge,csr-binned", "--device", "jvm", "--repeat", "2",
                "--batch", "2", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String[] lines = ((String) r[1]).strip().split("\n");
        assertEquals(3, lines.length, (String) r[1]);
        String picked = field(lines[0], "format");
        String same = picked.equals("csr-merge") ? lines[1] : lines[2];
        assertEquals(picked, field(same, "format"), lines[0]);
        assertEquals(field(same, "detail"), field(lines[0], "detail"));
        for (String l : lines) assertTrue(l.contains("\"verified\":true") && l.contains("\"batch\":2"), l);
    }

    @Test
    void transposeVerifiesAgainstAScatter() {
        Object[] r = run("--generate", "rmat:8", "--format", "csr-binned,csr", "--transpose", "--device", "jvm", "--repeat", "2",
                "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        for (String l : ((String) r[1]).strip().split("\n")) assertTrue(l.contains("\"transpose\":true") && l.contains("\"verified\":true"), l);
    }

    static String field(String json, String name) {
        int i = json.indexOf("\"" + name + "\":\"") + name.length() + 4;
        return json.substring(i, json.indexOf('"', i));
    }

    @Test
    void fileWithExplicitFormatInFp32() {
        Object[] r = run("--matrix", TestData.file("ani4.mtx").toString(), "--format", "sell", "--precision", "fp32",
                "--device", "jvm", "--repeat", "2", "--verify");
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("verify     relative error"), (String) r[1]);
    }

    @Test
    void badInputIsExitCodeTwoWithFileAndLine(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.mtx");
        Files.writeString(bad, "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n");
        Object[] r = run("--matrix", bad.toString(), "--device", "jvm");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("bad.mtx:4: row index 3 is outside 1..2"), (String) r[2]);
        assertEquals(2, run("--generate", "27pt:10", "--device", "jvm")[0]);
        assertEquals(2, run("--generate", "5pt:10x10", "--format", "csr-bogus", "--device", "jvm")[0]);
        assertEquals(2, run("--device", "jvm")[0], "a matrix source is required");
    }

    @Test
    void formatListRunsEachAndDumpsRawArrays(@TempDir Path dir) throws IOException {
        Object[] r = run("--generate", "rmat:8", "--format", "csr,dia,csr-merge", "--device", "jvm", "--repeat", "2",
                "--verify", "--json", "--dump", dir.toString(), "--dump-name", "g");
        assertEquals(0, r[0], (String) r[2]);
        String[] lines = ((String) r[1]).strip().split("\n");
        assertEquals(3, lines.length, (String) r[1]);
        assertTrue(lines[0].contains("\"format\":\"csr\"") && lines[0].contains("\"verified\":true"), lines[0]);
        assertTrue(lines[1].contains("\"error\":\"DIA would store"), lines[1]);
        assertTrue(lines[2].contains("\"format\":\"csr-merge\"") && lines[2].contains("\"verified\":true"), lines[2]);
        String[] shape = Files.readString(dir.resolve("g.shape.txt")).strip().split(" ");
        assertEquals(4L * (Integer.parseInt(shape[0]) + 1), Files.size(dir.resolve("g.ptr.i32")));
        assertEquals(8L * Integer.parseInt(shape[2]), Files.size(dir.resolve("g.val.f64")));
    }
}
