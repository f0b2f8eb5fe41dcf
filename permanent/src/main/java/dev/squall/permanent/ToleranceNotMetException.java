package dev.squall.permanent;

/** No method in reach met the requested relative tolerance: the message says what was tried and what each achieved. */
public final class ToleranceNotMetException extends RuntimeException {
    public ToleranceNotMetException(String message) {
        super(message);
    }
}
