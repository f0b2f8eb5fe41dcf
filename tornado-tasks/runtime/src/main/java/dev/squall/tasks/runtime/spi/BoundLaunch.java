package dev.squall.tasks.runtime.spi;

/** A kernel with bound arguments, ready to enqueue many times, on any queue of its device. */
public interface BoundLaunch {
    /**
     * Enqueues one launch on the device's default queue (asynchronous). {@code global} and {@code local}
     * have 1..3 entries of equal length; each global size is a multiple of the local size. For CUDA,
     * blocks = global / local.
     */
    void launch(long[] global, long[] local);

    /**
     * Enqueues one launch on {@code queue}, a queue of the same device (asynchronous); sizes as for
     * {@link #launch(long[], long[])}.
     */
    void launch(NativeQueue queue, long[] global, long[] local);

    /** Frees native memory held for the arguments. */
    void release();
}
