package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.KernelSource;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.NativeDevice;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The JVM device: kernels run as Java on this process's threads ({@link JvmKernelRunner}). Its buffers are the host
 * arrays themselves, so copies between an array and its buffer are no-ops; its programs are the Java launchers the
 * compiler generated, or a run-time kernel's Java body. Its queues ({@link JvmQueue}) run kernels in order on runner
 * threads, so the work of two queues runs at the same time.
 */
final class JvmDevice implements NativeDevice {
    private final DeviceInfo info;
    private final JvmQueue defaultQueue = new JvmQueue(this);

    JvmDevice() {
        Runtime rt = Runtime.getRuntime();
        info = new DeviceInfo("jvm", "jvm", "JVM " + Runtime.version() + " (" + rt.availableProcessors() + " threads)",
                System.getProperty("java.vendor", "?"), Runtime.version().toString(), rt.maxMemory(),
                1L << 20, rt.availableProcessors(), 1024, 32, true, DeviceType.JVM, "");
    }

    @Override
    public DeviceInfo info() {
        return info;
    }

    /** Plain host memory (for allocations that belong to no array). */
    @Override
    public DeviceBuffer allocate(long bytes) {
        return new JvmBuffer(null, Arena.ofAuto().allocate(Math.max(1, bytes), KernelArray.ALIGNMENT));
    }

    /** The array's own memory (given to a device-only array here: the JVM's device memory is the host's). */
    @Override
    public DeviceBuffer allocate(KernelArray array) {
        return new JvmBuffer(array, array.attachHostMemory());
    }

    /** Runs work in order on a runner thread; created with the device. */
    @Override
    public NativeQueue defaultQueue() {
        return defaultQueue;
    }

    /** A queue with its own runner thread, so its work runs at the same time as other queues'. */
    @Override
    public NativeQueue newQueue() {
        return new JvmQueue(this);
    }

    /** Ordinary host memory: the JVM copies nothing, so nothing needs pinning (and {@link #isPinned} is false). */
    @Override
    public MemorySegment allocatePinned(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("allocatePinned on jvm: negative size " + bytes);
        return Arena.ofAuto().allocate(Math.max(1, bytes), KernelArray.ALIGNMENT).asSlice(0, bytes);
    }

    @Override
    public boolean isPinned(MemorySegment segment) {
        return false;
    }

    @Override
    public DeviceProgram build(String name, String source) {
        throw new UnsupportedOperationException("the jvm device runs kernels as Java; it does not build OpenCL C or CUDA C (program " + name + ")");
    }

    @Override
    public DeviceProgram program(Class<?> owner) {
        return JvmProgram.compiled(this, owner);
    }

    @Override
    public DeviceProgram build(KernelInfo kernel, KernelSource source) {
        KernelSource.JvmBody body = source.jvmBody()
                .orElseThrow(() -> NativeDevice.noCodeFor(kernel.name(), info, "Java body (KernelSource.withJvm)"));
        return JvmProgram.runtime(this, kernel, body);
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return info.id();
    }
}
