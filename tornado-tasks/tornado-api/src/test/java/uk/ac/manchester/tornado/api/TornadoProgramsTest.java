package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;
import uk.ac.manchester.tornado.api.types.arrays.DoubleArray;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;
import uk.ac.manchester.tornado.api.types.matrix.Matrix2DFloat;
import uk.ac.manchester.tornado.api.types.collections.VectorFloat4;
import uk.ac.manchester.tornado.api.types.vectors.Float4;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TornadoVM programs in the style of its documented examples, unchanged but for the device choice: no annotation makes
 * their kernels, each is compared with its plain-Java version on every device present (jvm, and OpenCL on PoCL).
 */
class TornadoProgramsTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    static TornadoDevice tornado(Device d) {
        return TornadoRuntimeProvider.getTornadoRuntime().of(d);
    }

    // ---- kernels, as TornadoVM programs write them ----

    public static void vectorAdd(float[] a, float[] b, float[] c) {
        for (@Parallel int i = 0; i < c.length; i++) c[i] = a[i] + b[i];
    }

    public static void saxpy(float alpha, FloatArray x, FloatArray y) {
        for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, alpha * x.get(i) + y.get(i));
    }

    public static void matrixMultiplication(FloatArray a, FloatArray b, FloatArray c, int size) {
        for (@Parallel int i = 0; i < size; i++) {
            for (@Parallel int j = 0; j < size; j++) {
                float sum = 0.0f;
                for (int k = 0; k < size; k++) sum += a.get(i * size + k) * b.get(k * size + j);
                c.set(i * size + j, sum);
            }
        }
    }

    public static void blackScholes(double[] price, double[] call, int n) {
        for (@Parallel int i = 0; i < n; i++) call[i] = cnd(price[i] - 1.0) * price[i];
    }

    /** A helper: a device function because a task's kernel calls it. */
    static double cnd(double x) {
        double l = Math.abs(x);
        double k = 1.0 / (1.0 + 0.2316419 * l);
        double w = 1.0 - 1.0 / Math.sqrt(2 * Math.PI) * Math.exp(-l * l / 2) * k * (0.319381530 + k * (-0.356563782 + k * 1.781477937));
        return x < 0 ? 1.0 - w : w;
    }

    public static void sigmoid(FloatArray x, FloatArray y) {
        for (@Parallel int i = 0; i < x.getSize(); i++) y.set(i, 1.0f / (1.0f + TornadoMath.exp(-x.get(i))));
    }

    public static void contextAdd(KernelContext context, IntArray a, IntArray b, IntArray c) {
        int i = context.globalIdx;
        c.set(i, a.get(i) + b.get(i));
    }

    /** The context last, as some TornadoVM programs pass it. */
    public static void contextScale(DoubleArray x, double s, KernelContext context) {
        int i = context.globalIdx;
        if (i < x.getSize()) x.set(i, s * x.get(i));
    }

    public static void transpose2D(KernelContext ctx, FloatArray in, FloatArray out, int rows, int cols) {
        int i = ctx.globalIdy, j = ctx.globalIdx;
        if (i < rows && j < cols) out.set(j * rows + i, in.get(i * cols + j));
    }

    /** Per-group sums in local memory: TornadoVM's reduction with KernelContext. */
    public static void groupSums(KernelContext context, FloatArray a, FloatArray partial) {
        int gid = context.globalIdx, lid = context.localIdx, groupSize = context.localGroupSizeX;
        float[] local = context.allocateFloatLocalArray(256);
        local[lid] = a.get(gid);
        for (int stride = groupSize / 2; stride > 0; stride /= 2) {
            context.localBarrier();
            if (lid < stride) local[lid] += local[lid + stride];
        }
        context.localBarrier();
        if (lid == 0) partial.set(context.groupIdx, local[0]);
    }

    public static void histogram(KernelContext context, IntArray data, IntArray bins) {
        int i = context.globalIdx;
        context.atomicAdd(bins, data.get(i), 1);
    }

    /** No parallel loop: runs once, as in TornadoVM. */
    public static void prefixSum(int[] a, int[] out) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
            out[i] = s;
        }
    }

    public static void square(long[] x) {
        for (@Parallel int i = 0; i < x.length; i++) x[i] = x[i] * x[i];
    }

    public static void addOne(FloatArray x) {
        for (@Parallel int i = 0; i < x.getSize(); i++) x.set(i, x.get(i) + 1f);
    }

    public static void mulTwo(FloatArray x, FloatArray y) {
        for (@Parallel int i = 0; i < x.getSize(); i++) y.set(i, 2f * x.get(i));
    }

    /**
     * Kernels on a Matrix2DFloat's and VectorFloat4's elements (getArray()) with sizes as scalars; MatrixVectorTest passes
     * the types themselves.
     */
    public static void rowScale(FloatArray m, FloatArray s, int rows, int cols) {
        for (@Parallel int i = 0; i < rows; i++) {
            for (@Parallel int j = 0; j < cols; j++) m.set(i * cols + j, m.get(i * cols + j) * s.get(i));
        }
    }

    public static void dot4(FloatArray a, FloatArray b, FloatArray out, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            float d = 0;
            for (int k = 0; k < 4; k++) d += a.get(4 * i + k) * b.get(4 * i + k);
            out.set(i, d);
        }
    }

    // ---- programs ----

    private static float[] random(int n, long seed) {
        Random r = new Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = r.nextFloat() * 2 - 1;
        return a;
    }

    @ParameterizedTest
    @MethodSource("devices")
    void vectorAddOnJavaArrays(Device device) throws Exception {
        int n = 1000;
        float[] a = random(n, 1), b = random(n, 2), c = new float[n];
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", TornadoProgramsTest::vectorAdd, a, b, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        float[] expected = new float[n];
        vectorAdd(a, b, expected);
        assertArrayEquals(expected, c, 0f);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void saxpyWithAScalarInTheTransfers(Device device) throws Exception {
        int n = 777;
        float alpha = 1.5f;
        FloatArray x = FloatArray.fromArray(random(n, 3)), y = FloatArray.fromArray(random(n, 4));
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) expected[i] = alpha * x.get(i) + y.get(i);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, alpha, x, y)
                .task("t0", TornadoProgramsTest::saxpy, alpha, x, y)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        assertArrayEquals(expected, y.toHeapArray(), 1e-6f);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void matrixMultiplication2D(Device device) throws Exception {
        int size = 48;
        FloatArray a = FloatArray.fromArray(random(size * size, 5)), b = FloatArray.fromArray(random(size * size, 6));
        FloatArray c = new FloatArray(size * size);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", TornadoProgramsTest::matrixMultiplication, a, b, c, size)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                float s = 0;
                for (int k = 0; k < size; k++) s += a.get(i * size + k) * b.get(k * size + j);
                assertEquals(s, c.get(i * size + j), 1e-4f, "c[" + i + "][" + j + "]");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void helperMethodsBecomeDeviceFunctions(Device device) throws Exception {
        int n = 500;
        double[] price = new double[n], call = new double[n];
        for (int i = 0; i < n; i++) price[i] = 0.5 + 0.003 * i;
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, price)
                .task("t0", TornadoProgramsTest::blackScholes, price, call, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, call);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < n; i++) assertEquals(cnd(price[i] - 1.0) * price[i], call[i], 1e-12, "call[" + i + "]");
    }

    @ParameterizedTest
    @MethodSource("devices")
    void tornadoMathInFloat(Device device) throws Exception {
        int n = 300;
        FloatArray x = FloatArray.fromArray(random(n, 7)), y = new FloatArray(n);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", TornadoProgramsTest::sigmoid, x, y)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < n; i++) assertEquals(1.0 / (1.0 + Math.exp(-x.get(i))), y.get(i), 1e-6, "y[" + i + "]");
    }

    @ParameterizedTest
    @MethodSource("devices")
    void kernelContextWithAGridScheduler(Device device) throws Exception {
        int n = 1024;
        IntArray a = new IntArray(n), b = new IntArray(n), c = new IntArray(n);
        for (int i = 0; i < n; i++) {
            a.set(i, i);
            b.set(i, 3 * i - 7);
        }
        KernelContext context = new KernelContext();
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("t0", TornadoProgramsTest::contextAdd, context, a, b, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        WorkerGrid grid = new WorkerGrid1D(n);
        grid.setLocalWork(64, 1, 1);
        GridScheduler scheduler = new GridScheduler("s0.t0", grid);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).withGridScheduler(scheduler).execute();
        }
        for (int i = 0; i < n; i++) assertEquals(4 * i - 7, c.get(i), "c[" + i + "]");
    }

    @ParameterizedTest
    @MethodSource("devices")
    void kernelContextInTheLastPosition(Device device) throws Exception {
        int n = 300;
        DoubleArray x = new DoubleArray(n);
        for (int i = 0; i < n; i++) x.set(i, i * 0.5);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
                .task("t0", TornadoProgramsTest::contextScale, x, 3.0, new KernelContext())
                .transferToHost(DataTransferMode.EVERY_EXECUTION, x);
        GridScheduler scheduler = new GridScheduler();
        scheduler.addWorkerGrid("s0.t0", new WorkerGrid1D(320));
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).withGridScheduler(scheduler).execute();
        }
        for (int i = 0; i < n; i++) assertEquals(i * 1.5, x.get(i), 0.0, "x[" + i + "]");
    }

    @ParameterizedTest
    @MethodSource("devices")
    void transposeOnA2DGrid(Device device) throws Exception {
        int rows = 37, cols = 53;
        FloatArray in = FloatArray.fromArray(random(rows * cols, 8)), out = new FloatArray(rows * cols);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, in)
                .task("t0", TornadoProgramsTest::transpose2D, new KernelContext(), in, out, rows, cols)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        WorkerGrid grid = new WorkerGrid2D(64, 48);
        grid.setLocalWork(16, 16, 1);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).withGridScheduler(new GridScheduler("s0.t0", grid)).execute();
        }
        for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) assertEquals(in.get(i * cols + j), out.get(j * rows + i), 0f);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void localMemoryGroupSums(Device device) throws Exception {
        int groups = 16, local = 256, n = groups * local;
        FloatArray a = FloatArray.fromArray(random(n, 9)), partial = new FloatArray(groups);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t0", TornadoProgramsTest::groupSums, new KernelContext(), a, partial)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partial);
        WorkerGrid grid = new WorkerGrid1D(n);
        grid.setLocalWork(local, 1, 1);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).withGridScheduler(new GridScheduler("s0.t0", grid)).execute();
        }
        for (int gi = 0; gi < groups; gi++) {
            double s = 0;
            for (int i = 0; i < local; i++) s += a.get(gi * local + i);
            assertEquals(s, partial.get(gi), 1e-4, "group " + gi);
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void atomicHistogram(Device device) throws Exception {
        int n = 4096, bins = 10;
        IntArray data = new IntArray(n), hist = new IntArray(bins);
        int[] expected = new int[bins];
        Random r = new Random(10);
        for (int i = 0; i < n; i++) {
            data.set(i, r.nextInt(bins));
            expected[data.get(i)]++;
        }
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, data, hist)
                .task("t0", TornadoProgramsTest::histogram, new KernelContext(), data, hist)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, hist);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).withGridScheduler(new GridScheduler("s0.t0", new WorkerGrid1D(n))).execute();
        }
        assertArrayEquals(expected, hist.toHeapArray());
    }

    @ParameterizedTest
    @MethodSource("devices")
    void aTaskWithoutAParallelLoopRunsOnce(Device device) throws Exception {
        int[] a = new int[100], out = new int[100];
        for (int i = 0; i < a.length; i++) a[i] = i % 7 - 3;
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t0", TornadoProgramsTest::prefixSum, a, out)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        int[] expected = new int[100];
        prefixSum(a, expected);
        assertArrayEquals(expected, out);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void longJavaArrayUpdatedInPlace(Device device) throws Exception {
        long[] x = new long[257];
        for (int i = 0; i < x.length; i++) x[i] = i - 100;
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", TornadoProgramsTest::square, x)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, x);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < x.length; i++) assertEquals((long) (i - 100) * (i - 100), x[i]);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void twoTasksInOneGraph(Device device) throws Exception {
        int n = 200;
        FloatArray x = FloatArray.fromArray(random(n, 11)), y = new FloatArray(n);
        float[] x0 = x.toHeapArray();
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", TornadoProgramsTest::addOne, x)
                .task("t1", TornadoProgramsTest::mulTwo, x, y)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < n; i++) assertEquals(2f * (x0[i] + 1f), y.get(i), 0f);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void twoGraphsShareDeviceData(Device device) throws Exception {
        int n = 333;
        FloatArray x = FloatArray.fromArray(random(n, 12)), y = new FloatArray(n);
        float[] x0 = x.toHeapArray();
        TaskGraph producer = new TaskGraph("producer")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("t0", TornadoProgramsTest::addOne, x);
        TaskGraph consumer = new TaskGraph("consumer")
                .task("t0", TornadoProgramsTest::mulTwo, x, y)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(producer.snapshot(), consumer.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < n; i++) assertEquals(2f * (x0[i] + 1f), y.get(i), 0f);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void matrixAndVectorTypesOnTheHost(Device device) throws Exception {
        int rows = 20, cols = 30;
        Matrix2DFloat m = new Matrix2DFloat(rows, cols);
        for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) m.set(i, j, i + 0.25f * j);
        FloatArray s = new FloatArray(rows);
        for (int i = 0; i < rows; i++) s.set(i, i % 3 - 1);
        VectorFloat4 a = new VectorFloat4(64), b = new VectorFloat4(64);
        for (int i = 0; i < 64; i++) {
            a.set(i, new Float4(i, 1, -i, 0.5f));
            b.set(i, new Float4(1, i, 2, 4));
        }
        FloatArray dots = new FloatArray(64);
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, m.getArray(), s, a.getArray(), b.getArray())
                .task("t0", TornadoProgramsTest::rowScale, m.getArray(), s, rows, cols)
                .task("t1", TornadoProgramsTest::dot4, a.getArray(), b.getArray(), dots, 64)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, m.getArray(), dots);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device)).execute();
        }
        for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) assertEquals((i + 0.25f * j) * (i % 3 - 1), m.get(i, j), 0f);
        for (int i = 0; i < 64; i++) assertEquals(Float4.dot(a.get(i), b.get(i)), dots.get(i), 0f);
    }

    @ParameterizedTest
    @MethodSource("devices")
    void everyExecutionCopiesJavaArraysAgain(Device device) throws Exception {
        int n = 64;
        float[] a = new float[n], b = new float[n], c = new float[n];
        TaskGraph g = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
                .task("t0", TornadoProgramsTest::vectorAdd, a, b, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withDevice(tornado(device));
            for (int round = 1; round <= 3; round++) {
                for (int i = 0; i < n; i++) {
                    a[i] = round * i;
                    b[i] = -i;
                }
                plan.execute();
                for (int i = 0; i < n; i++) assertEquals((round - 1) * i, c[i], 0f, "round " + round + ", c[" + i + "]");
            }
        }
    }
}
