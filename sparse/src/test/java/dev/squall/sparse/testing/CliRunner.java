package dev.squall.sparse.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import picocli.CommandLine;

/** Runs a picocli command as the squall launcher does (bad input -> exit 2) and captures what it printed. */
public final class CliRunner {
    private CliRunner() {
    }

    /** Returns {exit code (Integer), stdout (String), the message of an IllegalArgumentException (String)}. */
    public static Object[] run(Object command, String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder err = new StringBuilder();
        System.setOut(new PrintStream(out, true));
        try {
            CommandLine cl = new CommandLine(command);
            cl.setExecutionExceptionHandler((ex, cmd, parse) -> {
                if (ex instanceof IllegalArgumentException) {
                    err.append(ex.getMessage());
                    return 2;
                }
                throw ex;
            });
            cl.setExitCodeExceptionMapper(t -> 2);
            int code = cl.execute(args);
            return new Object[] {code, out.toString(), err.toString()};
        } finally {
            System.setOut(old);
        }
    }
}
