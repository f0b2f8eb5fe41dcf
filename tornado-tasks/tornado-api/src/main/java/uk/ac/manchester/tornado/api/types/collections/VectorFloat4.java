package uk.ac.manchester.tornado.api.types.collections;

import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.vectors.Float4;

/**
 * {@code n} {@link Float4}s stored as 4n floats in an off-heap array (element {@code 4 i + k} is component k of vector i).
 * Kernels take it as a parameter and use {@code get(i)}, {@code set(i, v)} and {@code getLength()}.
 */
public final class VectorFloat4 {
    private final int length;
    private final FloatArray array;

    public VectorFloat4(int numElements) {
        this.length = numElements;
        this.array = new FloatArray(4 * numElements);
    }

    public Float4 get(int i) {
        return new Float4(array.get(4 * i), array.get(4 * i + 1), array.get(4 * i + 2), array.get(4 * i + 3));
    }

    public void set(int i, Float4 v) {
        for (int k = 0; k < 4; k++) array.set(4 * i + k, v.get(k));
    }

    public int getLength() {
        return length;
    }

    public int size() {
        return length;
    }

    /** The floats, vector after vector (the same memory). */
    public FloatArray getArray() {
        return array;
    }
}
