package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.KernelSource;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceEvent;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The JVM device: kernels run as Java on this process's threads ({@link JvmKernelRunner}). Its buffers are the host
 * arrays themselves, so copies between an array and its buffer are no-ops; its programs are the Java launchers the
 * compiler generated, or a run-time kernel's Java body. Every command finishes before it returns.
 */
final class JvmDevice implements NativeDevice {
    private final DeviceInfo info;

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

    /** The array's own memory. */
    @Override
    public DeviceBuffer allocate(KernelArray array) {
        return new JvmBuffer(array, array.segment());
    }

    @Override
    public void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        MemorySegment d = ((JvmBuffer) dst).segment();
        if (!sameMemory(src, d, dstOffset)) MemorySegment.copy(src, 0, d, dstOffset, bytes);
    }

    @Override
    public void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        MemorySegment s = ((JvmBuffer) src).segment();
        if (!sameMemory(dst, s, srcOffset)) MemorySegment.copy(s, srcOffset, dst, 0, bytes);
    }

    /** Whether {@code host} starts where {@code buffer} does at {@code offset} (an array and its own buffer). */
    private static boolean sameMemory(MemorySegment host, MemorySegment buffer, long offset) {
        return host.isNative() && buffer.isNative() && host.address() == buffer.address() + offset;
    }

    @Override
    public DeviceProgram build(String name, String source) {
        throw new UnsupportedOperationException("the jvm device runs kernels as Java; it does not build OpenCL C or CUDA C (program " + name + ")");
    }

    @Override
    public DeviceProgram program(Class<?> owner) {
        return JvmProgram.compiled(owner);
    }

    @Override
    public DeviceProgram build(KernelInfo kernel, KernelSource source) {
        KernelSource.JvmBody body = source.jvmBody()
                .orElseThrow(() -> NativeDevice.noCodeFor(kernel.name(), info, "Java body (KernelSource.withJvm)"));
        return JvmProgram.runtime(kernel, body);
    }

    @Override
    public void synchronize() {
    }

    @Override
    public DeviceEvent record() {
        return new JvmEvent(System.nanoTime());
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return info.id();
    }
}
