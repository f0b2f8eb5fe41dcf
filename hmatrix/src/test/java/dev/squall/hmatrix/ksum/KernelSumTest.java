package dev.squall.hmatrix.ksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.testing.HmatrixTestDevices;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Dense kernel sums against a plain fp64 Java sum, on every device present. */
class KernelSumTest {
    static List<Device> devices() {
        return HmatrixTestDevices.all();
    }

    /** The fp64 reference {@code a_i = sum_j k(|x_i - y_j|) b_j}, summed in Java. */
    static double[] reference(PairKernel k, PointSet x, PointSet y, double[] b, int cols) {
        double[] a = new double[x.size() * cols];
        for (int i = 0; i < x.size(); i++) {
            for (int j = 0; j < y.size(); j++) {
                double v = k.evaluate(x.distance(i, y, j));
                for (int c = 0; c < cols; c++) a[i * cols + c] += v * b[j * cols + c];
            }
        }
        return a;
    }

    /** Largest absolute difference over the largest absolute reference value. */
    static double relativeError(double[] got, double[] want) {
        double err = 0, scale = 0;
        for (int i = 0; i < want.length; i++) {
            err = Math.max(err, Math.abs(got[i] - want[i]));
            scale = Math.max(scale, Math.abs(want[i]));
        }
        return err / scale;
    }

    static double[] random(int count, long seed) {
        return new SplittableRandom(seed).doubles(count, -1, 1).toArray();
    }

