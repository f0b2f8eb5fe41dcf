package dev.squall.tasks.api;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Off-heap array of {@code long} for kernels.
 *
 * <pre>{@code
 * LongArray a = LongArray.fromArray(new long[] {1, 2, 3});
 * a.set(0, (long) 7);
 * long first = a.get(0);
 * }</pre>
 */
public final class LongArray extends KernelArray {
    private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG;

    /** A zero-filled array of {@code length} elements. */
    public LongArray(long length) {
        super(length, 8);
    }

    private LongArray(long length, PinnedAllocator device) {
        super(length, 8, device);
    }

    private LongArray(long length, boolean deviceOnly) {
        super(length, 8, deviceOnly);
    }

    /**
     * A device-only array of {@code length} elements: each device that a kernel runs it on allocates it zero-filled,
     * without host memory or copies (see {@link KernelArray}); reading it on the host needs a {@code transferToHost}.
     *
     * <pre>{@code LongArray scratch = LongArray.onDevice(1 << 24); }</pre>
     */
    public static LongArray onDevice(long length) {
        return new LongArray(length, true);
    }

    /**
     * A zero-filled array of {@code length} elements in pinned host memory of {@code device}, which copies
     * it to and from its own memory asynchronously. Kernels and the host use it like any other array.
     *
     * <pre>{@code LongArray a = LongArray.pinned(1 << 20, Devices.get("cuda:0")); }</pre>
     */
    public static LongArray pinned(long length, PinnedAllocator device) {
        return new LongArray(length, device);
    }

    /** A new array holding a copy of {@code values}. */
    public static LongArray fromArray(long... values) {
        LongArray a = new LongArray(values.length);
        for (int i = 0; i < values.length; i++) a.set(i, values[i]);
        return a;
    }

    public long get(int i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public long get(long i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public void set(int i, long v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    public void set(long i, long v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    /** Sets every element to {@code v}. */
    public void init(long v) {
        host();
        for (long i = 0; i < getSizeLong(); i++) segment.setAtIndex(LAYOUT, i, v);
    }

    /** A heap copy of the elements. */
    public long[] toHeapArray() {
        return segment().toArray(ValueLayout.JAVA_LONG);
    }

    @Override
    public int elementBytes() {
        return 8;
    }

    @Override
    public String elementType() {
        return "long";
    }

    @Override
    public String toString() {
        return getSizeLong() <= 16 && segment != null ? Arrays.toString(toHeapArray()) : super.toString();
    }
}
