package uk.ac.manchester.tornado.api.types.arrays;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Off-heap array of {@code long} for kernels ({@code get}, {@code set}, {@code getSize}), on a Squall {@code LongArray}. */
public final class LongArray extends TornadoNativeArray {
    private final dev.squall.tasks.api.LongArray array;

    /** A zero-filled array of {@code numberOfElements} elements. */
    public LongArray(int numberOfElements) {
        this(new dev.squall.tasks.api.LongArray(numberOfElements));
    }

    private LongArray(dev.squall.tasks.api.LongArray array) {
        this.array = array;
    }

    /** The TornadoVM array on {@code array}'s memory (no copy). */
    public static LongArray of(dev.squall.tasks.api.LongArray array) {
        return new LongArray(array);
    }

    /** A new array holding a copy of {@code values}. */
    public static LongArray fromArray(long[] values) {
        return new LongArray(dev.squall.tasks.api.LongArray.fromArray(values));
    }

    /** A new array holding {@code values}. */
    public static LongArray fromElements(long... values) {
        return fromArray(values);
    }

    /** A new array holding a copy of the elements in {@code segment}. */
    public static LongArray fromSegment(MemorySegment segment) {
        return fromArray(segment.toArray(ValueLayout.JAVA_LONG));
    }

    @Override
    public dev.squall.tasks.api.LongArray squallArray() {
        return array;
    }

    public long get(int index) {
        return array.get(index);
    }

    public void set(int index, long value) {
        array.set(index, value);
    }

    /** Sets every element to {@code value}. */
    public void init(long value) {
        array.init(value);
    }

    /** A heap copy of the elements. */
    public long[] toHeapArray() {
        return array.toHeapArray();
    }
}
