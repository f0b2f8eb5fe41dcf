package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.annotations.Reduce;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.collections.VectorFloat4;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DDouble;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DFloat;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DInt;
import uk.ac.manchester.tornado.api.types.vectors.Float4;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TornadoVM's matrix and vector types as kernel parameters ({@code Matrix2DFloat}, {@code Matrix2DDouble},
 * {@code Matrix2DInt}, {@code VectorFloat4} with {@code Float4} values), on shapes that are not square and not multiples
 * of work-group sizes, against the same methods run as plain Java. Float sums of products are compared within
 * 2 gamma(k) sum|a||b| (either order of the k products lies within gamma(k) sum|a||b| of the exact value, Higham 3.1;
 * a fused multiply-add only tightens it); element-wise float operations are compared within one rounding of each.
 */
class MatrixVectorTest {
    static List<Object[]> shapes() {
        List<Object[]> out = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            for (int[] s : new int[][] {{1, 1, 1}, {7, 13, 5}, {33, 65, 17}, {100, 3, 129}}) out.add(new Object[] {d, s[0], s[1], s[2]});
        }
        return out;
    }

    // ---- kernels, as TornadoVM programs write them ----

    public static void matrixMultiplication(Matrix2DFloat a, Matrix2DFloat b, Matrix2DFloat c) {
        for (@Parallel int i = 0; i < c.getNumRows(); i++) {
            for (@Parallel int j = 0; j < c.getNumColumns(); j++) {
                float sum = 0.0f;
                for (int k = 0; k < a.getNumColumns(); k++) {
                    sum += a.get(i, k) * b.get(k, j);
                }
                c.set(i, j, sum);
            }
        }
    }

    /** A 2D grid with a KernelContext. */
    public static void transpose(KernelContext context, Matrix2DDouble in, Matrix2DDouble out) {
        int i = context.globalIdy, j = context.globalIdx;
        if (i < in.getNumRows() && j < in.getNumColumns()) out.set(j, i, in.get(i, j) * 2.0);
    }

    public static void addScaled(Matrix2DInt a, Matrix2DInt b, int s) {
        for (@Parallel int i = 0; i < a.getNumRows(); i++) {
            for (@Parallel int j = 0; j < a.getNumColumns(); j++) {
                b.set(i, j, b.get(i, j) + s * a.get(a.getNumRows() - 1 - i, j));
            }
        }
    }

    /** The sum of a matrix's elements: @Reduce over a matrix, an inner sequential loop. */
    public static void matrixSum(Matrix2DFloat m, @Reduce float[] result) {
        result[0] = 0.0f;
        for (@Parallel int i = 0; i < m.getNumRows(); i++) {
            for (int j = 0; j < m.getNumColumns(); j++) {
                result[0] += m.get(i, j);
            }
        }
    }

    public static void addVectors(VectorFloat4 a, VectorFloat4 b, VectorFloat4 c) {
        for (@Parallel int i = 0; i < c.getLength(); i++) {
            c.set(i, Float4.add(a.get(i), b.get(i)));
        }
    }

    /** Float4 locals, mult by a scalar and by a vector, sub, new Float4 and the components. */
    public static void float4Arithmetic(VectorFloat4 a, VectorFloat4 b, VectorFloat4 c, float alpha) {
        for (@Parallel int i = 0; i < c.getLength(); i++) {
            Float4 s = Float4.mult(a.get(i), alpha);
            Float4 d = Float4.sub(Float4.mult(s, b.get(i)), new Float4(1f, 2f, 3f, 4f));
            c.set(i, new Float4(d.getW(), d.getZ(), d.getY(), d.getX() + s.getX()));
        }
    }

    public static void dots(VectorFloat4 a, VectorFloat4 b, FloatArray out) {
        for (@Parallel int i = 0; i < a.getLength(); i++) {
            out.set(i, Float4.dot(a.get(i), b.get(i)));
        }
    }

    /** A kernel as written, beside rewritten ones of the same class. */
    public static void twice(FloatArray x, FloatArray y) {
        for (@Parallel int i = 0; i < x.getSize(); i++) {
            y.set(i, 2 * x.get(i));
        }
    }

    // ---- tests ----

    private static TornadoExecutionPlan plan(Device d, TaskGraph g) {
        return new TornadoExecutionPlan(g.snapshot()).withDevice(TornadoRuntimeProvider.getTornadoRuntime().of(d));
    }

    private static Matrix2DFloat randomFloats(int rows, int cols, Random r) {
        Matrix2DFloat m = new Matrix2DFloat(rows, cols);
        for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) m.set(i, j, r.nextFloat() * 2 - 1);
        return m;
    }

    private static double gamma(int k) {
        return k * 0x1p-24 / (1 - k * 0x1p-24);
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void matrixProductAndSum(Device d, int n, int k, int m) throws Exception {
        Random r = new Random(n * 1000 + k);
        Matrix2DFloat a = randomFloats(n, k, r), b = randomFloats(k, m, r), c = new Matrix2DFloat(n, m);
        float[] sum = new float[1];
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("mxm", MatrixVectorTest::matrixMultiplication, a, b, c)
                .task("sum", MatrixVectorTest::matrixSum, a, sum)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c, sum);
        try (var p = plan(d, g)) {
            p.execute();
        }
        Matrix2DFloat expected = new Matrix2DFloat(n, m);
        matrixMultiplication(a, b, expected);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                double abs = 0;
                for (int x = 0; x < k; x++) abs += Math.abs(a.get(i, x) * b.get(x, j));
                assertEquals(expected.get(i, j), c.get(i, j), 2 * gamma(k) * abs + 1e-30, "c(" + i + ", " + j + ")");
            }
        }
        double exact = 0, abs = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k; j++) {
                exact += a.get(i, j);
                abs += Math.abs(a.get(i, j));
            }
        }
        // a row's k terms added in sequence, then the two-stage reduction's depth (ReduceTest.depth)
        assertEquals(exact, sum[0], gamma((int) (k + ReduceTest.depth(n))) * abs + 1e-12 * abs, "sum");
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void transposeOnA2DGridAndIntegerMatrices(Device d, int n, int k, int m) throws Exception {
        Random r = new Random(7 * n + m);
        Matrix2DDouble in = new Matrix2DDouble(n, m), out = new Matrix2DDouble(m, n);
        for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) in.set(i, j, r.nextGaussian());
        Matrix2DInt a = new Matrix2DInt(k, m), b = new Matrix2DInt(k, m), expectedB = new Matrix2DInt(k, m);
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < m; j++) {
                a.set(i, j, r.nextInt(2001) - 1000);
                b.set(i, j, r.nextInt());
                expectedB.set(i, j, b.get(i, j));
            }
        }
        WorkerGrid2D grid = new WorkerGrid2D(m, n);
        grid.setLocalWork(1, 1, 1);
        GridScheduler gs = new GridScheduler("s0.t", grid);
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, in, a, b)
                .task("t", MatrixVectorTest::transpose, new KernelContext(), in, out)
                .task("add", MatrixVectorTest::addScaled, a, b, -3)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out, b);
        try (var p = plan(d, g)) {
            p.withGridScheduler(gs).execute();
        }
        for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) assertEquals(2 * in.get(i, j), out.get(j, i), 0.0, "out(" + j + ", " + i + ")");
        addScaled(a, expectedB, -3);
        for (int i = 0; i < k; i++) for (int j = 0; j < m; j++) assertEquals(expectedB.get(i, j), b.get(i, j), "b(" + i + ", " + j + ")");
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void vectorFloat4Kernels(Device d, int n, int k, int m) throws Exception {
        int len = n * m + k;
        Random r = new Random(len);
        VectorFloat4 a = new VectorFloat4(len), b = new VectorFloat4(len), sum = new VectorFloat4(len), arith = new VectorFloat4(len);
        for (int i = 0; i < len; i++) {
            a.set(i, new Float4(r.nextFloat(), -r.nextFloat(), 10 * r.nextFloat(), r.nextFloat() - 0.5f));
            b.set(i, new Float4(r.nextFloat(), r.nextFloat(), -r.nextFloat(), 100 * r.nextFloat()));
        }
        FloatArray dot = new FloatArray(len), dot2 = new FloatArray(len);
        float alpha = 1.75f;
        TaskGraph g = new TaskGraph("s0").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("add", MatrixVectorTest::addVectors, a, b, sum)
                .task("arith", MatrixVectorTest::float4Arithmetic, a, b, arith, alpha)
                .task("dot", MatrixVectorTest::dots, a, b, dot)
                .task("twice", MatrixVectorTest::twice, dot, dot2)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, sum, arith, dot, dot2);
        try (var p = plan(d, g)) {
            p.execute();
        }
        VectorFloat4 eSum = new VectorFloat4(len), eArith = new VectorFloat4(len);
        FloatArray eDot = new FloatArray(len);
        addVectors(a, b, eSum);
        float4Arithmetic(a, b, eArith, alpha);
        dots(a, b, eDot);
        for (int i = 0; i < len; i++) {
            for (int c = 0; c < 4; c++) {
                assertEquals(eSum.get(i).get(c), sum.get(i).get(c), 0f, "sum " + i + "." + c); // one rounding, the same in any order
                // four roundings (or fewer, fused) of values no larger than the sum of the magnitudes of the terms
                int from = 3 - c;
                float mag = Math.abs(a.get(i).get(from) * alpha * b.get(i).get(from)) + 4 + (c == 3 ? Math.abs(a.get(i).get(0) * alpha) : 0);
                assertEquals(eArith.get(i).get(c), arith.get(i).get(c), 4 * Math.ulp(mag), "arith " + i + "." + c);
            }
            double abs = 0;
            for (int c = 0; c < 4; c++) abs += Math.abs(a.get(i).get(c) * b.get(i).get(c));
            assertEquals(eDot.get(i), dot.get(i), 2 * gamma(4) * abs, "dot " + i);
            assertEquals(2 * dot.get(i), dot2.get(i), 0f, "twice " + i);
        }
    }
}
