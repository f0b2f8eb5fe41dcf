package dev.squall.sparse.exec;

import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.Precision;

/**
 * Host arrays copied into kernel arrays for an inspector's output. Every array has at least one element,
 * since devices reject empty buffers.
 *
 * <pre>{@code
 * IntArray rowPtr = DeviceArrays.ints(a.rowPtr());
 * KernelArray val = DeviceArrays.values(Precision.FP32, a.values());   // a FloatArray
 * }</pre>
 */
public final class DeviceArrays {
    private DeviceArrays() {
    }

    /** {@code v} as an {@link IntArray}. */
    public static IntArray ints(int[] v) {
        IntArray r = new IntArray(Math.max(1, v.length));
        for (int i = 0; i < v.length; i++) r.set(i, v[i]);
        return r;
    }

    /** {@code v} widened into a {@link LongArray}. */
    public static LongArray longs(int[] v) {
        LongArray r = new LongArray(Math.max(1, v.length));
        for (int i = 0; i < v.length; i++) r.set(i, v[i]);
        return r;
    }

    /** {@code v} in an array of precision {@code p} (rounded to float for FP32). */
    public static KernelArray values(Precision p, double[] v) {
        KernelArray a = zeros(p, v.length);
        Precision.write(a, v);
        return a;
    }

    /** A zeroed array of precision {@code p} with {@code n} elements. */
    public static KernelArray zeros(Precision p, int n) {
        return p.allocate(Math.max(1, n));
    }
}
