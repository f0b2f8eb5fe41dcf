package uk.ac.manchester.tornado.api;

import uk.ac.manchester.tornado.api.types.arrays.DoubleArray;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;
import uk.ac.manchester.tornado.api.types.arrays.LongArray;

/**
 * The work-item's view of an SPMD kernel ({@code KernelContext} in TornadoVM): ids and sizes ({@code globalIdx},
 * {@code localIdx}, {@code groupIdx}, {@code localGroupSizeX}, ...), local memory ({@code allocateFloatLocalArray}),
 * barriers and atomics. It is Squall's {@link dev.squall.tasks.api.KernelContext}, plus atomics on TornadoVM's arrays;
 * the compiler translates every member to the device's built-ins. Pass one to the task, in any position.
 */
public class KernelContext extends dev.squall.tasks.api.KernelContext {
    public KernelContext() {
    }

    /** Adds {@code value} to {@code array[index]} atomically. */
    public void atomicAdd(IntArray array, int index, int value) {
        atomicAdd(array.squallArray(), index, value);
    }

    /** Adds {@code value} to {@code array[index]} atomically. */
    public void atomicAdd(LongArray array, int index, long value) {
        atomicAdd(array.squallArray(), index, value);
    }

    /** Adds {@code value} to {@code array[index]} atomically. */
    public void atomicAdd(FloatArray array, int index, float value) {
        atomicAdd(array.squallArray(), index, value);
    }

    /** Adds {@code value} to {@code array[index]} atomically. */
    public void atomicAdd(DoubleArray array, int index, double value) {
        atomicAdd(array.squallArray(), index, value);
    }
}
