package dev.squall.tasks.runtime;

/**
 * A device failed: no driver, a driver call returned an error, out of memory, an argument
 * rejected before launch. The message carries the driver's own error name and text.
 */
public class DeviceException extends RuntimeException {
    /** What went wrong, for callers that react differently (the CLI's exit code 3, tests). */
    public enum Kind { DRIVER_ERROR, OUT_OF_MEMORY, BAD_ARGUMENT, NOT_FOUND, UNAVAILABLE }

    private final Kind kind;

    public DeviceException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public DeviceException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
