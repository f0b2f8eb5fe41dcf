package uk.ac.manchester.tornado.api.exceptions;

/** Device memory could not hold the data; the message keeps the driver's. */
public class TornadoMemoryException extends RuntimeException {
    public TornadoMemoryException(String message, Throwable cause) {
        super(message, cause);
    }
}
