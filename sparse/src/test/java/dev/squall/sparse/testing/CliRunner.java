package dev.squall.sparse.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import dev.squall.cli.Launcher;
import picocli.CommandLine;

/** Runs a command as the squall launcher does ({@link Launcher}: bad input exit 2, ...) and captures what it printed. */
public final class CliRunner {
    private CliRunner() {
    }

    /** Returns {exit code (Integer), stdout (String), the error line's message after "NAME: " (String, empty when none)}. */
    public static Object[] run(Object command, String... args) {
        PrintStream old = System.out, oldErr = System.err;
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder err = new StringBuilder();
        System.setOut(new PrintStream(out, true));
        try {
            System.setErr(new PrintStream(errBytes, true));
            int code = Launcher.execute(Launcher.configure(new CommandLine(command)), args);
            String line = errBytes.toString().lines().filter(l -> l.startsWith(Launcher.name(command) + ": ")).reduce((x, y) -> y).orElse("");
            err.append(line.isEmpty() ? "" : line.substring(Launcher.name(command).length() + 2));
            return new Object[] {code, out.toString(), err.toString()};
        } finally {
            System.setOut(old);
            System.setErr(oldErr);
        }
    }
}
