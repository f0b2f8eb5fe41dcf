package dev.squall.cli;

/** Exit codes of every {@code squall} command, and the help text that lists them. */
public final class ExitCode {
    /** The command ran and every check it made passed. */
    public static final int OK = 0;
    /** {@code --verify} (or the command's own check) found a wrong result. */
    public static final int VERIFY_FAILED = 1;
    /** A user mistake: an option, value, file or line that cannot be used (named in the message). */
    public static final int BAD_INPUT = 2;
    /** A device failed or is absent (the driver's message is kept); GPU-only examples exit with it on GPU-less hosts. */
    public static final int DEVICE_ERROR = 3;
    /** A bug in Squall: short message, the stack trace only under {@code --debug}. */
    public static final int INTERNAL_ERROR = 4;
    /** A requested accuracy ({@code squall permanent --tol}) that no method in reach meets. */
    public static final int TOLERANCE_NOT_MET = 5;

    /** The help footer every command shows. */
    public static final String HELP = "Exit codes: 0 ok, 1 verification failed, 2 bad input (option, value, file and line named),"
            + " 3 device error or device absent, 4 internal error (stack trace with --debug), 5 tolerance not met (permanent --tol)."
            + " With --json an error is also one JSON object on stdout.";

    private ExitCode() {
    }

    /** The short name of a code, as the JSON error object's {@code error_kind}. */
    public static String kind(int code) {
        return switch (code) {
            case OK -> "ok";
            case VERIFY_FAILED -> "verification_failed";
            case BAD_INPUT -> "bad_input";
            case DEVICE_ERROR -> "device_error";
            case TOLERANCE_NOT_MET -> "tolerance_not_met";
            default -> "internal_error";
        };
    }
}
