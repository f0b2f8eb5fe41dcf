package dev.squall.tasks.api.spi;

import dev.squall.tasks.api.KernelArray;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Squall arrays that stand for Java heap arrays ({@code float[]}, ...) passed to kernels by TornadoVM programs. Devices
 * copy the Squall array (the compatibility layer keeps it in step with the heap array); on the JVM the generated launcher
 * runs the kernel body on the heap array itself, which it finds here. Entries go when the Squall array becomes unreachable.
 */
public final class HeapArrays {
    private static final Map<KernelArray, Object> HEAP = Collections.synchronizedMap(new WeakHashMap<>());

    private HeapArrays() {
    }

    /** Records that {@code mirror} stands for {@code heapArray}, a Java array of the same element type and length. */
    public static void register(KernelArray mirror, Object heapArray) {
        if (mirror == null || heapArray == null || !heapArray.getClass().isArray()) {
            throw new IllegalArgumentException("a heap array needs a Squall array and a Java array, got " + mirror + " and " + heapArray);
        }
        HEAP.put(mirror, heapArray);
    }

    /** The heap array {@code mirror} stands for; fails naming the kernel and parameter when it stands for none. */
    public static Object heapArrayOf(Object mirror, String kernel, String parameter) {
        Object heap = mirror instanceof KernelArray k ? HEAP.get(k) : null;
        if (heap == null) {
            throw new IllegalArgumentException("kernel " + kernel + ": parameter " + parameter + " is a Java array, but its argument " + mirror
                    + " stands for none; pass the Java array itself through the TornadoVM API (uk.ac.manchester.tornado.api.TaskGraph)");
        }
        return heap;
    }
}
