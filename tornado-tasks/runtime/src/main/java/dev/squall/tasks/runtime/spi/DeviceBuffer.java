package dev.squall.tasks.runtime.spi;

/** Device memory owned by a {@link NativeDevice}. */
public interface DeviceBuffer {
    long byteSize();

    /** Frees the memory; later use is an error. Idempotent. */
    void release();
}
