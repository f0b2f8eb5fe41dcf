package dev.squall.tasks.api;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Off-heap array of {@code short} for kernels.
 *
 * <pre>{@code
 * ShortArray a = ShortArray.fromArray(new short[] {1, 2, 3});
 * a.set(0, (short) 7);
 * short first = a.get(0);
 * }</pre>
 */
public final class ShortArray extends KernelArray {
    private static final ValueLayout.OfShort LAYOUT = ValueLayout.JAVA_SHORT;

    /** A zero-filled array of {@code length} elements. */
    public ShortArray(long length) {
        super(length, 2);
    }

    private ShortArray(long length, PinnedAllocator device) {
        super(length, 2, device);
    }

    private ShortArray(long length, boolean deviceOnly) {
        super(length, 2, deviceOnly);
    }

    /**
     * A device-only array of {@code length} elements: each device that a kernel runs it on allocates it zero-filled,
     * without host memory or copies (see {@link KernelArray}); reading it on the host needs a {@code transferToHost}.
     *
     * <pre>{@code ShortArray scratch = ShortArray.onDevice(1 << 24); }</pre>
     */
    public static ShortArray onDevice(long length) {
        return new ShortArray(length, true);
    }

    /**
     * A zero-filled array of {@code length} elements in pinned host memory of {@code device}, which copies
     * it to and from its own memory asynchronously. Kernels and the host use it like any other array.
     *
     * <pre>{@code ShortArray a = ShortArray.pinned(1 << 20, Devices.get("cuda:0")); }</pre>
     */
    public static ShortArray pinned(long length, PinnedAllocator device) {
        return new ShortArray(length, device);
    }

    /** A new array holding a copy of {@code values}. */
    public static ShortArray fromArray(short... values) {
        ShortArray a = new ShortArray(values.length);
        for (int i = 0; i < values.length; i++) a.set(i, values[i]);
        return a;
    }

    public short get(int i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public short get(long i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public void set(int i, short v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    public void set(long i, short v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    /** Sets every element to {@code v}. */
    public void init(short v) {
        host();
        for (long i = 0; i < getSizeLong(); i++) segment.setAtIndex(LAYOUT, i, v);
    }

    /** A heap copy of the elements. */
    public short[] toHeapArray() {
        return segment().toArray(ValueLayout.JAVA_SHORT);
    }

    @Override
    public int elementBytes() {
        return 2;
    }

    @Override
    public String elementType() {
        return "short";
    }

    @Override
    public String toString() {
        return getSizeLong() <= 16 && segment != null ? Arrays.toString(toHeapArray()) : super.toString();
    }
}
