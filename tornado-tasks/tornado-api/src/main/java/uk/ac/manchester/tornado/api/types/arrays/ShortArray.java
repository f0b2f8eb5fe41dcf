package uk.ac.manchester.tornado.api.types.arrays;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Off-heap array of {@code short} for kernels ({@code get}, {@code set}, {@code getSize}), on a Squall {@code ShortArray}. */
public final class ShortArray extends TornadoNativeArray {
    private final dev.squall.tasks.api.ShortArray array;

    /** A zero-filled array of {@code numberOfElements} elements. */
    public ShortArray(int numberOfElements) {
        this(new dev.squall.tasks.api.ShortArray(numberOfElements));
    }

    private ShortArray(dev.squall.tasks.api.ShortArray array) {
        this.array = array;
    }

    /** The TornadoVM array on {@code array}'s memory (no copy). */
    public static ShortArray of(dev.squall.tasks.api.ShortArray array) {
        return new ShortArray(array);
    }

    /** A new array holding a copy of {@code values}. */
    public static ShortArray fromArray(short[] values) {
        return new ShortArray(dev.squall.tasks.api.ShortArray.fromArray(values));
    }

    /** A new array holding {@code values}. */
    public static ShortArray fromElements(short... values) {
        return fromArray(values);
    }

    /** A new array holding a copy of the elements in {@code segment}. */
    public static ShortArray fromSegment(MemorySegment segment) {
        return fromArray(segment.toArray(ValueLayout.JAVA_SHORT));
    }

    @Override
    public dev.squall.tasks.api.ShortArray squallArray() {
        return array;
    }

    public short get(int index) {
        return array.get(index);
    }

    public void set(int index, short value) {
        array.set(index, value);
    }

    /** Sets every element to {@code value}. */
    public void init(short value) {
        array.init(value);
    }

    /** A heap copy of the elements. */
    public short[] toHeapArray() {
        return array.toHeapArray();
    }
}
