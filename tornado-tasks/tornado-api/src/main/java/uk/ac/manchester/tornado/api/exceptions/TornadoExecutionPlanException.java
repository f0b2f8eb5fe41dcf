package uk.ac.manchester.tornado.api.exceptions;

/** Thrown by {@code TornadoExecutionPlan.close()} when releasing device memory fails. */
public class TornadoExecutionPlanException extends Exception {
    public TornadoExecutionPlanException(String message, Throwable cause) {
        super(message, cause);
    }
}
