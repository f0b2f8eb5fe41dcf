package dev.squall.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.squall.tasks.runtime.DeviceException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.MalformedInputException;
import java.nio.file.NoSuchFileException;

import static org.junit.jupiter.api.Assertions.*;

/** The one error handler: exit codes, one line on stderr, JSON on stdout with --json, stack traces only with --debug. */
class LauncherTest {
    @Command(name = "fail")
    static final class Fail implements SquallSubcommand {
        @Mixin
        RunOptions run;

        @Option(names = "--with")
        String with = "none";

        @Override
        public Integer call() throws Exception {
            switch (with) {
                case "bad" -> throw new IllegalArgumentException("--with bad: not a thing");
                case "device" -> throw new DeviceException(DeviceException.Kind.UNAVAILABLE, "device cuda:0 is not available: no libcuda");
                case "file" -> throw new NoSuchFileException("missing.mtx");
                case "binary" -> throw new MalformedInputException(1);
                case "tolerance" -> throw new CommandFailure(ExitCode.TOLERANCE_NOT_MET, "tolerance 1e-12 not met");
                case "bug" -> throw new ArithmeticException("integer overflow");
                case "verify" -> {
                    return ExitCode.VERIFY_FAILED;
                }
                default -> {
                    return 0;
                }
            }
        }
    }

    record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        try {
            int code = Launcher.execute(Launcher.configure(new CommandLine(new Fail())), args);
            return new Run(code, out.toString(), err.toString());
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void exitCodesByKindOfFailure() {
        assertEquals(0, run().code);
        assertEquals(1, run("--with", "verify").code);
        assertLine(run("--with", "bad"), 2, "fail: --with bad: not a thing");
        assertLine(run("--with", "device"), 3, "fail: device error: device cuda:0 is not available: no libcuda (this needs a GPU");
        assertLine(run("--with", "file"), 2, "fail: missing.mtx: no such file");
        assertLine(run("--with", "binary"), 2, "fail: the file is not text");
        assertLine(run("--with", "tolerance"), 5, "fail: tolerance 1e-12 not met");
        assertLine(run("--with", "bug"), 4, "fail: internal error: ArithmeticException: integer overflow (run again with --debug");
        assertLine(run("--bogus"), 2, "fail: Unknown option: '--bogus'");
        assertLine(run("--repeat", "x"), 2, "fail: Invalid value for option '--repeat'");
    }

    @Test
    void debugPrintsTheStackTrace() {
        Run r = run("--with", "bug", "--debug");
        assertEquals(4, r.code);
        // a frame names its module on the module path ("at dev.squall.cli@0.1.0/dev.squall.cli.LauncherTest...")
        assertTrue(java.util.regex.Pattern.compile("\tat (dev\\.squall\\.cli(@[^/]*)?/)?dev\\.squall\\.cli\\.LauncherTest\\$Fail\\.call\\(")
                .matcher(r.err).find(), r.err);
    }

    @Test
    void jsonErrorsOnStdout() throws Exception {
        Run r = run("--with", "device", "--json");
        JsonNode e = JsonOutput.mapper().readTree(r.out);
        assertEquals("fail", e.get("command").asText());
        assertEquals("device_error", e.get("error_kind").asText());
        assertEquals(3, e.get("exit_code").asInt());
        assertTrue(e.get("error").asText().startsWith("device error: device cuda:0"), r.out);
        Run p = run("--repeat", "0", "--json");
        assertEquals(2, JsonOutput.mapper().readTree(p.out).get("exit_code").asInt(), p.out);
    }

    private static void assertLine(Run r, int code, String start) {
        assertEquals(code, r.code, r.err);
        assertTrue(r.err.startsWith(start), r.err);
        assertEquals(1, r.err.strip().lines().count(), "one line: " + r.err);
        assertFalse(r.err.contains("\tat "), r.err);
        assertTrue(r.out.isEmpty(), r.out);
    }
}
