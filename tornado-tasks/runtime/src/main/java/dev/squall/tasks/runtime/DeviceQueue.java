package dev.squall.tasks.runtime;

import dev.squall.tasks.runtime.spi.NativeQueue;

/**
 * An in-order queue of a device: a CUDA stream, an OpenCL command queue, or on the JVM a runner that
 * executes its work in order. Work on one queue runs in the order issued; work on different queues of
 * a device may run at the same time (two kernels that each fill part of a GPU overlap), ordered only
 * by {@link Event}s. Each device has a {@link Device#defaultQueue() default queue}, which plans use
 * unless told otherwise; {@link Device#newQueue()} makes more.
 *
 * <pre>{@code
 * Device gpu = Devices.get("cuda:0");
 * try (DeviceQueue a = gpu.newQueue(); DeviceQueue b = gpu.newQueue()) {
 *     ExecutionHandle left = leftPlan.onQueue(a).executeAsync();     // these two run concurrently
 *     ExecutionHandle right = rightPlan.onQueue(b).executeAsync();
 *     b.waitFor(left.event());                                       // b's later work waits for left, on the device
 *     mergePlan.onQueue(b).execute();
 * }
 * }</pre>
 */
public final class DeviceQueue implements AutoCloseable {
    private final Device device;
    private final NativeQueue nativeQueue;
    private final boolean isDefault;
    private volatile boolean closed;

    DeviceQueue(Device device, NativeQueue nativeQueue, boolean isDefault) {
        this.device = device;
        this.nativeQueue = nativeQueue;
        this.isDefault = isDefault;
    }

    public Device device() {
        return device;
    }

    /** Whether this is the device's default queue (which {@link #close()} leaves open). */
    public boolean isDefault() {
        return isDefault;
    }

    /** An event that completes when everything issued to this queue so far has finished. */
    public Event record() {
        checkOpen();
        return new Event(device, nativeQueue.record());
    }

    /**
     * Makes work issued to this queue after this call wait until each event has completed; returns at
     * once. An event of this device is waited for by the device itself (cuStreamWaitEvent, an OpenCL
     * barrier with a wait list, a dependent future on the JVM). An event of another device is awaited on
     * the host: by the JVM queue's runner thread, or by the calling thread for a native queue.
     *
     * <pre>{@code
     * Event copied = uploadQueue.record();
     * computeQueue.waitFor(copied);
     * }</pre>
     */
    public DeviceQueue waitFor(Event... events) {
        checkOpen();
        for (Event e : events) {
            if (e == null) throw new IllegalArgumentException("waitFor: null event");
            if (e.device() == device) nativeQueue.waitFor(e.nativeEvent());
            else nativeQueue.waitOnHost(e.nativeEvent());
        }
        return this;
    }

    /** Blocks until everything issued to this queue has finished; failures of that work are reported as DeviceException. */
    public void synchronize() {
        checkOpen();
        nativeQueue.synchronize();
    }

    /** Waits for this queue's work, then frees it; later use is an error. The default queue stays open. */
    @Override
    public void close() {
        if (isDefault || closed) return;
        closed = true;
        nativeQueue.release();
    }

    /** Whether {@link #close()} was called (never for the default queue). */
    public boolean isClosed() {
        return closed;
    }

    void checkOpen() {
        if (closed) throw new IllegalStateException(this + " is closed");
    }

    NativeQueue nativeQueue() {
        return nativeQueue;
    }

    @Override
    public String toString() {
        return (isDefault ? "default queue" : "queue") + " of " + device.id();
    }
}
