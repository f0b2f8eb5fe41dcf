package dev.squall.tasks.runtime.spi;

/** A kernel with bound arguments, ready to enqueue many times. */
public interface BoundLaunch {
    /**
     * Enqueues one launch (asynchronous). {@code global} and {@code local} have 1..3 entries of
     * equal length; each global size is a multiple of the local size. For CUDA, blocks = global / local.
     */
    void launch(long[] global, long[] local);

    /** Frees native memory held for the arguments. */
    void release();
}
