package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.annotations.Reduce;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;
import uk.ac.manchester.tornado.api.types.arrays.DoubleArray;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code @Reduce} kernels as TornadoVM documents them (sum, product, max, min; Java arrays and off-heap arrays; the
 * initial value set in the kernel or by the host), on sizes that are not multiples of the work-group (256) and beyond
 * what one pass of the first stage covers (1024 groups of 256), against sequential Java on every device.
 * Floating-point sums are compared with the sum computed in double by plain Java (within gamma_n(double) sum|x| of the
 * exact sum) and the device's own bound: a sum whose terms pass through at most D additions lies within
 * gamma_D sum|x| of the exact sum (Higham, Accuracy and Stability, 4.2), gamma(k) = k u / (1 - k u). The two-stage
 * reduction's depth D is {@link #depth}: far below n, so a lost or doubled group of terms fails the test.
 */
class ReduceTest {
    static List<Object[]> cases() {
        List<Object[]> out = new ArrayList<>();
        for (Device d : TestDevices.all()) for (int n : new int[] {1, 255, 257, 1000, 70_001, 300_000}) out.add(new Object[] {d, n});
        return out;
    }

    // ---- kernels, as TornadoVM's documentation writes them ----

    public static void sumFloats(float[] input, @Reduce float[] result) {
        result[0] = 0.0f;
        for (@Parallel int i = 0; i < input.length; i++) {
            result[0] += input[i];
        }
    }

    public static void sumDoubles(DoubleArray input, @Reduce DoubleArray result) {
        result.set(0, 0.0);
        for (@Parallel int i = 0; i < input.getSize(); i++) {
            result.set(0, result.get(0) + input.get(i));
        }
    }

    /** The initial value comes from the host, as in TornadoVM's max example. */
    public static void maxFloats(FloatArray input, @Reduce FloatArray result) {
        for (@Parallel int i = 0; i < input.getSize(); i++) {
            result.set(0, TornadoMath.max(result.get(0), input.get(i)));
        }
    }

    public static void minInts(int[] input, @Reduce int[] result, int n) {
        result[0] = Integer.MAX_VALUE;
        for (@Parallel int i = 0; i < n; i++) {
            result[0] = Math.min(input[i], result[0]);
        }
    }

    public static void maxDoubles(double[] input, @Reduce double[] result) {
        result[0] = Double.NEGATIVE_INFINITY;
        for (@Parallel int i = 0; i < input.length; i++) {
            result[0] = Math.max(result[0], input[i]);
        }
    }

    public static void sumInts(IntArray input, @Reduce IntArray result) {
        result.set(0, 0);
        for (@Parallel int i = 0; i < input.getSize(); i++) {
            result.set(0, input.get(i) + result.get(0));
        }
    }

    /** Integer products wrap the same in any order: exact against Java. */
    public static void productInts(int[] input, @Reduce int[] result) {
        result[0] = 1;
        for (@Parallel int i = 0; i < input.length; i++) {
            result[0] *= input[i];
        }
    }

    /** A dot product with a local in the loop and a condition around the update. */
    public static void positiveDot(float[] a, float[] b, @Reduce float[] result) {
        result[0] = 0.0f;
        for (@Parallel int i = 0; i < a.length; i++) {
            float p = a[i] * b[i];
            if (p > 0) {
                result[0] += p;
            }
        }
    }

    static float square(float x) {
        return x * x;
    }

    /** A helper method called from the loop, qualified by its class: it becomes a device function of the reduction. */
    public static void sumOfSquares(FloatArray input, @Reduce FloatArray result) {
        result.set(0, 0.0f);
        for (@Parallel int i = 0; i < input.getSize(); i++) {
            result.set(0, result.get(0) + ReduceTest.square(input.get(i)));
        }
    }

    /** The loop's length is a scalar, the only array the result: pi by the midpoint rule on 1 / (1 + x^2). */
    public static void pi(@Reduce double[] result, int steps) {
        result[0] = 0.0;
        for (@Parallel int i = 0; i < steps; i++) {
            double x = (i + 0.5) / steps;
            result[0] += 4.0 / (1.0 + x * x) / steps;
        }
    }

