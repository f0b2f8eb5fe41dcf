package dev.squall.tasks.runtime;

import dev.squall.tasks.runtime.spi.DeviceEvent;

import java.lang.ref.Cleaner;

/**
 * A point in a {@link DeviceQueue}: it completes when everything issued to that queue before it has
 * finished. Work on another queue waits for it on the device, without blocking the host, through
 * {@link DeviceQueue#waitFor} or {@link ExecutionPlan#after}; the host waits through {@link #await()}.
 *
 * <pre>{@code
 * DeviceQueue a = gpu.newQueue(), b = gpu.newQueue();
 * ExecutionHandle produced = producer.onQueue(a).executeAsync();
 * consumer.onQueue(b).after(produced.event()).executeAsync().await();   // consumer starts after producer
 * }</pre>
 *
 * The native event is released when this object becomes unreachable.
 */
public final class Event {
    private static final Cleaner CLEANER = Cleaner.create();

    private final Device device;
    private final DeviceEvent nativeEvent;

    Event(Device device, DeviceEvent nativeEvent) {
        this.device = device;
        this.nativeEvent = nativeEvent;
        DeviceEvent handle = nativeEvent; // the cleaning action must not reach this object
        CLEANER.register(this, () -> releaseQuietly(handle));
    }

    /** Releases {@code events} once {@code owner} is unreachable, unless released before (release is idempotent). */
    static void releaseWhenUnreachable(Object owner, DeviceEvent... events) {
        DeviceEvent[] held = events.clone();
        CLEANER.register(owner, () -> {
            for (DeviceEvent e : held) if (e != null) releaseQuietly(e);
        });
    }

    private static void releaseQuietly(DeviceEvent e) {
        try {
            e.release();
        } catch (RuntimeException ignored) {
            // the device was closed or failed: its events went with it
        }
    }

    /** The device whose queue recorded this event. */
    public Device device() {
        return device;
    }

    /**
     * Blocks until the event has completed.
     *
     * @throws DeviceException with the driver's message when a command before the event failed in a way the
     *                         driver reports to events (CUDA's sticky errors, a failed OpenCL command)
     */
    public void await() {
        nativeEvent.await();
    }

    /** Whether the event has completed; does not block. */
    public boolean isDone() {
        return nativeEvent.isComplete();
    }

    DeviceEvent nativeEvent() {
        return nativeEvent;
    }

    @Override
    public String toString() {
        return "event on " + device.id();
    }
}
