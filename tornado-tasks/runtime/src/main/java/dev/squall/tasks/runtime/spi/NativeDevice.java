package dev.squall.tasks.runtime.spi;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.KernelRegistry;
import dev.squall.tasks.runtime.KernelSource;

import java.lang.foreign.MemorySegment;

/**
 * One device of a backend (OpenCL, CUDA, and the JVM, whose buffers are the host arrays themselves). Commands go
 * to in-order queues ({@link NativeQueue}: CUDA streams, OpenCL command queues, runner threads on the JVM): the
 * {@link #defaultQueue()}, which the copy, synchronize and record methods here use, and any number of further
 * queues from {@link #newQueue()} whose commands may run at the same time as the default queue's. Any thread may
 * call.
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

    /**
     * The device copy of a host array: its size (at least one element) allocated on the device. The JVM backend
     * returns a buffer over the array's own memory, so that copies between the two are no-ops.
     */
    default DeviceBuffer allocate(KernelArray array) {
        return allocate(Math.max(array.byteSize(), array.elementBytes()));
    }

    /** The queue the device's own methods use; created with the context on first use, released with the device. */
    NativeQueue defaultQueue();

    /**
     * A new in-order queue on the device's context (a non-blocking CUDA stream, an OpenCL command queue
     * with profiling, a runner thread on the JVM). Release it with {@link NativeQueue#release()}; closing the
     * device releases it too.
     */
    NativeQueue newQueue();

    /**
     * As {@link #newQueue()}, but the device starts this queue's work ahead of other queues' pending work where it
     * can (a CUDA stream of the greatest priority: its thread blocks are dispatched before those still waiting of
     * lower-priority kernels). Devices without queue priorities return an ordinary queue.
     */
    default NativeQueue newPriorityQueue() {
        return newQueue();
    }

    /**
     * Allocates page-locked host memory that this device copies from and to asynchronously
     * ({@code cuMemHostAlloc} on CUDA; a mapped {@code CL_MEM_ALLOC_HOST_PTR} buffer on OpenCL; ordinary memory,
     * which it never calls pinned, on the JVM, whose buffers are the host arrays themselves): zeroed,
     * aligned to 64 bytes, freed when the returned segment becomes unreachable. It stays valid after
     * {@link #close()}.
     */
    MemorySegment allocatePinned(long bytes);

    /** Whether all of {@code segment} lies in memory from this device's {@link #allocatePinned}. */
    boolean isPinned(MemorySegment segment);

    /** Sets the first {@code bytes} of {@code dst} to zero on the default queue; returns when done. */
    default void zero(DeviceBuffer dst, long bytes) {
        defaultQueue().zero(dst, 0, bytes);
    }

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

    /**
     * The program of the compiled kernels of {@code owner} (a class with {@code @Kernel} methods): the OpenCL C or
     * CUDA C the annotation processor generated for this backend, built as by {@link #build(String, String)}. The JVM
     * backend runs the generated Java launcher instead.
     */
    default DeviceProgram program(Class<?> owner) {
        return build(owner.getName(), KernelRegistry.source(owner, info().backend()));
    }

    /**
     * A program holding one kernel compiled from source at run time: this backend's text from {@code source}, built as
     * by {@link #build(String, String)} (same cache, same build errors). The JVM backend wraps the source's Java body.
     *
     * @param kernel what the kernel takes, with the kernel's name in the source
     * @throws IllegalArgumentException naming the kernel and device when {@code source} has nothing for this backend
     */
    default DeviceProgram build(KernelInfo kernel, KernelSource source) {
        String text = source.text(info().backend())
                .orElseThrow(() -> noCodeFor(kernel.name(), info(), (info().backend().equals("cuda") ? "CUDA C" : "OpenCL C") + " source"));
        return build(kernel.name(), text);
    }

    /** The error for a run-time kernel whose {@link KernelSource} has nothing ({@code what}) for this device's backend. */
    static IllegalArgumentException noCodeFor(String kernel, DeviceInfo device, String what) {
        return new IllegalArgumentException("runtime kernel " + kernel + " cannot run on " + device.id() + " (" + device.name()
                + "): its KernelSource has no " + what + " for the " + device.backend() + " backend");
    }

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
