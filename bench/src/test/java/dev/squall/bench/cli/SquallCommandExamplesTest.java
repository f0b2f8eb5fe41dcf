package dev.squall.bench.cli;

import dev.squall.cli.Launcher;
import dev.squall.cli.SquallSubcommand;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every example in every command's --help runs as written (from the repository root) on this machine: exit 0, or
 * exit 3 saying it needs a GPU where the example is marked so and no CUDA device is present, or the exit code its
 * comment names; and the bad inputs of issue 12 get their exit codes with one line and no stack trace.
 */
class SquallCommandExamplesTest {
    /** Each example is small; this caps one on a loaded 2-core machine. */
    private static final Duration CAP = Duration.ofSeconds(180);

    record Example(String command, String line, String[] args, boolean needsGpu, int expectedExit) {
    }

    static List<Example> examples() {
        List<Example> all = new ArrayList<>();
        for (SquallSubcommand c : Launcher.subcommands()) {
            String name = Launcher.name(c);
            int found = 0;
            for (String d : new CommandLine(c).getCommandSpec().usageMessage().description()) {
                if (!d.startsWith("  squall ")) continue;
                found++;
                String code = d.contains("   #") ? d.substring(0, d.indexOf("   #")) : d;
                String comment = d.contains("   #") ? d.substring(d.indexOf("   #") + 4) : "";
                String[] words = code.strip().split("\\s+");
                assertEquals("squall", words[0]);
                assertEquals(name, words[1], "an example of " + name + " runs " + name + ": " + d);
                int exit = comment.matches(".*exit (\\d).*") ? Integer.parseInt(comment.replaceAll(".*exit (\\d).*", "$1")) : 0;
                all.add(new Example(name, d.strip(), Arrays.copyOfRange(words, 1, words.length), comment.contains("needs a GPU"), exit));
            }
            assertTrue(found >= 2, name + " has examples in its help");
        }
        return all;
    }

    static boolean hasCuda() {
        return Devices.all().stream().anyMatch(d -> d.info().backend().equals("cuda"));
    }

    @TestFactory
    Stream<DynamicTest> everyHelpExampleRuns() {
        boolean cuda = hasCuda();
        return examples().stream().map(e -> DynamicTest.dynamicTest(e.line, () -> {
            CliRun r = assertTimeoutPreemptively(CAP, () -> CliRun.of(e.args));
            assertFalse(r.stackTrace(), "stack trace without --debug: " + r);
            if (e.needsGpu && !cuda) {
                assertEquals(3, r.code(), r.toString());
                assertTrue(r.err().contains("this needs a GPU"), r.toString());
                return;
            }
            assertEquals(e.expectedExit, r.code(), r.toString());
            if (List.of(e.args).contains("--json")) {
                for (String line : r.out().strip().split("\n")) assertTrue(line.startsWith("{") && line.endsWith("}"), "JSON line: " + line + "\n" + r);
            }
        }));
    }

    @Test
    void noArgumentsPrintsUsageAndExitsTwo() {
        CliRun r = CliRun.of();
        assertEquals(2, r.code());
        assertTrue(r.err().contains("Usage: squall") && r.err().contains("cholesky"), r.toString());
        assertTrue(r.out().isEmpty(), r.toString());
    }

    /** The bad-input table: each case's exit code, the one line on stderr naming what is wrong, no stack trace. */
    @Test
    void badInputs(@TempDir Path dir) throws Exception {
        Path binary = dir.resolve("binary.mtx");
        Files.write(binary, new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff, (byte) 0xfe, 10, (byte) 0xc3, 0x28});
        Path huge = dir.resolve("huge.mtx");
        Files.writeString(huge, "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 2000000000\n1 1 1.0\n");
        Path notSpd = dir.resolve("indefinite.mtx");
        Files.writeString(notSpd, "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n1\n");
        Object[][] table = {
                {2, "--batch x --n^2", new String[] {"trinv", "--n", "2147483647", "--batch", "3"}},
                {2, "--m x --k", new String[] {"gemm", "--m", "2147483647"}},
                {2, "--n 2147483647", new String[] {"cholesky", "--n", "2147483647"}},
                {2, "--device '': empty device id", new String[] {"permanent", "--random", "6:0.5", "--device", ""}},
                {2, "--device '': empty device id", new String[] {"spmv", "--generate", "5pt:10x10", "--device", ""}},
                {2, dir + ": not a regular file", new String[] {"permanent", "--matrix", dir.toString(), "--device", "jvm"}},
                {2, binary.toString(), new String[] {"permanent", "--matrix", binary.toString(), "--device", "jvm"}},
                {2, huge.toString(), new String[] {"spmv", "--matrix", huge.toString(), "--device", "jvm"}},
                {2, "not positive definite", new String[] {"cholesky", "--matrix", notSpd.toString(), "--device", "jvm"}},
                {2, "no such file", new String[] {"spmm", "--matrix", dir.resolve("absent.mtx").toString(), "--device", "jvm"}},
                {2, "--precision 'fp16'", new String[] {"gemm", "--m", "8", "--precision", "fp16"}},
                {2, "--precision 'fp32': permanent takes fp64", new String[] {"permanent", "--random", "6:0.5", "--precision", "fp32"}},
                {2, "--repeat 0", new String[] {"qr", "--m", "8", "--n", "4", "--repeat", "0"}},
                {2, "Unknown options: '--devices'", new String[] {"spmv", "--generate", "5pt:10x10", "--devices", "jvm"}},
                {2, "Unknown option: '-V'", new String[] {"h2", "--points", "2d", "--n", "100", "-V"}},
                {2, "Unmatched argument", new String[] {"nosuchcommand"}},
                {3, "no device opencl:7:7", new String[] {"svd", "--m", "8", "--n", "4", "--device", "opencl:7:7"}},
                {1, "FAILED", new String[] {"h2", "--points", "2d", "--n", "500", "--order", "2", "--leaf", "16", "--device", "jvm", "--repeat", "1", "--verify",
                        "--tolerance", "1e-14"}},
        };
        for (Object[] row : table) {
            String[] args = (String[]) row[2];
            CliRun r = CliRun.of(args);
            String what = String.join(" ", args) + "\n" + r;
            assertEquals((int) row[0], r.code(), what);
            assertTrue((r.out() + r.err()).contains((String) row[1]), what);
            assertFalse(r.stackTrace(), what);
            if (r.code() >= 2) assertEquals(1, r.err().strip().lines().filter(l -> l.startsWith("squall")).count(), "one error line: " + what);
            // the same with --json: the error is one JSON object on stdout too
            if (r.code() >= 2) {
                String[] withJson = Arrays.copyOf(args, args.length + 1);
                withJson[args.length] = "--json";
                CliRun j = CliRun.of(withJson);
                assertEquals(r.code(), j.code(), String.join(" ", withJson) + "\n" + j);
                var node = dev.squall.cli.JsonOutput.mapper().readTree(j.out().strip());
                assertEquals(r.code(), node.get("exit_code").asInt(), j.toString());
                assertFalse(node.get("error").asText().isEmpty(), j.toString());
            }
        }
    }
}
