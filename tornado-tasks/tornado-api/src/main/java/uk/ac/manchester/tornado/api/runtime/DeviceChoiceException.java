package uk.ac.manchester.tornado.api.runtime;

import uk.ac.manchester.tornado.api.exceptions.TornadoRuntimeException;

/**
 * A device property ({@code -Ds0.device=B:D}, {@code -Ds0.t0.device=B:D}) that names no device of
 * {@code tornado --devices}. It is a {@link TornadoRuntimeException}, as in TornadoVM, so programs that catch those
 * still do; the {@code tornado} launcher reports an uncaught one as bad input (exit code 2), without a stack trace.
 */
public final class DeviceChoiceException extends TornadoRuntimeException {
    public DeviceChoiceException(String message) {
        super(message);
    }
}
