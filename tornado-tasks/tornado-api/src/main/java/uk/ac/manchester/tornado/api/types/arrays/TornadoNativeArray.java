package uk.ac.manchester.tornado.api.types.arrays;

import dev.squall.tasks.api.KernelArray;

import java.lang.foreign.MemorySegment;

/**
 * An off-heap array that kernels read and write, backed by a Squall array ({@link #squallArray()}), which the runtime
 * copies to and from devices. Kernels use {@code get}, {@code set} and {@code getSize}.
 */
public abstract sealed class TornadoNativeArray permits ByteArray, ShortArray, IntArray, LongArray, FloatArray, DoubleArray {
    TornadoNativeArray() {
    }

    /** The Squall array holding the elements (the same memory: writes through either are seen by both). */
    public abstract KernelArray squallArray();

    /** Number of elements. */
    public int getSize() {
        return squallArray().getSize();
    }

    /** The elements' memory. */
    public MemorySegment getSegment() {
        return squallArray().segment();
    }

    /** Bytes of data: {@code getSize() * getElementSize()}. */
    public long getNumBytesOfSegment() {
        return squallArray().byteSize();
    }

    /** Bytes of data (these arrays have no header). */
    public long getNumBytesWithoutHeader() {
        return squallArray().byteSize();
    }

    /** Size of one element in bytes. */
    public int getElementSize() {
        return squallArray().elementBytes();
    }

    /** Sets every element to zero. */
    public void clear() {
        squallArray().segment().fill((byte) 0);
    }

    @Override
    public String toString() {
        return squallArray().toString();
    }
}
