package uk.ac.manchester.tornado.api.types.arrays;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Off-heap array of {@code int} for kernels ({@code get}, {@code set}, {@code getSize}), on a Squall {@code IntArray}. */
public final class IntArray extends TornadoNativeArray {
    private final dev.squall.tasks.api.IntArray array;

    /** A zero-filled array of {@code numberOfElements} elements. */
    public IntArray(int numberOfElements) {
        this(new dev.squall.tasks.api.IntArray(numberOfElements));
    }

    private IntArray(dev.squall.tasks.api.IntArray array) {
        this.array = array;
    }

    /** The TornadoVM array on {@code array}'s memory (no copy). */
    public static IntArray of(dev.squall.tasks.api.IntArray array) {
        return new IntArray(array);
    }

    /** A new array holding a copy of {@code values}. */
    public static IntArray fromArray(int[] values) {
        return new IntArray(dev.squall.tasks.api.IntArray.fromArray(values));
    }

    /** A new array holding {@code values}. */
    public static IntArray fromElements(int... values) {
        return fromArray(values);
    }

    /** A new array holding a copy of the elements in {@code segment}. */
    public static IntArray fromSegment(MemorySegment segment) {
        return fromArray(segment.toArray(ValueLayout.JAVA_INT));
    }

    @Override
    public dev.squall.tasks.api.IntArray squallArray() {
        return array;
    }

    public int get(int index) {
        return array.get(index);
    }

    public void set(int index, int value) {
        array.set(index, value);
    }

    /** Sets every element to {@code value}. */
    public void init(int value) {
        array.init(value);
    }

    /** A heap copy of the elements. */
    public int[] toHeapArray() {
        return array.toHeapArray();
    }
}
