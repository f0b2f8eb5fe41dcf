package dev.squall.tasks.api;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Off-heap array of {@code float} for kernels.
 *
 * <pre>{@code
 * FloatArray a = FloatArray.fromArray(new float[] {1, 2, 3});
 * a.set(0, (float) 7);
 * float first = a.get(0);
 * }</pre>
 */
public final class FloatArray extends KernelArray {
    private static final ValueLayout.OfFloat LAYOUT = ValueLayout.JAVA_FLOAT;

    /** A zero-filled array of {@code length} elements. */
    public FloatArray(long length) {
        super(length, 4);
    }

    private FloatArray(long length, PinnedAllocator device) {
        super(length, 4, device);
    }

    private FloatArray(long length, boolean deviceOnly) {
        super(length, 4, deviceOnly);
    }

    /**
     * A device-only array of {@code length} elements: each device that a kernel runs it on allocates it zero-filled,
     * without host memory or copies (see {@link KernelArray}); reading it on the host needs a {@code transferToHost}.
     *
     * <pre>{@code FloatArray scratch = FloatArray.onDevice(1 << 24); }</pre>
     */
    public static FloatArray onDevice(long length) {
        return new FloatArray(length, true);
    }

    /**
     * A zero-filled array of {@code length} elements in pinned host memory of {@code device}, which copies
     * it to and from its own memory asynchronously. Kernels and the host use it like any other array.
     *
     * <pre>{@code FloatArray a = FloatArray.pinned(1 << 20, Devices.get("cuda:0")); }</pre>
     */
    public static FloatArray pinned(long length, PinnedAllocator device) {
        return new FloatArray(length, device);
    }

    /** A new array holding a copy of {@code values}. */
    public static FloatArray fromArray(float... values) {
        FloatArray a = new FloatArray(values.length);
        for (int i = 0; i < values.length; i++) a.set(i, values[i]);
        return a;
    }

    public float get(int i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public float get(long i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public void set(int i, float v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    public void set(long i, float v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    /** Sets every element to {@code v}. */
    public void init(float v) {
        host();
        for (long i = 0; i < getSizeLong(); i++) segment.setAtIndex(LAYOUT, i, v);
    }

    /** A heap copy of the elements. */
    public float[] toHeapArray() {
        return segment().toArray(ValueLayout.JAVA_FLOAT);
    }

    @Override
    public int elementBytes() {
        return 4;
    }

    @Override
    public String elementType() {
        return "float";
    }

    @Override
    public String toString() {
        return getSizeLong() <= 16 && segment != null ? Arrays.toString(toHeapArray()) : super.toString();
    }
}
