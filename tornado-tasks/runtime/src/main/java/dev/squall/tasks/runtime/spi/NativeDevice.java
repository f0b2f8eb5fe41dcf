package dev.squall.tasks.runtime.spi;

import java.lang.foreign.MemorySegment;

/**
 * One device of a native backend. All commands go to one in-order queue (OpenCL command queue,
 * CUDA stream), so launches and copies run in the order issued. Methods may be called from
 * any thread but not concurrently.
 */
public interface NativeDevice {
    /** Identity and limits. */
    DeviceInfo info();

    /**
     * Allocates device memory.
     *
     * @throws dev.squall.tasks.runtime.DeviceException of kind OUT_OF_MEMORY naming the requested and available bytes
     */
    DeviceBuffer allocate(long bytes);

    /** Copies {@code bytes} from host memory into {@code dst} at {@code dstOffset}; returns when the host memory may be reused. */
    void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes);

    /** Copies {@code bytes} from {@code src} at {@code srcOffset} to host memory; returns when the data is in {@code dst}. */
    void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes);

    /**
     * Compiles a program (OpenCL C or CUDA C, per backend), using and filling the on-disk build
     * cache keyed by source hash and device.
     *
     * @param name   a name for logs and the cache, e.g. the owner class
     * @param source the program text
     * @throws dev.squall.tasks.runtime.KernelBuildException with the driver's log and the source
     */
    DeviceProgram build(String name, String source);

    /** Waits until every queued command has finished; reports asynchronous errors as DeviceException. */
    void synchronize();

    /** Records a timestamp in the queue (for kernel and transfer profiling). */
    DeviceEvent record();

    /** Releases the context or queue; buffers become invalid. */
    void close();
}
