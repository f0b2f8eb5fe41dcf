package dev.squall.sparse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.testing.CliRunner;
import dev.squall.sparse.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpmmCommandTest {
    static Object[] run(String... args) {
        return CliRunner.run(new SpmmCommand(), args);
    }

    @Test
    void bothLayoutsVerifyAndCountBytes() {
        Object[] r = run("--generate", "rmat:9", "--vectors", "7", "--layout", "row,col", "--device", "jvm", "--repeat", "2",
                "--batch", "2", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String[] lines = ((String) r[1]).strip().split("\n");
        assertEquals(2, lines.length, (String) r[1]);
        CsrMatrix a = MatrixGenerators.generate("rmat:9");
        long want = (long) a.nnz() * 12 + 4L * (a.rows() + 1) + 8L * 7 * (a.rows() + a.cols());
        for (String l : lines) {
            assertTrue(l.contains("\"verified\":true") && l.contains("\"vectors\":7"), l);
            assertTrue(l.contains("\"counted_bytes\":" + want), l);
        }
        assertTrue(lines[0].contains("\"layout\":\"row\"") && lines[1].contains("\"layout\":\"col\""));
    }

    /** --transpose: Y = A^T X verified against a JVM product of the transposed operator (shapes: SpmmExecutorTest, 1xN and Nx1). */
    @Test
    void transposedProductVerifies() {
        Object[] r = run("--generate", "skewed:700x90", "--vectors", "3", "--layout", "col", "--transpose", "--device", "jvm", "--repeat", "2",
                "--batch", "2", "--verify", "--json");
        assertEquals(0, r[0], (String) r[2]);
        String l = ((String) r[1]).strip();
        assertTrue(l.contains("\"transpose\":true") && l.contains("\"verified\":true"), l);
    }

    /** --format csb: both directions verify; an unknown format is bad input. */
    @Test
    void csbRunsBothDirections() {
        for (String t : new String[] {"", "--transpose"}) {
            List<String> args = new ArrayList<>(List.of("--generate", "rmat:9", "--format", "csb", "--vectors", "3", "--layout", "row,col",
                    "--device", "jvm", "--repeat", "2", "--batch", "2", "--verify", "--json"));
            if (!t.isEmpty()) args.add(t);
            Object[] r = run(args.toArray(String[]::new));
            assertEquals(0, r[0], (String) r[2]);
            for (String l : ((String) r[1]).strip().split("\n")) {
                assertTrue(l.contains("\"verified\":true") && l.contains("CSB, ") && l.contains("\"transpose\":" + !t.isEmpty()), l);
            }
        }
        Object[] bad = run("--generate", "5pt:10x10", "--format", "ell", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--format ell: expected csr or csb"), (String) bad[2]);
    }

    @Test
    void textReportAndBadInput() {
        Object[] r = run("--matrix", TestData.file("bcsstk01.mtx").toString(), "--vectors", "3", "--precision", "fp32", "--device", "jvm",
                "--repeat", "2", "--verify");
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("K = 3, row-major") && ((String) r[1]).contains("verify     relative error"), (String) r[1]);
        Object[] bad = run("--generate", "5pt:10x10", "--vectors", "0", "--device", "jvm");
        assertEquals(2, bad[0]);
        assertTrue(((String) bad[2]).contains("--vectors 0"), (String) bad[2]);
        assertEquals(2, run("--generate", "5pt:10x10", "--layout", "diag", "--device", "jvm")[0]);
    }
}
