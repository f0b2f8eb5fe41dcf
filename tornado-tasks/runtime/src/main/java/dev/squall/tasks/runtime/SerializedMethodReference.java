package dev.squall.tasks.runtime;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;

/**
 * The {@link SerializedLambda} of a serialisable method reference such as {@code Kernels::saxpy}: its implementation
 * class and method. It is obtained by serialising the reference into nothing (serialisation calls the lambda's
 * private {@code writeReplace} on its own authority), so the caller's package need not be open to the reader.
 */
public final class SerializedMethodReference {
    private SerializedMethodReference() {
    }

    /**
     * The serialised form of {@code methodReference}.
     *
     * @throws IllegalArgumentException if it is not a serialisable lambda or method reference
     */
    public static SerializedLambda of(Serializable methodReference) {
        try (Capture out = new Capture()) {
            out.writeObject(methodReference);
        } catch (Captured found) {
            return found.lambda;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("a task's kernel must be a method reference such as Kernels::saxpy, got "
                    + methodReference.getClass().getName(), e);
        }
        throw new IllegalArgumentException("a task's kernel must be a method reference such as Kernels::saxpy, got "
                + methodReference.getClass().getName());
    }

    /** Serialises into nothing, stopping at the first {@link SerializedLambda} (what a lambda's writeReplace returns). */
    private static final class Capture extends ObjectOutputStream {
        Capture() throws IOException {
            super(OutputStream.nullOutputStream());
            enableReplaceObject(true);
        }

        @Override
        protected Object replaceObject(Object obj) throws IOException {
            if (obj instanceof SerializedLambda sl) throw new Captured(sl);
            return obj;
        }
    }

    /** Carries the captured form out of the stream. */
    private static final class Captured extends IOException {
        final transient SerializedLambda lambda;

        Captured(SerializedLambda lambda) {
            super("found " + lambda.getImplMethodName());
            this.lambda = lambda;
        }
    }
}
