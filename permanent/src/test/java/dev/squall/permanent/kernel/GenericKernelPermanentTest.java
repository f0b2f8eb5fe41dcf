package dev.squall.permanent.kernel;

import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GenericKernelPermanentTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void closedFormsOnEveryDevice(Device d) {
        for (boolean sparse : new boolean[] {false, true}) {
            String m = (sparse ? "sparse" : "dense") + " on " + d.id();
            assertRelative(factorial(12).doubleValue(), new GenericKernelPermanent(d, sparse).compute(ones(12)), 1e-11, "J_12 " + m);
            assertRelative(derangements(13).doubleValue(), new GenericKernelPermanent(d, sparse).withMaxThreads(3).compute(onesMinusIdentity(13)), 1e-11, "D_13 " + m);
            assertRelative(fibonacci(15), new GenericKernelPermanent(d, sparse).compute(tridiagonalOnes(15)), 1e-12, "tridiagonal " + m);
            assertRelative(1.5, new GenericKernelPermanent(d, sparse).compute(SquareMatrix.of(1, new double[] {1.5})), 1e-15, "1x1 " + m);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void randomRealMatricesMatchExactValueAndJvm(Device d) {
        int n = d.info().type() == DeviceType.JVM ? 14 : 17;
        SquareMatrix a = randomDyadic(n, 0.5, 4242);
        double exact = exactDyadic(a);
        // 37 work-items: several launches with shrinking chunk sizes
        assertRelative(exact, new GenericKernelPermanent(d, false).withMaxThreads(37).compute(a), 1e-10, "dense n=" + n + " on " + d.id());
        SquareMatrix sorted = ColumnDegreeSort.apply(a);
        assertRelative(exact, new GenericKernelPermanent(d, true).compute(sorted), 1e-10, "sparse n=" + n + " on " + d.id());
        if (d.info().type() != DeviceType.JVM) {
            SquareMatrix b = random(20, 0.3, 0, 1, 77);
            assertRelative(new ChunkedJvmPermanent(2).dense(b), new GenericKernelPermanent(d, true).compute(ColumnDegreeSort.apply(b)), 1e-10, "n=20 vs JVM on " + d.id());
        }
    }

    /** x in local memory: the same closed forms and exact dyadic values, with several launches and a partial last group. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void localMemoryVariantOnEveryDevice(Device d) {
        String m = "dense-local on " + d.id();
        GenericKernelPermanent.XStorage local = GenericKernelPermanent.XStorage.LOCAL;
        assertRelative(factorial(12).doubleValue(), new GenericKernelPermanent(d, false).withXStorage(local).compute(ones(12)), 1e-11, "J_12 " + m);
        assertRelative(derangements(13).doubleValue(), new GenericKernelPermanent(d, false).withXStorage(local).withMaxThreads(70).compute(onesMinusIdentity(13)), 1e-11, "D_13 " + m);
        assertRelative(fibonacci(15), new GenericKernelPermanent(d, false).withXStorage(local).compute(tridiagonalOnes(15)), 1e-12, "tridiagonal " + m);
        int n = d.info().type() == DeviceType.JVM ? 14 : 16;
        SquareMatrix a = randomDyadic(n, 0.6, 5151);
        // 101 work-items: two groups of 64, the second partly idle; several launches
        assertRelative(exactDyadic(a), new GenericKernelPermanent(d, false).withXStorage(local).withMaxThreads(101).compute(a), 1e-10, "n=" + n + " " + m);
        assertThrows(IllegalArgumentException.class, () -> new GenericKernelPermanent(d, true).withXStorage(local));
    }
}
