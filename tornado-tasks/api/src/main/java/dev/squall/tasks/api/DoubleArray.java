package dev.squall.tasks.api;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Off-heap array of {@code double} for kernels.
 *
 * <pre>{@code
 * DoubleArray a = DoubleArray.fromArray(new double[] {1, 2, 3});
 * a.set(0, (double) 7);
 * double first = a.get(0);
 * }</pre>
 */
public final class DoubleArray extends KernelArray {
    private static final ValueLayout.OfDouble LAYOUT = ValueLayout.JAVA_DOUBLE;

    /** A zero-filled array of {@code length} elements. */
    public DoubleArray(long length) {
        super(length, 8);
    }

    private DoubleArray(long length, PinnedAllocator device) {
        super(length, 8, device);
    }

    private DoubleArray(long length, boolean deviceOnly) {
        super(length, 8, deviceOnly);
    }

    /**
     * A device-only array of {@code length} elements: each device that a kernel runs it on allocates it zero-filled,
     * without host memory or copies (see {@link KernelArray}); reading it on the host needs a {@code transferToHost}.
     *
     * <pre>{@code DoubleArray scratch = DoubleArray.onDevice(1 << 24); }</pre>
     */
    public static DoubleArray onDevice(long length) {
        return new DoubleArray(length, true);
    }

    /**
     * A zero-filled array of {@code length} elements in pinned host memory of {@code device}, which copies
     * it to and from its own memory asynchronously. Kernels and the host use it like any other array.
     *
     * <pre>{@code DoubleArray a = DoubleArray.pinned(1 << 20, Devices.get("cuda:0")); }</pre>
     */
    public static DoubleArray pinned(long length, PinnedAllocator device) {
        return new DoubleArray(length, device);
    }

    /** A new array holding a copy of {@code values}. */
    public static DoubleArray fromArray(double... values) {
        DoubleArray a = new DoubleArray(values.length);
        for (int i = 0; i < values.length; i++) a.set(i, values[i]);
        return a;
    }

    public double get(int i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public double get(long i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public void set(int i, double v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    public void set(long i, double v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    /** Sets every element to {@code v}. */
    public void init(double v) {
        host();
        for (long i = 0; i < getSizeLong(); i++) segment.setAtIndex(LAYOUT, i, v);
    }

    /** A heap copy of the elements. */
    public double[] toHeapArray() {
        return segment().toArray(ValueLayout.JAVA_DOUBLE);
    }

    @Override
    public int elementBytes() {
        return 8;
    }

    @Override
    public String elementType() {
        return "double";
    }

    @Override
    public String toString() {
        return getSizeLong() <= 16 && segment != null ? Arrays.toString(toHeapArray()) : super.toString();
    }
}
