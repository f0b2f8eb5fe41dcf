package dev.squall.sparse.testing;

import java.lang.management.ManagementFactory;

/** Heap bytes the current thread has allocated, for tests that bound what a call allocates. */
public final class AllocatedBytes {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocatedBytes() {
    }

    /** Bytes allocated by this thread since it started (monotone; the difference of two calls is what ran between). */
    public static long ofCurrentThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
