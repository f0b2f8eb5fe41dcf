package dev.squall.tasks.runtime;

import dev.squall.tasks.api.IntArray;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;

import static org.junit.jupiter.api.Assertions.*;

/** The serialised form of method references, read without opening the caller's package. */
class SerializedMethodReferenceTest {
    @Test
    void aMethodReferenceGivesItsImplementationClassAndMethod() {
        KernelFunctions.Task2<IntArray, Integer> k = KernelRefTest::kernel;
        SerializedLambda sl = SerializedMethodReference.of(k);
        assertEquals(KernelRefTest.class.getName().replace('.', '/'), sl.getImplClass());
        assertEquals("kernel", sl.getImplMethodName());
        assertEquals(0, sl.getCapturedArgCount());
        KernelFunctions.Task2<IntArray, Integer> other = TaskGraphTest.Kernels::addOne;
        assertEquals("addOne", SerializedMethodReference.of(other).getImplMethodName());
    }

    @Test
    void aSerialisableObjectThatIsNoLambdaIsRejectedWithItsClass() {
        Serializable notALambda = "a string";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SerializedMethodReference.of(notALambda));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }
}
