package dev.squall.tasks.runtime;

import dev.squall.tasks.api.IntArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Method references read through their serialised form. */
class KernelRefTest {
    static void kernel(IntArray a, int n) {
    }

    @Test
    void aMethodReferenceNamesItsClassAndMethod() {
        KernelFunctions.Task2<IntArray, Integer> k = KernelRefTest::kernel;
        assertEquals(new KernelRef(KernelRefTest.class, "kernel"), KernelRef.of(k));
        assertEquals(new KernelRef(KernelRefTest.class, "kernel"), KernelRef.of(k), "the second lookup (cached) agrees");
        KernelFunctions.Task2<IntArray, Integer> other = TaskGraphTest.Kernels::addOne;
        assertEquals(new KernelRef(TaskGraphTest.Kernels.class, "addOne"), KernelRef.of(other));
    }

    @Test
    void aLambdaIsRejected() {
        KernelFunctions.Task2<IntArray, Integer> lambda = (a, n) -> a.set(0, n);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelRef.of(lambda));
        assertTrue(e.getMessage().contains("not a lambda"), e.getMessage());
    }
}
