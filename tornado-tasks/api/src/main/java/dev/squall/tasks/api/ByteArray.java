package dev.squall.tasks.api;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Off-heap array of {@code byte} for kernels.
 *
 * <pre>{@code
 * ByteArray a = ByteArray.fromArray(new byte[] {1, 2, 3});
 * a.set(0, (byte) 7);
 * byte first = a.get(0);
 * }</pre>
 */
public final class ByteArray extends KernelArray {
    private static final ValueLayout.OfByte LAYOUT = ValueLayout.JAVA_BYTE;

    /** A zero-filled array of {@code length} elements. */
    public ByteArray(long length) {
        super(length, 1);
    }

    private ByteArray(long length, PinnedAllocator device) {
        super(length, 1, device);
    }

    private ByteArray(long length, boolean deviceOnly) {
        super(length, 1, deviceOnly);
    }

    /**
     * A device-only array of {@code length} elements: each device that a kernel runs it on allocates it zero-filled,
     * without host memory or copies (see {@link KernelArray}); reading it on the host needs a {@code transferToHost}.
     *
     * <pre>{@code ByteArray scratch = ByteArray.onDevice(1 << 24); }</pre>
     */
    public static ByteArray onDevice(long length) {
        return new ByteArray(length, true);
    }

    /**
     * A zero-filled array of {@code length} elements in pinned host memory of {@code device}, which copies
     * it to and from its own memory asynchronously. Kernels and the host use it like any other array.
     *
     * <pre>{@code ByteArray a = ByteArray.pinned(1 << 20, Devices.get("cuda:0")); }</pre>
     */
    public static ByteArray pinned(long length, PinnedAllocator device) {
        return new ByteArray(length, device);
    }

    /** A new array holding a copy of {@code values}. */
    public static ByteArray fromArray(byte... values) {
        ByteArray a = new ByteArray(values.length);
        for (int i = 0; i < values.length; i++) a.set(i, values[i]);
        return a;
    }

    public byte get(int i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public byte get(long i) {
        checkIndex(i);
        return segment.getAtIndex(LAYOUT, i);
    }

    public void set(int i, byte v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    public void set(long i, byte v) {
        checkIndex(i);
        segment.setAtIndex(LAYOUT, i, v);
    }

    /** Sets every element to {@code v}. */
    public void init(byte v) {
        host();
        for (long i = 0; i < getSizeLong(); i++) segment.setAtIndex(LAYOUT, i, v);
    }

    /** A heap copy of the elements. */
    public byte[] toHeapArray() {
        return segment().toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public int elementBytes() {
        return 1;
    }

    @Override
    public String elementType() {
        return "byte";
    }

    @Override
    public String toString() {
        return getSizeLong() <= 16 && segment != null ? Arrays.toString(toHeapArray()) : super.toString();
    }
}
