package dev.squall.tasks.runtime.spi;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.KernelRegistry;
import dev.squall.tasks.runtime.KernelSource;

import java.lang.foreign.MemorySegment;

/**
 * One device of a backend (OpenCL, CUDA, and the JVM, whose buffers are the host arrays themselves). All
 * commands go to one in-order queue (OpenCL command queue, CUDA stream), so launches and copies run in the order
 * issued. Methods may be called from any thread but not concurrently.
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

    /** Waits until every queued command has finished; reports asynchronous errors as DeviceException. */
    void synchronize();

    /** Records a timestamp in the queue (for kernel and transfer profiling). */
    DeviceEvent record();

    /** Releases the context or queue; buffers become invalid. */
    void close();
}
