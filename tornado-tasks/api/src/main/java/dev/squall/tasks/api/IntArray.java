package dev.squall.tasks.api;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Off-heap array of {@code int} for kernels.
 *
 * <pre>{@code
 * IntArray a = IntArray.fromArray(new int[] {1, 2, 3});
 * a.set(0, (int) 7);
 * int first = a.get(0);
 * }</pre>
 */
public final class IntArray extends KernelArray {
    private static final ValueLayout.OfInt LAYOUT = ValueLayout.JAVA_INT;

    /** A zero-filled array of {@code length} elements. */
    public IntArray(long length) {
        super(length, 4);
    }

    private IntArray(long length, PinnedAllocator device) {
        super(length, 4, device);
    }

    private IntArray(long length, boolean deviceOnly) {
        super(length, 4, deviceOnly);
    }

    /**
     * A device-only array of {@code length} elements: each device that a kernel runs it on allocates it zero-filled,
     * without host memory or copies (see {@link KernelArray}); reading it on the host needs a {@code transferToHost}.
     *
     * <pre>{@code IntArray scratch = IntArray.onDevice(1 << 24); }</pre>
     */
    public static IntArray onDevice(long length) {
        return new IntArray(length, true);
    }

    /**
     * A zero-filled array of {@code length} elements in pinned host memory of {@code device}, which copies
     * it to and from its own memory asynchronously. Kernels and the host use it like any other array.
     *
     * <pre>{@code IntArray a = IntArray.pinned(1 << 20, Devices.get("cuda:0")); }</pre>
     */
    public static IntArray pinned(long length, PinnedAllocator device) {
        return new IntArray(length, device);
    }

    /** A new array holding a copy of {@code values}. */
    public static IntArray fromArray(int... values) {
        IntArray a = new IntArray(values.length);
        for (int i = 0; i < values.length; i++) a.set(i, values[i]);
        return a;
    }

    public int get(int i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public int get(long i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public void set(int i, int v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    public void set(long i, int v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    /** Sets every element to {@code v}. */
    public void init(int v) {
        host();
        for (long i = 0; i < getSizeLong(); i++) segment.setAtIndex(LAYOUT, i, v);
    }

    /** A heap copy of the elements. */
    public int[] toHeapArray() {
        return segment().toArray(ValueLayout.JAVA_INT);
    }

    @Override
    public int elementBytes() {
        return 4;
    }

    @Override
    public String elementType() {
        return "int";
    }

    @Override
    public String toString() {
        return getSizeLong() <= 16 && segment != null ? Arrays.toString(toHeapArray()) : super.toString();
    }
}
