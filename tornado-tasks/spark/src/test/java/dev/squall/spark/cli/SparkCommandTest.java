package dev.squall.spark.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

class SparkCommandTest {
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        PrintStream oldOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            var cl = SquallSparkMain.commandLine();
            cl.setErr(new java.io.PrintWriter(e, true));
            int code = cl.execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
        }
    }

    @Test
    void permanentAndCgVerifyInLocalMode() {
        Run p = run("permanent", "--random", "15:0.6:3", "--master", "local[2]", "--no-local-gpus", "--verify", "--repeat", "2");
        assertEquals(0, p.code(), p.out() + p.err());
        assertEquals(2, p.out().split("chunks of", -1).length - 1, p.out());
        assertTrue(p.out().contains("bit for bit): ") && p.out().contains(": ok;"), p.out());
        Run c = run("cg", "--hpcg", "6:6:6", "--blocks", "2", "--master", "local[2]", "--no-local-gpus", "--baseline", "--verify");
        assertEquals(0, c.code(), c.out() + c.err());
        assertTrue(c.out().contains("equal bit for bit") && c.out().contains("ok"), c.out());
    }

    @Test
    void badInputExitsWith2() {
        Run r = run("permanent", "--random", "15:zero", "--master", "local[1]");
        assertEquals(2, r.code(), r.out() + r.err());
        Run m = run("permanent", "--random", "15:0.5", "--method", "auto", "--master", "local[1]");
        assertEquals(2, m.code(), m.out() + m.err());
        assertTrue(m.err().contains("auto"), m.err());
        assertEquals(2, run("cg", "--hpcg", "6:6", "--master", "local[1]").code());
    }
}