    /** A loop starting past 0 over a bound read before the loop. */
    public static void minFloatsFrom(float[] input, @Reduce float[] result, int start) {
        int n = input.length;
        result[0] = Float.MAX_VALUE;
        for (@Parallel int i = start; i < n; i++) {
            result[0] = Math.min(result[0], input[i]);
        }
    }

    // ---- tests ----

    private static double gamma(long n, double u) {
        double k = Math.max(n, 1) * u;
        return k / (1 - k);
    }

    /**
     * Additions on the way of any term of the two-stage reduction: the work-item's grid-stride share (at most
     * n / (1024 groups * 256) terms), 8 levels of the work-group fold, at most 4 partials per work-item of the second
     * stage (1024 / 256), its 8 levels, and the initial value.
     */
    static long depth(long n) {
        return (n + 262_143) / 262_144 + 8 + 4 + 8 + 1;
    }

    /** The bound on |device - double reference| for a float or double sum of n terms of total magnitude abs. */
    private static double bound(long n, double u, double abs) {
        return gamma(depth(n), u) * abs + gamma(n, 0x1p-53) * abs;
    }

    private static float[] floats(int n, long seed) {
        Random r = new Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = (float) ((r.nextFloat() * 2 - 1) * Math.pow(10, r.nextInt(7) - 3));
        return a;
    }

