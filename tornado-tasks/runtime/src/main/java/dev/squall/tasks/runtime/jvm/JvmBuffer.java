package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.spi.DeviceBuffer;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;

/**
 * A "device buffer" of the JVM device: the host array itself (kernels read and write its memory directly), or
 * plain host memory for an allocation that belongs to no array. The array is held weakly: the device keeps its
 * buffers in a map keyed weakly by array, which a strong reference from the value would keep alive forever.
 */
final class JvmBuffer implements DeviceBuffer {
    private final WeakReference<KernelArray> array;
    private final MemorySegment segment;

    /** @param array the array whose memory this is; null for a plain allocation */
    JvmBuffer(KernelArray array, MemorySegment segment) {
        this.array = array == null ? null : new WeakReference<>(array);
        this.segment = segment;
    }

    /** The array; null for a plain allocation (or once the array is gone, when nothing can launch with it). */
    KernelArray array() {
        return array == null ? null : array.get();
    }

    MemorySegment segment() {
        return segment;
    }

    @Override
    public long byteSize() {
        return segment.byteSize();
    }

    /** Nothing to free: the memory belongs to the array, or to an automatic arena. */
    @Override
    public void release() {
    }
}
