package dev.squall.tasks.api;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An off-heap array that kernels read and write. The JVM backend works on its memory
 * directly; other backends copy it to and from device buffers without marshaling.
 * Memory is 64-byte aligned and freed when the array becomes unreachable; {@code pinned} factories
 * ({@link DoubleArray#pinned}, ...) place it in page-locked memory a device copies asynchronously.
 *
 * <p>A <em>device-only</em> array ({@link DoubleArray#onDevice}, ...) has no host memory: a device allocates its copy
 * zero-filled when a kernel first takes it, with nothing allocated, zeroed or copied on the host, so the outputs of one
 * graph feed the next without crossing. Copying it to the device is an error; copying it back to the host
 * ({@code transferToHost}, {@code ExecutionResult.transferToHost}) gives it host memory first
 * ({@link #attachHostMemory}); reading or writing it on the host before that throws {@link IllegalStateException}.
 * On the JVM, whose device memory is the host's, the device's copy is that host memory, attached at first use.
 *
 * <pre>{@code
 * DoubleArray tmp = DoubleArray.onDevice(n);            // lives on the device only
 * producer.task("p", Kernels::fill, tmp, n);            // graph 1 writes it
 * consumer.task("c", Kernels::sum, tmp, out, n)         // graph 2 reads it where it is
 *         .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
 * }</pre>
 */
public abstract sealed class KernelArray permits ByteArray, ShortArray, IntArray, LongArray, FloatArray, DoubleArray {
    /** Alignment of every array's memory: one cache line, and enough for any vector load. */
    public static final long ALIGNMENT = 64;

    /** The host memory; null for a device-only array until {@link #attachHostMemory}. */
    MemorySegment segment;
    private final long length;
    private final boolean deviceOnly;

    KernelArray(long length, int elementBytes) {
        if (length < 0) throw new IllegalArgumentException("array length must be >= 0, got " + length);
        this.length = length;
        this.deviceOnly = false;
        this.segment = Arena.ofAuto().allocate(Math.max(1, length) * elementBytes, ALIGNMENT);
    }

    /** A device-only array: no host memory until {@link #attachHostMemory}. */
    KernelArray(long length, int elementBytes, boolean deviceOnly) {
        if (length < 0) throw new IllegalArgumentException("array length must be >= 0, got " + length);
        if (!deviceOnly) throw new IllegalArgumentException("this constructor makes device-only arrays");
        this.length = length;
        this.deviceOnly = true;
        this.segment = null;
    }

    /** An array in memory from {@code allocator} (pinned host memory of a device). */
    KernelArray(long length, int elementBytes, PinnedAllocator allocator) {
        if (length < 0) throw new IllegalArgumentException("array length must be >= 0, got " + length);
        if (allocator == null) throw new IllegalArgumentException("pinned arrays need a device to allocate from, got null");
        this.length = length;
        this.deviceOnly = false;
        long bytes = Math.max(1, length) * elementBytes;
        MemorySegment s = allocator.allocatePinned(bytes);
        if (s.byteSize() < bytes || s.address() % ALIGNMENT != 0) {
            throw new IllegalStateException(allocator + " returned " + s.byteSize() + " bytes at 0x" + Long.toHexString(s.address())
                    + " for " + bytes + " bytes aligned to " + ALIGNMENT);
        }
        this.segment = s;
    }

    /**
     * The array's memory, {@code getSizeLong() * elementBytes()} bytes (at least one element allocated).
     *
     * @throws IllegalStateException for a device-only array without host memory
     */
    public final MemorySegment segment() {
        return host().asSlice(0, length * elementBytes());
    }

    /** Whether the array was made device-only ({@code onDevice}): a device allocates it without a host copy. */
    public final boolean isDeviceOnly() {
        return deviceOnly;
    }

    /** Whether the array has host memory: always, except a device-only array before {@link #attachHostMemory}. */
    public final synchronized boolean hasHostMemory() {
        return segment != null;
    }

    /**
     * Gives a device-only array zero-filled host memory if it has none, and returns the array's memory. The runtime
     * calls it to copy the array back to the host, and the JVM device, whose device memory is the host's, at first
     * use. Other arrays return their memory.
     */
    public final synchronized MemorySegment attachHostMemory() {
        if (segment == null) segment = Arena.ofAuto().allocate(Math.max(1, length) * elementBytes(), ALIGNMENT);
        return segment();
    }

    /** The host memory, or a clear error for a device-only array that has none. */
    final MemorySegment host() {
        MemorySegment s = segment;
        if (s == null) {
            synchronized (this) {
                s = segment;
            }
            if (s == null) throw hostless();
        }
        return s;
    }

    private IllegalStateException hostless() {
        String type = getClass().getSimpleName();
        return new IllegalStateException(type + "[" + length + "] is device-only (" + type + ".onDevice): it has no host memory to read or write;"
                + " copy it back with transferToHost (graph or ExecutionResult) first, or read it in a kernel");
    }

    /** Number of elements, when it fits an {@code int}. */
    public final int getSize() {
        if (length > Integer.MAX_VALUE) throw new IllegalStateException("array has " + length + " elements; use getSizeLong()");
        return (int) length;
    }

    /** Number of elements. */
    public final long getSizeLong() {
        return length;
    }

    /** Size of one element in bytes. */
    public abstract int elementBytes();

    /** Bytes of data held: {@code getSizeLong() * elementBytes()}. */
    public final long byteSize() {
        return length * elementBytes();
    }

    /** The element type's name as the kernel language spells it: int, long, float, double, byte, short. */
    public abstract String elementType();

    final void checkIndex(long i) {
        if (segment == null) host();
        if (i < 0 || i >= length) throw new IndexOutOfBoundsException("index " + i + " out of bounds for " + getClass().getSimpleName() + " of length " + length);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + length + "]" + (deviceOnly ? " (device-only)" : "");
    }
}
