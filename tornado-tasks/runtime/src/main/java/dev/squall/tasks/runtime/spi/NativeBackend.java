package dev.squall.tasks.runtime.spi;

import java.util.List;

/**
 * A device API reached through {@code java.lang.foreign} (OpenCL, CUDA). Implementations live in
 * {@code dev.squall.tasks.runtime.opencl} and {@code dev.squall.tasks.runtime.cuda}.
 */
public interface NativeBackend {
    /** "opencl" or "cuda". */
    String name();

    /**
     * Loads the driver library and lists its devices. Never crashes the JVM on a missing driver.
     *
     * @throws BackendUnavailableException with the reason (library not found, no platform, driver error text)
     */
    List<NativeDevice> discover() throws BackendUnavailableException;
}
