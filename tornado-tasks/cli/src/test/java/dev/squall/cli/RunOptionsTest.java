package dev.squall.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import static org.junit.jupiter.api.Assertions.*;

/** The mixin's per-command defaults, its checks, and the help it renders. */
class RunOptionsTest {
    @Command(name = "twenty")
    @RunDefaults(repeat = 20, precisions = {"fp64"})
    static final class Twenty implements SquallSubcommand {
        @Mixin
        RunOptions run;

        @Override
        public Integer call() {
            return 0;
        }
    }

    @Command(name = "plain")
    static final class Plain implements SquallSubcommand {
        @Mixin
        RunOptions run;

        @Override
        public Integer call() {
            return 0;
        }
    }

    @Test
    void defaultsComeFromTheCommandsAnnotation() {
        Twenty t = new Twenty();
        new CommandLine(t).parseArgs();
        assertEquals(20, t.run.repeat());
        assertEquals("fp64", t.run.precisionName());
        Plain p = new Plain();
        new CommandLine(p).parseArgs("--precision", "FP32", "--repeat", "3", "--device", "jvm", "--verify", "--json");
        assertEquals(3, p.run.repeat());
        assertEquals("fp32", p.run.precisionName());
        assertEquals("jvm", p.run.deviceId());
        assertTrue(p.run.verify() && p.run.json() && !p.run.debug());
        assertFalse(p.run.progress(), "no progress bars under --json");
    }

    @Test
    void helpShowsThisCommandsDefaults() {
        String help = new CommandLine(new Twenty()).getUsageMessage();
        assertTrue(help.contains("(default: 20)"), help);
        assertTrue(help.contains("(default: fp64)"), help);
        assertEquals(2, help.split("--device=D ", -1).length, "--device listed once: " + help);
    }

    @Test
    void badValuesNameTheOption() {
        assertBad(new Twenty(), "--precision 'fp32': twenty takes fp64", "--precision", "fp32");
        assertBad(new Plain(), "--repeat 0: must be at least 1", "--repeat", "0");
        assertBad(new Plain(), "--device '': empty device id", "--device", "");
        assertBad(new Plain(), "--device ' ': empty device id", "--device", " ");
    }

    private static void assertBad(Object command, String expected, String... args) {
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class, () -> new CommandLine(command).parseArgs(args));
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }
}
