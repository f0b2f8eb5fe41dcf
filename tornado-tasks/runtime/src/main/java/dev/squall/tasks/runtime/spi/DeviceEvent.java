package dev.squall.tasks.runtime.spi;

/**
 * A point in a device queue ({@link NativeQueue#record()}): it completes when every command issued to
 * that queue before it has finished. Other queues wait for it on the device through
 * {@link NativeQueue#waitFor}; the host waits through {@link #await()}.
 */
public interface DeviceEvent {
    /** Milliseconds from {@code earlier} to this event, measured by the device; both must have completed. */
    double millisSince(DeviceEvent earlier);

    /** Blocks the calling thread until the event has completed; reports a failed command before it as DeviceException. */
    void await();

    /** Whether the event has completed (does not block). */
    boolean isComplete();

    /** Frees the event; queues already waiting for it are unaffected. Idempotent. */
    void release();
}
