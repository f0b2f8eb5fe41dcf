package uk.ac.manchester.tornado.api.types.arrays;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Off-heap array of {@code double} for kernels ({@code get}, {@code set}, {@code getSize}), on a Squall {@code DoubleArray}. */
public final class DoubleArray extends TornadoNativeArray {
    private final dev.squall.tasks.api.DoubleArray array;

    /** A zero-filled array of {@code numberOfElements} elements. */
    public DoubleArray(int numberOfElements) {
        this(new dev.squall.tasks.api.DoubleArray(numberOfElements));
    }

    private DoubleArray(dev.squall.tasks.api.DoubleArray array) {
        this.array = array;
    }

    /** The TornadoVM array on {@code array}'s memory (no copy). */
    public static DoubleArray of(dev.squall.tasks.api.DoubleArray array) {
        return new DoubleArray(array);
    }

    /** A new array holding a copy of {@code values}. */
    public static DoubleArray fromArray(double[] values) {
        return new DoubleArray(dev.squall.tasks.api.DoubleArray.fromArray(values));
    }

    /** A new array holding {@code values}. */
    public static DoubleArray fromElements(double... values) {
        return fromArray(values);
    }

    /** A new array holding a copy of the elements in {@code segment}. */
    public static DoubleArray fromSegment(MemorySegment segment) {
        return fromArray(segment.toArray(ValueLayout.JAVA_DOUBLE));
    }

    @Override
    public dev.squall.tasks.api.DoubleArray squallArray() {
        return array;
    }

    public double get(int index) {
        return array.get(index);
    }

    public void set(int index, double value) {
        array.set(index, value);
    }

    /** Sets every element to {@code value}. */
    public void init(double value) {
        array.init(value);
    }

    /** A heap copy of the elements. */
    public double[] toHeapArray() {
        return array.toHeapArray();
    }
}
