package dev.squall.tasks.runtime.spi;

/** A backend cannot be used on this machine; the message says why (library not found, no platform, ...). */
public class BackendUnavailableException extends Exception {
    public BackendUnavailableException(String message) {
        super(message);
    }

    public BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
