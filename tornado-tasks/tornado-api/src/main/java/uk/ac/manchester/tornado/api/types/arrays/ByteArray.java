package uk.ac.manchester.tornado.api.types.arrays;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Off-heap array of {@code byte} for kernels ({@code get}, {@code set}, {@code getSize}), on a Squall {@code ByteArray}. */
public final class ByteArray extends TornadoNativeArray {
    private final dev.squall.tasks.api.ByteArray array;

    /** A zero-filled array of {@code numberOfElements} elements. */
    public ByteArray(int numberOfElements) {
        this(new dev.squall.tasks.api.ByteArray(numberOfElements));
    }

    private ByteArray(dev.squall.tasks.api.ByteArray array) {
        this.array = array;
    }

    /** The TornadoVM array on {@code array}'s memory (no copy). */
    public static ByteArray of(dev.squall.tasks.api.ByteArray array) {
        return new ByteArray(array);
    }

    /** A new array holding a copy of {@code values}. */
    public static ByteArray fromArray(byte[] values) {
        return new ByteArray(dev.squall.tasks.api.ByteArray.fromArray(values));
    }

    /** A new array holding {@code values}. */
    public static ByteArray fromElements(byte... values) {
        return fromArray(values);
    }

    /** A new array holding a copy of the elements in {@code segment}. */
    public static ByteArray fromSegment(MemorySegment segment) {
        return fromArray(segment.toArray(ValueLayout.JAVA_BYTE));
    }

    @Override
    public dev.squall.tasks.api.ByteArray squallArray() {
        return array;
    }

    public byte get(int index) {
        return array.get(index);
    }

    public void set(int index, byte value) {
        array.set(index, value);
    }

    /** Sets every element to {@code value}. */
    public void init(byte value) {
        array.init(value);
    }

    /** A heap copy of the elements. */
    public byte[] toHeapArray() {
        return array.toHeapArray();
    }
}