    private static TornadoExecutionPlan plan(Device d, TaskGraph g) {
        return new TornadoExecutionPlan(g.snapshot()).withDevice(TornadoRuntimeProvider.getTornadoRuntime().of(d));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void sumOfFloats(Device d, int n) throws Exception {
        float[] x = floats(n, n), r = {42f};
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", ReduceTest::sumFloats, x, r).transferToHost(DataTransferMode.EVERY_EXECUTION, r);
        try (var p = plan(d, g)) {
            p.execute();
        }
        double exact = 0, abs = 0;
        for (float v : x) {
            exact += v;
            abs += Math.abs(v);
        }
        assertEquals(exact, r[0], bound(n, 0x1p-24, abs), "n = " + n + " on " + d);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void sumOfDoublesTwice(Device d, int n) throws Exception {
        DoubleArray x = new DoubleArray(n), r = new DoubleArray(1);
        float[] f = floats(n, 7 + n);
        double abs = 0;
        for (int i = 0; i < n; i++) {
            x.set(i, f[i] * 1.000001);
            abs += Math.abs(x.get(i));
        }
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
                .task("t0", ReduceTest::sumDoubles, x, r).transferToHost(DataTransferMode.EVERY_EXECUTION, r);
        double seq = 0;
        for (int i = 0; i < n; i++) seq += x.get(i);
        try (var p = plan(d, g)) {
            p.execute();
            assertEquals(seq, r.get(0), bound(n, 0x1p-53, abs), "n = " + n);
            for (int i = 0; i < n; i++) x.set(i, -x.get(i)); // the kernel sets the initial value: a second run does not accumulate
            p.execute();
            assertEquals(-seq, r.get(0), bound(n, 0x1p-53, abs), "second run, n = " + n);
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void maxMinExactly(Device d, int n) throws Exception {
        float[] f = floats(n, 3 * n);
        FloatArray x = FloatArray.fromArray(f), rmax = new FloatArray(1);
        rmax.set(0, -5f); // the host's initial value takes part, as in sequential Java
        double[] dx = new double[n];
        int[] ix = new int[n];
        Random rnd = new Random(n);
        for (int i = 0; i < n; i++) {
            dx[i] = -Math.abs(f[i]) - 1; // all negative: the max is the least negative value
            ix[i] = rnd.nextInt() >> rnd.nextInt(31);
        }
        double[] dmax = new double[1];
        int[] imin = new int[1];
        float[] fmin = new float[1];
        int start = Math.min(3, n - 1);
        double[] pi = new double[1];
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, f, dx, ix)
                .task("t0", ReduceTest::maxFloats, x, rmax)
                .task("t1", ReduceTest::maxDoubles, dx, dmax)
                .task("t2", ReduceTest::minInts, ix, imin, n)
                .task("t3", ReduceTest::minFloatsFrom, f, fmin, start)
                .task("t4", ReduceTest::pi, pi, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, rmax, dmax, imin, fmin, pi);
        try (var p = plan(d, g)) {
            p.execute();
        }
        float emax = -5f;
        for (float v : f) emax = Math.max(emax, v);
        double edmax = Double.NEGATIVE_INFINITY;
        for (double v : dx) edmax = Math.max(edmax, v);
        int eimin = Integer.MAX_VALUE;
        for (int v : ix) eimin = Math.min(eimin, v);
        float efmin = Float.MAX_VALUE;
        for (int i = start; i < n; i++) efmin = Math.min(efmin, f[i]);
        assertEquals(emax, rmax.get(0), 0f, "max of floats, n = " + n);
        assertEquals(edmax, dmax[0], 0.0, "max of doubles, n = " + n);
        assertEquals(eimin, imin[0], "min of ints, n = " + n);
        assertEquals(efmin, fmin[0], 0f, "min of floats from " + start + ", n = " + n);
        double[] epi = new double[1];
        pi(epi, n);
        // terms in (2/n, 4/n]: the sequential and the two-stage sums are each within gamma_k * 4 of the exact sum
        assertEquals(epi[0], pi[0], (gamma(n, 0x1p-53) + gamma(depth(n) + 4, 0x1p-53)) * 4, "pi by " + n + " steps");
    }

    @ParameterizedTest
    @MethodSource("cases")
    void integerSumAndProductExactly(Device d, int n) throws Exception {
        IntArray x = new IntArray(n), s = new IntArray(1);
        int[] odd = new int[n], prod = new int[1];
        Random rnd = new Random(11 * n);
        for (int i = 0; i < n; i++) {
            x.set(i, rnd.nextInt()); // wraps around: still exact in any order
            odd[i] = 2 * rnd.nextInt(1000) + 1; // odd factors keep the product away from 0 mod 2^32
        }
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, odd)
                .task("sum", ReduceTest::sumInts, x, s)
                .task("product", ReduceTest::productInts, odd, prod)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, s, prod);
        WorkerGrid1D grid = new WorkerGrid1D(n);
        grid.setLocalWork(1, 1, 1); // a grid for a @Reduce task is accepted and left to the reduction's own
        try (var p = plan(d, g)) {
            p.withGridScheduler(new GridScheduler("s0.sum", grid)).execute();
        }
        int es = 0, ep = 1;
        for (int i = 0; i < n; i++) {
            es += x.get(i);
            ep *= odd[i];
        }
        assertEquals(es, s.get(0), "sum, n = " + n);
        assertEquals(ep, prod[0], "product, n = " + n);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void conditionalDotProduct(Device d, int n) throws Exception {
        float[] a = floats(n, 5 * n), b = floats(n, 5 * n + 1), r = new float[1];
        FloatArray fa = FloatArray.fromArray(a), squares = new FloatArray(1);
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b, fa)
                .task("t0", ReduceTest::positiveDot, a, b, r)
                .task("t1", ReduceTest::sumOfSquares, fa, squares)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, r, squares);
        try (var p = plan(d, g)) {
            p.execute();
        }
        double exact = 0;
        for (int i = 0; i < n; i++) exact += Math.max(0, (double) a[i] * b[i]);
        // each product rounds once more than the sum's terms: depth + 1
        assertEquals(exact, r[0], gamma(depth(n) + 1, 0x1p-24) * exact + gamma(n, 0x1p-53) * exact, "n = " + n);
        double sq = 0;
        for (float v : a) sq += (double) v * v;
        assertEquals(sq, squares.get(0), gamma(depth(n) + 1, 0x1p-24) * sq + gamma(n, 0x1p-53) * sq, "sum of squares, n = " + n);
    }
}
