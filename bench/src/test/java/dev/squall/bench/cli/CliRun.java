package dev.squall.bench.cli;

import dev.squall.cli.Launcher;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs {@code squall ARGS} in this JVM as the launcher does, capturing stdout and stderr. */
record CliRun(int code, String out, String err) {
    /** The repository root (tests run in bench/): example file paths are relative to it. */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    static synchronized CliRun of(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            String[] resolved = args.clone();
            for (int i = 0; i < resolved.length; i++) {
                if (resolved[i].startsWith("bench/data/") && Files.exists(ROOT.resolve(resolved[i]))) resolved[i] = ROOT.resolve(resolved[i]).toString();
            }
            int code = Launcher.execute(SquallCommand.commandLine(), resolved);
            return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** Whether a Java stack trace reached stderr. */
    boolean stackTrace() {
        return err.contains("\tat ") || err.contains("Exception in thread") || err.matches("(?s).*\\n\\s+at [a-z].*");
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