    static Stream<Arguments> cases() {
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, "gauss:0.2", 1, 1, Precision.FP64),
                Arguments.of(d, "gauss:0.2", 2, 1, Precision.FP32),
                Arguments.of(d, "gauss:0.15", 3, 1, Precision.FP32),
                Arguments.of(d, "gauss:0.15", 3, 1, Precision.FP64),
                Arguments.of(d, "exp:0.3", 3, 1, Precision.FP64),
                Arguments.of(d, "cauchy:0.2", 3, 1, Precision.FP32),
                Arguments.of(d, "matern32:0.3", 3, 3, Precision.FP64),
                Arguments.of(d, "matern52:0.3", 5, 1, Precision.FP64),
                Arguments.of(d, "imq:0.5", 8, 10, Precision.FP32),
                Arguments.of(d, "gauss:0.5", 8, 2, Precision.FP64)));
    }

    @ParameterizedTest(name = "{0} {1} d={2} cols={3} {4}")
    @MethodSource("cases")
    void denseSumMatchesJavaReference(Device device, String kernel, int dim, int cols, Precision p) {
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.uniform(300, dim, 11), y = PointSet.uniform(517, dim, 12);
        double[] b = random(y.size() * cols, 13);
        KernelSum ks = new KernelSum(k, p, device);
        double err = relativeError(ks.apply(x, y, b, cols).values(), reference(k, x, y, b, cols));
        assertTrue(err < (p == Precision.FP64 ? 1e-13 : 2e-6), kernel + " d=" + dim + " " + p + ": relative error " + err);
    }

    /**
     * 40 000 positive terms a row in fp32: one running sum drifts past 1e-6 relative (1.6e-6 measured on the JVM); the
     * partial sums per block of 256 sources keep every row within 1e-6.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void fp32SumsOfManyTermsStayWithinOneMicro(Device device) {
        PairKernel k = PairKernel.parse("gauss:0.5");
        PointSet x = PointSet.uniform(64, 3, 41), y = PointSet.uniform(40_000, 3, 42);
        double[] b = new SplittableRandom(43).doubles(y.size(), 0, 1).toArray();
        double[] got = new KernelSum(k, Precision.FP32, device).apply(x, y, b, 1).values();
        double[] want = reference(k, x, y, b, 1);
        for (int i = 0; i < x.size(); i++) {
            double rel = Math.abs(got[i] - want[i]) / want[i];
            assertTrue(rel < 1e-6, "row " + i + ": relative error " + rel);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void transposedSumIsTheSumOverTargets(Device device) {
        PairKernel k = PairKernel.parse("matern32:0.2");
        PointSet x = PointSet.gaussian(260, 3, 1), y = PointSet.uniform(130, 3, 2);
        double[] a = random(x.size() * 2, 3);
        double[] got = new KernelSum(k, Precision.FP64, device).applyTransposed(x, y, a, 2).values();
        double[] want = new double[y.size() * 2];
        for (int j = 0; j < y.size(); j++) {
            for (int i = 0; i < x.size(); i++) {
                double v = k.evaluate(x.distance(i, y, j));
                for (int c = 0; c < 2; c++) want[j * 2 + c] += v * a[i * 2 + c];
            }
        }
        assertTrue(relativeError(got, want) < 1e-13, "relative error " + relativeError(got, want));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void singleSourceAndSingleTargetWork(Device device) {
        PairKernel k = PairKernel.parse("gauss:0.3");
        PointSet x = PointSet.uniform(70, 2, 4), y = PointSet.of(2, new double[] {0.25, 0.5});
        KernelSum ks = new KernelSum(k, Precision.FP64, device);
        double[] a = ks.apply(x, y, new double[] {2.0}, 1).values();
        for (int i = 0; i < x.size(); i++) assertEquals(2.0 * k.evaluate(x.distance(i, y, 0)), a[i], 1e-15);
        double[] one = ks.apply(y, x, random(70, 5), 1).values();
        assertEquals(1, one.length);
        assertEquals(reference(k, y, x, random(70, 5), 1)[0], one[0], 1e-13);
    }

    static Stream<Arguments> gradientCases() {
        return devices().stream().flatMap(d -> Stream.of(
                Arguments.of(d, "gauss:0.3", 3, 1), Arguments.of(d, "cauchy:0.3", 2, 2), Arguments.of(d, "imq:0.4", 1, 1),
                Arguments.of(d, "matern32:0.4", 4, 1), Arguments.of(d, "matern52:0.4", 3, 3), Arguments.of(d, "exp:0.5", 2, 1)));
    }

    @ParameterizedTest(name = "{0} {1} d={2} cols={3}")
    @MethodSource("gradientCases")
    void gradientMatchesFiniteDifferences(Device device, String kernel, int dim, int cols) {
        PairKernel k = PairKernel.parse(kernel);
        PointSet x = PointSet.uniform(40, dim, 21), y = PointSet.uniform(150, dim, 22);
        double[] b = random(y.size() * cols, 23), a = random(x.size() * cols, 24);
        double[] grad = new KernelSum(k, Precision.FP64, device).gradient(x, y, b, a, cols);
        double h = 1e-6;
        double[] xc = x.coordinates();
        for (int i = 0; i < x.size(); i++) {
            for (int d = 0; d < dim; d++) {
                double[] plus = xc.clone(), minus = xc.clone();
                plus[i * dim + d] += h;
                minus[i * dim + d] -= h;
                double fd = (objective(k, PointSet.of(dim, plus), y, b, a, cols, i)
                        - objective(k, PointSet.of(dim, minus), y, b, a, cols, i)) / (2 * h);
                assertEquals(fd, grad[i * dim + d], 1e-6 * (1 + Math.abs(fd)), kernel + " point " + i + " coordinate " + d);
            }
        }
    }

    /** {@code a_i . (K b)_i}: the only term of the objective that depends on target {@code i}. */
    private static double objective(PairKernel k, PointSet x, PointSet y, double[] b, double[] a, int cols, int i) {
        double s = 0;
        for (int j = 0; j < y.size(); j++) {
            double v = k.evaluate(x.distance(i, y, j));
            for (int c = 0; c < cols; c++) s += a[i * cols + c] * v * b[j * cols + c];
        }
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void userKernelRunsThroughItsMappingKernel(Device device) {
        PairKernel k = PairKernel.of(CovarianceKernel.of("wendland", 0.4, UserKernels::wendland, UserKernels::applyWendland));
        PointSet x = PointSet.uniform(90, 3, 31), y = PointSet.uniform(61, 3, 32);
        double[] b = random(y.size() * 2, 33);
        double err = relativeError(new KernelSum(k, Precision.FP64, device).apply(x, y, b, 2).values(), reference(k, x, y, b, 2));
        assertTrue(err < 1e-13, "relative error " + err);
        assertThrows(IllegalArgumentException.class, () -> new KernelSum(k, Precision.FP32, device));
    }
}
