package dev.squall.tasks.runtime.spi;

/** A point in a device queue; valid to read after the device has been synchronized. */
public interface DeviceEvent {
    /** Milliseconds from {@code earlier} to this event, measured by the device. */
    double millisSince(DeviceEvent earlier);

    void release();
}
