package dev.squall.tasks.api;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An off-heap array that kernels read and write. The JVM backend works on its memory
 * directly; other backends copy it to and from device buffers without marshaling.
 * Memory is 64-byte aligned and freed when the array becomes unreachable; {@code pinned} factories
 * ({@link DoubleArray#pinned}, ...) place it in page-locked memory a device copies asynchronously.
 */
public abstract sealed class KernelArray permits ByteArray, ShortArray, IntArray, LongArray, FloatArray, DoubleArray {
    /** Alignment of every array's memory: one cache line, and enough for any vector load. */
    public static final long ALIGNMENT = 64;

    final MemorySegment segment;
    private final long length;

    KernelArray(long length, int elementBytes) {
        if (length < 0) throw new IllegalArgumentException("array length must be >= 0, got " + length);
        this.length = length;
        this.segment = Arena.ofAuto().allocate(Math.max(1, length) * elementBytes, ALIGNMENT);
    }

    /** An array in memory from {@code allocator} (pinned host memory of a device). */
    KernelArray(long length, int elementBytes, PinnedAllocator allocator) {
        if (length < 0) throw new IllegalArgumentException("array length must be >= 0, got " + length);
        if (allocator == null) throw new IllegalArgumentException("pinned arrays need a device to allocate from, got null");
        this.length = length;
        long bytes = Math.max(1, length) * elementBytes;
        MemorySegment s = allocator.allocatePinned(bytes);
        if (s.byteSize() < bytes || s.address() % ALIGNMENT != 0) {
            throw new IllegalStateException(allocator + " returned " + s.byteSize() + " bytes at 0x" + Long.toHexString(s.address())
                    + " for " + bytes + " bytes aligned to " + ALIGNMENT);
        }
        this.segment = s;
    }

    /** The array's memory, {@code getSizeLong() * elementBytes()} bytes (at least one element allocated). */
    public final MemorySegment segment() {
        return segment.asSlice(0, length * elementBytes());
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
        if (i < 0 || i >= length) throw new IndexOutOfBoundsException("index " + i + " out of bounds for " + getClass().getSimpleName() + " of length " + length);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + length + "]";
    }
}
