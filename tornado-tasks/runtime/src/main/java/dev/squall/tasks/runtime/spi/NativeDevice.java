package dev.squall.tasks.runtime.spi;

import java.lang.foreign.MemorySegment;

/**
 * One device of a native backend. Commands go to in-order queues ({@link NativeQueue}: CUDA streams,
 * OpenCL command queues): the {@link #defaultQueue()}, which the copy, synchronize and record
 * methods here use, and any number of further queues from {@link #newQueue()} whose commands may run
 * at the same time as the default queue's. Any thread may call.
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

    /** The queue the device's own methods use; created with the context on first use, released with the device. */
    NativeQueue defaultQueue();

    /**
     * A new in-order queue on the device's context (a non-blocking CUDA stream, an OpenCL command queue
     * with profiling). Release it with {@link NativeQueue#release()}; closing the device releases it too.
     */
    NativeQueue newQueue();

    /**
     * Allocates page-locked host memory that this device copies from and to asynchronously
     * ({@code cuMemHostAlloc} on CUDA; a mapped {@code CL_MEM_ALLOC_HOST_PTR} buffer on OpenCL): zeroed,
     * aligned to 64 bytes, freed when the returned segment becomes unreachable. It stays valid after
     * {@link #close()}.
     */
    MemorySegment allocatePinned(long bytes);

    /** Whether all of {@code segment} lies in memory from this device's {@link #allocatePinned}. */
    boolean isPinned(MemorySegment segment);

    /** Copies {@code bytes} from host memory into {@code dst} at {@code dstOffset} on the default queue; returns when the host memory may be reused. */
    default void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        defaultQueue().copyToDevice(src, dst, dstOffset, bytes);
    }

    /** Copies {@code bytes} from {@code src} at {@code srcOffset} to host memory on the default queue; returns when the data is in {@code dst}. */
    default void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        defaultQueue().copyToHost(src, srcOffset, dst, bytes);
    }

    /**
     * Compiles a program (OpenCL C or CUDA C, per backend), using and filling the on-disk build
     * cache keyed by source hash and device.
     *
     * @param name   a name for logs and the cache, e.g. the owner class
     * @param source the program text
     * @throws dev.squall.tasks.runtime.KernelBuildException with the driver's log and the source
     */
    DeviceProgram build(String name, String source);

    /** Waits until every command on the default queue has finished; reports asynchronous errors as DeviceException. */
    default void synchronize() {
        defaultQueue().synchronize();
    }

    /** Records a timestamp in the default queue (for kernel and transfer profiling). */
    default DeviceEvent record() {
        return defaultQueue().record();
    }

    /** Releases the queues and the context; buffers become invalid. */
    void close();
}
