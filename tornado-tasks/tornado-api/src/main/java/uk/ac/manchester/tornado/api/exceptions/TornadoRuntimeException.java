package uk.ac.manchester.tornado.api.exceptions;

/** A task graph or plan that cannot run as given (bad arguments, unknown device); the message says what is wrong. */
public class TornadoRuntimeException extends RuntimeException {
    public TornadoRuntimeException(String message) {
        super(message);
    }

    public TornadoRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
