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
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * The double-double kernel against exact rational permanents on matrices whose alternating sum cancels: mixed signs
     * over many orders of magnitude (banded and sparse regression matrices, unbalanced and balanced), where the double
     * kernel misses by up to 1e9 relative; one launch and several.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void doubleDoubleKernelMatchesExactValuesWhereDoubleCancels(Device d) {
        boolean jvm = d.info().type() == DeviceType.JVM;
        List<String> specs = jvm ? List.of("banded:14:3", "sparse:14:4", "banded:16:6") : List.of("banded:18:3", "sparse:20:5", "banded:20:6");
        double worstDouble = 0;
        for (String spec : specs) {
            SquareMatrix a = dev.squall.permanent.matrix.RegressionMatrices.parse(spec);
            double exact = dev.squall.permanent.exact.RationalPermanent.of(a, false, false, 2).value().toScaled().toDouble();
            SquareMatrix sorted = ColumnDegreeSort.apply(a);
            // unbalanced, the terms reach ~1e15 times the permanent: double-double keeps ~1e-31 of them
            double cancellation = dev.squall.permanent.cpu.RyserRoundingEstimate.of(sorted, 1).cancellation(exact);
            double rel = 1e-13 + 1e-20 * cancellation;
            double dd = new GenericKernelPermanent(d, true).withDoubleDouble(true).compute(sorted);
            worstDouble = Math.max(worstDouble, Math.abs(new GenericKernelPermanent(d, true).compute(sorted) - exact) / Math.abs(exact));
            assertRelative(exact, dd, rel, "double-double " + spec + " on " + d.id() + " (terms ~" + cancellation + " x the permanent)");
            assertRelative(exact, new GenericKernelPermanent(d, true).withDoubleDouble(true).withMaxThreads(37).compute(sorted), rel,
                    "double-double " + spec + ", 37 work-items, on " + d.id());
            dev.squall.permanent.numeric.Balancing bal = dev.squall.permanent.numeric.Balancing.of(a);
            double balanced = new GenericKernelPermanent(d, true).withDoubleDouble(true).compute(ColumnDegreeSort.apply(bal.scaled()));
            assertRelative(exact, dev.squall.permanent.numeric.ScaledValue.of(balanced, bal.exponent()).toDouble(), 1e-13, "balanced " + spec + " on " + d.id());
        }
        assertTrue(worstDouble > 1e-6, "the double kernel must miss on some of these matrices (worst relative error " + worstDouble + ")");
    }
}
