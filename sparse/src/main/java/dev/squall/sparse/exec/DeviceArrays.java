package dev.squall.sparse.exec;

import dev.squall.tasks.api.IntArray;

/** Host arrays copied into kernel arrays for an inspector's output. */
public final class DeviceArrays {
    private DeviceArrays() {
    }

    /**
     * {@code v} as an {@link IntArray}; an empty {@code v} gives one element (devices reject empty buffers).
     *
     * <pre>{@code
     * IntArray rowPtr = DeviceArrays.ints(a.rowPtr());
     * }</pre>
     */
    public static IntArray ints(int[] v) {
        IntArray r = new IntArray(Math.max(1, v.length));
        for (int i = 0; i < v.length; i++) r.set(i, v[i]);
        return r;
    }
}
