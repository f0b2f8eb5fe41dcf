package uk.ac.manchester.tornado.api.exceptions;

/**
 * TornadoVM's error for code its JIT cannot compile. Squall translates kernels when the program is built, so code outside
 * the kernel language is a javac error instead; this is thrown only when a kernel was not translated (the class was
 * built without squall-compiler as an annotation processor).
 */
public class TornadoBailoutRuntimeException extends RuntimeException {
    public TornadoBailoutRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
