package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.spi.DeviceBuffer;

import java.lang.foreign.MemorySegment;

/**
 * A "device buffer" of the JVM device: the host array itself (kernels read and write its memory directly), or
 * plain host memory for an allocation that belongs to no array.
 *
 * @param array   the array whose memory this is; null for a plain allocation
 * @param segment the memory
 */
record JvmBuffer(KernelArray array, MemorySegment segment) implements DeviceBuffer {
    @Override
    public long byteSize() {
        return segment.byteSize();
    }

    /** Nothing to free: the memory belongs to the array, or to an automatic arena. */
    @Override
    public void release() {
    }
}
