package dev.squall.tasks.runtime.spi;

import java.lang.foreign.MemorySegment;

/**
 * An in-order queue of a device: a CUDA stream (non-blocking), an OpenCL command queue, or on the JVM a
 * runner thread that executes the queue's work in order.
 * Commands on one queue run in the order issued; commands on different queues of one device may
 * run at the same time and are ordered only through events: {@link #record()} on one queue,
 * {@link #waitFor} on another, which makes the device (not the host) wait.
 *
 * <pre>{@code
 * NativeQueue a = device.newQueue(), b = device.newQueue();
 * produce.launch(a, global, local);
 * DeviceEvent produced = a.record();
 * b.waitFor(produced);                    // returns at once; b's later commands start after produce
 * consume.launch(b, global, local);
 * b.synchronize();
 * }</pre>
 *
 * Any thread may call; calls on one queue are serialised by the queue.
 */
public interface NativeQueue {
    /** The device this queue belongs to. */
    NativeDevice device();

    /**
     * Copies {@code bytes} from host memory into {@code dst} at {@code dstOffset} after the commands issued
     * before; returns when they and the copy have finished, so the host memory may be reused.
     */
    void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes);

    /**
     * Sets {@code bytes} bytes of {@code dst} from {@code offset} to zero after the commands issued before; returns when
     * done (a memset on the device: nothing crosses from the host).
     */
    void zero(DeviceBuffer dst, long offset, long bytes);

    /** Copies {@code bytes} from {@code src} at {@code srcOffset} to host memory; returns when the data is in {@code dst}. */
    void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes);

    /**
     * Enqueues a copy from pinned host memory and returns at once. The host must not change
     * {@code src} until the queue has passed this point (an event recorded after it, or {@link #synchronize}).
     *
     * @throws dev.squall.tasks.runtime.DeviceException of kind BAD_ARGUMENT if {@code src} is not pinned memory
     *                                                  of this device ({@link NativeDevice#isPinned})
     */
    void copyToDeviceAsync(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes);

    /**
     * Enqueues a copy into pinned host memory and returns at once; the data is in {@code dst} once the
     * queue has passed this point.
     *
     * @throws dev.squall.tasks.runtime.DeviceException of kind BAD_ARGUMENT if {@code dst} is not pinned memory
     *                                                  of this device
     */
    void copyToHostAsync(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes);

    /** Records an event that completes when every command issued to this queue before it has finished. */
    DeviceEvent record();

    /**
     * Makes every command issued to this queue after this call wait, on the device, until {@code event}
     * has completed; returns at once. The event must come from a queue of the same device.
     */
    void waitFor(DeviceEvent event);

    /**
     * Makes every command issued to this queue after this call wait until {@code event}, an event of another
     * device, has completed, as observed by the host ({@link DeviceEvent#await()}). By default the calling
     * thread waits here and gets the failure the event reports; a queue whose commands run on host threads
     * (the JVM's) has its runner wait instead, returns at once, and runs the later commands in any case.
     */
    default void waitOnHost(DeviceEvent event) {
        event.await();
    }

    /** Waits until every command issued to this queue has finished; reports failures as DeviceException. */
    void synchronize();

    /**
     * Waits for the queue's commands, then frees it; later use is an error. Idempotent. The device's
     * default queue is released only with the device.
     */
    void release();
}
