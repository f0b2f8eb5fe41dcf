package uk.ac.manchester.tornado.api.types.arrays;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Off-heap array of {@code float} for kernels ({@code get}, {@code set}, {@code getSize}), on a Squall {@code FloatArray}. */
public final class FloatArray extends TornadoNativeArray {
    private final dev.squall.tasks.api.FloatArray array;

    /** A zero-filled array of {@code numberOfElements} elements. */
    public FloatArray(int numberOfElements) {
        this(new dev.squall.tasks.api.FloatArray(numberOfElements));
    }

    private FloatArray(dev.squall.tasks.api.FloatArray array) {
        this.array = array;
    }

    /** The TornadoVM array on {@code array}'s memory (no copy). */
    public static FloatArray of(dev.squall.tasks.api.FloatArray array) {
        return new FloatArray(array);
    }

    /** A new array holding a copy of {@code values}. */
    public static FloatArray fromArray(float[] values) {
        return new FloatArray(dev.squall.tasks.api.FloatArray.fromArray(values));
    }

    /** A new array holding {@code values}. */
    public static FloatArray fromElements(float... values) {
        return fromArray(values);
    }

    /** A new array holding a copy of the elements in {@code segment}. */
    public static FloatArray fromSegment(MemorySegment segment) {
        return fromArray(segment.toArray(ValueLayout.JAVA_FLOAT));
    }

    @Override
    public dev.squall.tasks.api.FloatArray squallArray() {
        return array;
    }

    public float get(int index) {
        return array.get(index);
    }

    public void set(int index, float value) {
        array.set(index, value);
    }

    /** Sets every element to {@code value}. */
    public void init(float value) {
        array.init(value);
    }

    /** A heap copy of the elements. */
    public float[] toHeapArray() {
        return array.toHeapArray();
    }
}
