package dev.squall.cli;

/**
 * A failure a command reports with its own exit code and message (for example the permanent's tolerance not met,
 * exit 5); {@link Launcher} prints the message as the one error line and, with {@code --json}, as the JSON error.
 */
public class CommandFailure extends RuntimeException {
    private final int exitCode;

    public CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CommandFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
