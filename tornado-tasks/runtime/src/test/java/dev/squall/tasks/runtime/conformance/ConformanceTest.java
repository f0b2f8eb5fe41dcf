package dev.squall.tasks.runtime.conformance;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.*;
import dev.squall.tasks.runtime.testing.Compare;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Runs every conformance kernel on every device present and compares the result with the plain
 * Java reference and with the JVM backend's result. Inputs are random with fixed seeds, sizes
 * are not multiples of any work-group size, and outputs are poisoned before each run.
 */
class ConformanceTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** Runs one task on {@code device} and on the JVM; returns both outputs as produced by {@code read}. */
    private static <T> List<T> onDeviceAndJvm(Device device, Function<Device, T> run) {
        return List.of(run.apply(device), run.apply(Devices.jvm()));
    }

    private static ExecutionPlan plan(Device d, TaskGraph g) {
        return new ExecutionPlan(g.snapshot()).withDevice(d);
    }

    private static DoubleArray doubles(double[] v) {
        return DoubleArray.fromArray(v);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void loop1dDoubleWithDeviceFunction(Device device) {
        int n = 1037;
        double[] x = new SplittableRandom(1).doubles(n, -2, 2).toArray();
        List<double[]> r = onDeviceAndJvm(device, d -> {
            DoubleArray in = doubles(x), out = new DoubleArray(n);
            out.init(Double.NaN);
            try (ExecutionPlan p = plan(d, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in, out)
                    .task("t", ConformanceKernels::polyMap, in, out, n).transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
                p.execute();
            }
            return out.toHeapArray();
        });
        Compare.close("polyMap on " + device.id(), ConformanceReference.polyMap(x), r.get(0), 1e-14);
        Compare.close("polyMap " + device.id() + " vs jvm", r.get(1), r.get(0), 1e-14);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void floatFunctions(Device device) {
        int n = 777;
        float[] x = new float[n];
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < n; i++) x[i] = (float) rnd.nextDouble(0.01, 4);
        List<float[]> r = onDeviceAndJvm(device, d -> {
            FloatArray in = FloatArray.fromArray(x), out = new FloatArray(n);
            out.init(Float.NaN);
            try (ExecutionPlan p = plan(d, new TaskGraph("g").task("t", ConformanceKernels::floatMath, in, out, n)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
                p.execute();
            }
            return out.toHeapArray();
        });
        Compare.close("floatMath on " + device.id(), ConformanceReference.floatMath(x), r.get(0), 2e-5);
        Compare.close("floatMath " + device.id() + " vs jvm", r.get(1), r.get(0), 2e-5);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void everyMathFunctionInDouble(Device device) {
        int n = 301;
        double[] x = new SplittableRandom(3).doubles(n, -0.99, 0.99).toArray();
        List<double[]> r = onDeviceAndJvm(device, d -> {
            DoubleArray in = doubles(x), out = new DoubleArray(n * 24L);
            out.init(Double.NaN);
            try (ExecutionPlan p = plan(d, new TaskGraph("g").task("t", ConformanceKernels::doubleMath, in, out, n)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
                p.execute();
            }
            return out.toHeapArray();
        });
        Compare.close("doubleMath on " + device.id(), ConformanceReference.doubleMath(x), r.get(0), 1e-13);
        Compare.close("doubleMath " + device.id() + " vs jvm", r.get(1), r.get(0), 1e-13);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void integerBitsShiftsAndDivision(Device device) {
        int n = 1111;
        SplittableRandom rnd = new SplittableRandom(4);
        int[] a = new int[n];
        long[] b = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i % 17 == 0 ? 0 : rnd.nextInt();
            b[i] = i % 19 == 0 ? 0 : i % 23 == 0 ? Long.MIN_VALUE : rnd.nextLong();
        }
        List<long[]> r = onDeviceAndJvm(device, d -> {
            IntArray ia = IntArray.fromArray(a);
            LongArray lb = LongArray.fromArray(b), out = new LongArray(n);
            out.init(0xdeadbeefL);
            try (ExecutionPlan p = plan(d, new TaskGraph("g").task("t", ConformanceKernels::bits, ia, lb, out, n)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
                p.execute();
            }
            return out.toHeapArray();
        });
        Compare.exact("bits on " + device.id(), ConformanceReference.bits(a, b), r.get(0));
        Compare.exact("bits " + device.id() + " vs jvm", r.get(1), r.get(0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void loop2dMatmul(Device device) {
        int m = 37, n = 29, k = 41;
        SplittableRandom rnd = new SplittableRandom(5);
        double[] a = rnd.doubles((long) m * k, -1, 1).toArray(), b = rnd.doubles((long) k * n, -1, 1).toArray();
        DoubleArray da = doubles(a), db = doubles(b), dc = new DoubleArray((long) m * n);
        dc.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, da, db)
                .task("t", ConformanceKernels::matmul, da, db, dc, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, dc))) {
            p.execute();
        }
        Compare.close("matmul on " + device.id(), ConformanceReference.matmul(a, b, m, n, k), dc.toHeapArray(), 1e-13);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void loop3dWithInclusiveBound(Device device) {
        int nx = 19, ny = 7, nz = 5;
        LongArray out = new LongArray((long) nx * ny * nz);
        out.init(-1);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::grid3, out, nx, ny, nz)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.execute();
        }
        Compare.exact("grid3 on " + device.id(), ConformanceReference.grid3(nx, ny, nz), out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void controlFlowPrivateArraysAndSmallTypes(Device device) {
        int n = 999;
        SplittableRandom rnd = new SplittableRandom(6);
        int[] in = new int[n];
        for (int i = 0; i < n; i++) in[i] = rnd.nextInt(-6000, 6000);
        for (boolean negate : new boolean[] {false, true}) {
            IntArray a = IntArray.fromArray(in), out = new IntArray(n);
            ByteArray flags = new ByteArray(n);
            ShortArray shorts = new ShortArray(n);
            out.init(Integer.MIN_VALUE);
            flags.init((byte) 7);
            shorts.init((short) -1);
            try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::control, a, out, flags, shorts, negate, n)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, out, flags, shorts))) {
                p.execute();
            }
            int[][] ref = ConformanceReference.control(in, negate);
            int[] f = new int[n], s = new int[n];
            for (int i = 0; i < n; i++) {
                f[i] = flags.get(i);
                s[i] = shorts.get(i);
            }
            Compare.exact("control out on " + device.id(), ref[0], out.toHeapArray());
            Compare.exact("control flags on " + device.id(), ref[1], f);
            Compare.exact("control shorts on " + device.id(), ref[2], s);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void longLoopIndex(Device device) {
        int n = 2049;
        float[] x = new float[n];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < n; i++) x[i] = (float) rnd.nextDouble();
        long offset = 5_000_000_000L;
        FloatArray in = FloatArray.fromArray(x), out = new FloatArray(n);
        out.init(Float.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::longIndex, in, out, (long) n, offset)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.execute();
        }
        Compare.close("longIndex on " + device.id(), ConformanceReference.longIndex(x, offset), out.toHeapArray(), 1e-6);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void localMemoryAndBarriers(Device device) {
        int n = 256 * 9 + 100, groups = 10;
        double[] x = new SplittableRandom(8).doubles(n, 0, 1).toArray();
        DoubleArray in = doubles(x), sums = new DoubleArray(groups);
        sums.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::blockSum, new KernelContext(), in, sums, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, sums))) {
            p.withGrid("t", WorkerGrid.of(256L * groups).withLocal(256)).execute();
        }
        Compare.close("blockSum on " + device.id(), ConformanceReference.blockSums(x, 256), sums.toHeapArray(), 1e-13);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncCopiedTilesMultiplyLikeThePlainProduct(Device device) {
        int t = ConformanceKernels.AT;
        int[][] sizes = {{8, 8, 8}, {13, 21, 10}, {33, 7, 29}, {5, 3, 1}};
        for (int[] mnk : sizes) {
            int m = mnk[0], n = mnk[1], k = mnk[2];
            SplittableRandom rnd = new SplittableRandom(31L * m + n + 7L * k);
            double[] a = rnd.doubles((long) m * k, -1, 1).toArray(), b = rnd.doubles((long) k * n, -1, 1).toArray();
            DoubleArray da = doubles(a), db = doubles(b), dc = new DoubleArray((long) m * n);
            dc.init(Double.NaN);
            try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, da, db, dc)
                    .task("t", ConformanceKernels::tiledMatmulAsync, new KernelContext(), da, db, dc, m, n, k)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, dc))) {
                long gx = (long) (m + t - 1) / t * t, gy = (long) (n + t - 1) / t * t;
                p.withGrid("t", WorkerGrid.of(gx, gy).withLocal(t, t)).execute();
            }
            Compare.close("tiledMatmulAsync " + m + "x" + n + "x" + k + " on " + device.id(), ConformanceReference.matmul(a, b, m, n, k),
                    dc.toHeapArray(), 1e-13);
        }
    }

    /** Element (r, c) of a tile stage as tileCopyPipelined/tileCopyTypes must leave it; {@code x} null: not written. */
    private static double expectedTileElement(double[] x, long off, int ld, int rows, int cols, int srcRows, int srcCols, int r, int c) {
        if (r >= rows || c >= cols) return ConformanceKernels.UNTOUCHED;
        return r < srcRows && c < srcCols ? x[(int) (off + (long) r * ld + c)] : 0;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncTileCopiesThroughAPipelineLandWhereTheyShould(Device device) {
        // {rows, cols, ld, off, srcRows, srcCols, tiles, group}: 16-byte aligned chunks (even ld and offset), odd strides
        // and offsets (element copies), odd widths (a partial last chunk), edges past srcRows and srcCols, more tiles
        // than stages and fewer, groups smaller than a tile's chunks
        int[][] cases = {{16, 16, 16, 0, 64, 16, 4, 64}, {16, 20, 38, 2, 50, 17, 5, 32}, {7, 5, 11, 3, 30, 4, 5, 64}, {16, 9, 64, 0, 40, 9, 4, 32},
                {3, 19, 19, 1, 3, 19, 1, 64}, {9, 12, 12, 6, 20, 0, 3, 128}};
        for (int[] cs : cases) {
            int rows = cs[0], cols = cs[1], ld = cs[2], off = cs[3], srcRows = cs[4], srcCols = cs[5], tiles = cs[6], group = cs[7], groups = 2;
            double[] x = new SplittableRandom(rows * 131L + cols).doubles((long) off + (long) tiles * rows * ld + ld, 1, 2).toArray();
            DoubleArray dx = doubles(x), out = new DoubleArray((long) groups * tiles * ConformanceKernels.TS);
            out.init(Double.NaN);
            try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, dx, out)
                    .task("t", ConformanceKernels::tileCopyPipelined, new KernelContext(), dx, out, (long) off, ld, rows, cols, srcRows, srcCols, tiles)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
                p.withGrid("t", WorkerGrid.of((long) groups * group).withLocal(group)).execute();
            }
            double[] expected = new double[groups * tiles * ConformanceKernels.TS];
            for (int g = 0; g < groups; g++) {
                for (int t = 0; t < tiles; t++) {
                    for (int r = 0; r < 16; r++) {
                        for (int c = 0; c < ConformanceKernels.TS_LD; c++) {
                            expected[(g * tiles + t) * ConformanceKernels.TS + r * ConformanceKernels.TS_LD + c] =
                                    expectedTileElement(x, off + (long) t * rows * ld, ld, rows, cols, srcRows - t * rows, srcCols, r, c);
                        }
                    }
                }
            }
            assertArrayEquals(expected, out.toHeapArray(), "tileCopyPipelined " + Arrays.toString(cs) + " on " + device.id());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncTileCopiesOfFloatIntAndLong(Device device) {
        // {rows, cols, ld, off, srcRows, srcCols}: float/int chunks of 4 (aligned with ld and offset multiples of 4), long of 2
        int[][] cases = {{16, 20, 24, 4, 16, 20}, {5, 7, 9, 1, 4, 6}, {12, 18, 18, 2, 12, 13}};
        for (int[] cs : cases) {
            int rows = cs[0], cols = cs[1], ld = cs[2], off = cs[3], srcRows = cs[4], srcCols = cs[5];
            int len = off + rows * ld;
            SplittableRandom rnd = new SplittableRandom(len);
            float[] f = new float[len];
            int[] iv = new int[len];
            long[] lv = new long[len];
            double[] fd = new double[len], id = new double[len], ldv = new double[len];
            for (int q = 0; q < len; q++) {
                f[q] = (float) rnd.nextDouble(1, 2);
                iv[q] = rnd.nextInt(1, 1000);
                lv[q] = rnd.nextLong(1, 1L << 40);
                fd[q] = f[q];
                id[q] = iv[q];
                ldv[q] = lv[q];
            }
            FloatArray df = FloatArray.fromArray(f), fo = new FloatArray(ConformanceKernels.TS);
            IntArray di = IntArray.fromArray(iv), io = new IntArray(ConformanceKernels.TS);
            LongArray dl = LongArray.fromArray(lv), lo = new LongArray(ConformanceKernels.TS);
            try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, df, di, dl)
                    .task("t", ConformanceKernels::tileCopyTypes, new KernelContext(), df, di, dl, fo, io, lo, (long) off, ld, rows, cols, srcRows, srcCols)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, fo, io, lo))) {
                p.withGrid("t", WorkerGrid.of(64).withLocal(64)).execute();
            }
            float[] ef = new float[ConformanceKernels.TS];
            int[] ei = new int[ConformanceKernels.TS];
            long[] el = new long[ConformanceKernels.TS];
            for (int r = 0; r < 16; r++) {
                for (int c = 0; c < ConformanceKernels.TS_LD; c++) {
                    int q = r * ConformanceKernels.TS_LD + c;
                    boolean inside = r < rows && c < cols;
                    ef[q] = (float) expectedTileElement(fd, off, ld, rows, cols, srcRows, srcCols, r, c);
                    ei[q] = inside ? (int) expectedTileElement(id, off, ld, rows, cols, srcRows, srcCols, r, c) : -7;
                    el[q] = inside ? (long) expectedTileElement(ldv, off, ld, rows, cols, srcRows, srcCols, r, c) : -7;
                }
            }
            String what = Arrays.toString(cs) + " on " + device.id();
            assertArrayEquals(ef, fo.toHeapArray(), "float tile " + what);
            assertArrayEquals(ei, io.toHeapArray(), "int tile " + what);
            assertArrayEquals(el, lo.toHeapArray(), "long tile " + what);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void asyncCopiedHalosGiveThePlainStencil(Device device) {
        int group = ConformanceKernels.ST;
        for (int n : new int[] {1, 64, 65, 1000}) {
            SplittableRandom rnd = new SplittableRandom(n);
            float[] x = new float[n];
            int[] w = new int[n];
            long[] o = new long[n];
            for (int i = 0; i < n; i++) {
                x[i] = (float) rnd.nextDouble(-1, 1);
                w[i] = rnd.nextInt(-5, 6);
                o[i] = rnd.nextLong(-1000, 1000);
            }
            FloatArray dx = FloatArray.fromArray(x), dy = new FloatArray(n);
            IntArray dw = IntArray.fromArray(w);
            LongArray dout = LongArray.fromArray(o);
            dy.init(Float.NaN);
            try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, dx, dw, dout, dy)
                    .task("t", ConformanceKernels::stencilAsync, new KernelContext(), dx, dw, dout, dy, n)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, dy))) {
                p.withGrid("t", WorkerGrid.of((long) (n + group - 1) / group * group).withLocal(group)).execute();
            }
            Compare.close("stencilAsync n=" + n + " on " + device.id(), ConformanceReference.stencil(x, w, o), dy.toHeapArray(), 1e-6);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void everyGlobalAtomic(Device device) {
        int n = 3000;
        SplittableRandom rnd = new SplittableRandom(9);
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) keys[i] = rnd.nextInt(-500, 500);
        IntArray k = IntArray.fromArray(keys), ih = new IntArray(16), imax = new IntArray(32), counter = new IntArray(1), order = new IntArray(32);
        LongArray lh = new LongArray(16), lmin = new LongArray(32);
        FloatArray fs = new FloatArray(16);
        DoubleArray ds = new DoubleArray(16);
        for (int b = 0; b < 16; b++) {
            imax.set(b, Integer.MIN_VALUE);
            imax.set(16 + b, Integer.MAX_VALUE);
            lmin.set(b, Long.MAX_VALUE);
            lmin.set(16 + b, Long.MIN_VALUE);
        }
        order.init(-1);
        try (ExecutionPlan p = plan(device, new TaskGraph("g")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, k, ih, lh, fs, ds, imax, lmin, counter, order)
                .task("t", ConformanceKernels::atomics, new KernelContext(), k, ih, lh, fs, ds, imax, lmin, counter, order, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, ih, lh, fs, ds, imax, lmin, counter, order))) {
            p.withGrid("t", WorkerGrid.of(3072).withLocal(128)).execute();
        }
        int[] eh = new int[16], emax = new int[32];
        long[] elh = new long[16], elmin = new long[32];
        double[] efs = new double[16], eds = new double[16];
        for (int b = 0; b < 16; b++) {
            emax[b] = Integer.MIN_VALUE;
            emax[16 + b] = Integer.MAX_VALUE;
            elmin[b] = Long.MAX_VALUE;
            elmin[16 + b] = Long.MIN_VALUE;
        }
        for (int key : keys) {
            int b = key & 15;
            eh[b]++;
            elh[b] += key;
            efs[b] += 0.5;
            eds[b] += key * 0.25;
            emax[b] = Math.max(emax[b], key);
            emax[16 + b] = Math.min(emax[16 + b], key);
            elmin[b] = Math.min(elmin[b], key * 3L);
            elmin[16 + b] = Math.max(elmin[16 + b], key * 3L);
        }
        Compare.exact("atomic int add", eh, ih.toHeapArray());
        Compare.exact("atomic long add", elh, lh.toHeapArray());
        Compare.close("atomic float add", efs, toDouble(fs.toHeapArray()), 0);
        Compare.close("atomic double add", eds, ds.toHeapArray(), 0);
        Compare.exact("atomic int max/min", emax, imax.toHeapArray());
        Compare.exact("atomic long min/max", elmin, lmin.toHeapArray());
        assertEquals(n, counter.get(0), "atomic counter");
        for (int b = 0; b < 16; b++) {
            int first = order.get(b), second = order.get(16 + b);
            assertTrue(first >= 0 && first < n && (keys[first] & 15) == b, "CAS winner of bin " + b + " is " + first);
            if (eh[b] > 1) {
                assertTrue(second >= 0 && second < n && second != first && (keys[second] & 15) == b, "second CAS of bin " + b + " is " + second);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void localAtomics(Device device) {
        int n = 1000;
        SplittableRandom rnd = new SplittableRandom(10);
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) keys[i] = rnd.nextInt(0, 1 << 20);
        IntArray k = IntArray.fromArray(keys), hist = new IntArray(16);
        DoubleArray w = new DoubleArray(16);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, k, hist, w)
                .task("t", ConformanceKernels::localHistogram, new KernelContext(), k, hist, w, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, hist, w))) {
            p.withGrid("t", WorkerGrid.of(1024).withLocal(64)).execute();
        }
        int[] eh = new int[16];
        double[] ew = new double[16];
        for (int key : keys) {
            eh[key & 15]++;
            ew[key & 15] += 0.5;
        }
        Compare.exact("local histogram", eh, hist.toHeapArray());
        Compare.close("local weights", ew, w.toHeapArray(), 0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void subgroupShufflesAndReductions(Device device) {
        int n = 64 * 5;
        SplittableRandom rnd = new SplittableRandom(11);
        float[] x = new float[n];
        double[] y = rnd.doubles(n, -1, 1).toArray();
        int[] z = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) rnd.nextDouble(-1, 1);
            z[i] = rnd.nextInt(-1000, 1000);
        }
        FloatArray fx = FloatArray.fromArray(x);
        DoubleArray dy = doubles(y), out = new DoubleArray(n / 32 * 3);
        IntArray iz = IntArray.fromArray(z), sizes = new IntArray(1);
        out.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::subgroups, new KernelContext(), fx, dy, iz, out, sizes)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, dy, out, sizes))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        assertEquals(32, sizes.get(0), "sub-group size with 64-wide groups");
        double[] exp = new double[n / 32 * 3];
        for (int i = 0; i < n; i++) {
            exp[i / 32 * 3] += x[i];
            exp[i / 32 * 3 + 1] += y[i];
            exp[i / 32 * 3 + 2] += z[i];
        }
        Compare.close("sub-group sums on " + device.id(), exp, out.toHeapArray(), 1e-5);
        double[] swapped = new double[n];
        for (int i = 0; i < n; i++) swapped[i] = y[i ^ 1];
        Compare.close("shuffleXor on " + device.id(), swapped, dy.toHeapArray(), 0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void spmd2dIds(Device device) {
        int w = 48, h = 20;
        IntArray out = new IntArray((long) w * h);
        out.init(-1);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::ids2d, new KernelContext(), out, w)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.withGrid("t", WorkerGrid.of(w, h).withLocal(16, 4)).execute();
        }
        int[] exp = new int[w * h];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) exp[y * w + x] = x + 1000 * y + 7 * (x / 16) + 11 * (y / 4) + 13 * (y % 4) + 17 * 4 + 19 * h + w;
        Compare.exact("ids2d on " + device.id(), exp, out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void deviceFunctionsTakeLocalAndPrivateArrays(Device device) {
        int n = 300, local = 64, groups = (n + local - 1) / local;
        double[] x = new SplittableRandom(13).doubles(n, -1, 1).toArray();
        DoubleArray in = doubles(x), out = new DoubleArray(groups);
        out.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::arrayHelpers, new KernelContext(), in, out, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.withGrid("t", WorkerGrid.of((long) groups * local).withLocal(local)).execute();
        }
        double[] exp = new double[groups];
        for (int g = 0; g < groups; g++) {
            double v0 = x[g * local];
            for (int k = g * local; k < Math.min(n, (g + 1) * local); k++) exp[g] += x[k];
            exp[g] += 1 + 2 * v0 + 3 * v0 * v0;
        }
        Compare.close("arrayHelpers on " + device.id(), exp, out.toHeapArray(), 1e-12);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void multiplyHighSignedAndUnsigned(Device device) {
        int n = 517;
        SplittableRandom rnd = new SplittableRandom(14);
        long[] a = new long[n], b = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i < 4 ? new long[] {Long.MIN_VALUE, -1L, Long.MAX_VALUE, 3L}[i] : rnd.nextLong();
            b[i] = i < 4 ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1L, -7L}[i] : rnd.nextLong();
        }
        LongArray la = LongArray.fromArray(a), lb = LongArray.fromArray(b), out = new LongArray(2L * n);
        out.init(0x5555555555555555L);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::multiplyHigh, la, lb, out, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.execute();
        }
        long[] exp = new long[2 * n];
        for (int i = 0; i < n; i++) {
            // independent of Math: the high word of the exact product through BigInteger
            java.math.BigInteger x = java.math.BigInteger.valueOf(a[i]), y = java.math.BigInteger.valueOf(b[i]);
            exp[2 * i] = x.multiply(y).shiftRight(64).longValue();
            java.math.BigInteger ux = x.and(java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE));
            java.math.BigInteger uy = y.and(java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE));
            exp[2 * i + 1] = ux.multiply(uy).shiftRight(64).longValue();
        }
        Compare.exact("multiplyHigh on " + device.id(), exp, out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void globalFenceLetsTheLastGroupFinish(Device device) {
        int n = 64 * 37 - 5, local = 64, groups = (n + local - 1) / local;
        double[] x = new SplittableRandom(15).doubles(n, 0, 1).toArray();
        DoubleArray in = doubles(x), partials = new DoubleArray(groups), total = new DoubleArray(1);
        IntArray counter = new IntArray(1);
        total.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, in, counter)
                .task("t", ConformanceKernels::lastGroupSum, new KernelContext(), in, partials, counter, total, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, total, counter))) {
            p.withGrid("t", WorkerGrid.of((long) groups * local).withLocal(local)).execute();
        }
        double exp = 0;
        for (double v : x) exp += v;
        assertEquals(groups, counter.get(0), "every group counted once");
        assertEquals(exp, total.get(0), 1e-9 * exp, "sum written by the last group");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void shuffleFromAGivenLane(Device device) {
        int n = 128;
        double[] x = new SplittableRandom(16).doubles(n, -1, 1).toArray();
        DoubleArray in = doubles(x), broadcast = new DoubleArray(n);
        IntArray rotated = new IntArray(n);
        broadcast.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::laneShuffles, new KernelContext(), in, broadcast, rotated)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, broadcast, rotated))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        double[] eb = new double[n];
        int[] er = new int[n];
        for (int i = 0; i < n; i++) {
            int base = i / 32 * 32;
            eb[i] = x[base + 3];
            er[i] = base + (i % 32 + 5) % 32;
        }
        Compare.close("broadcast from lane 3 on " + device.id(), eb, broadcast.toHeapArray(), 0);
        Compare.exact("rotation by 5 on " + device.id(), er, rotated.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void mmaTilesMatchThePlainProduct(Device device) {
        int warps = 5, kSteps = 3, kk = 4 * kSteps;
        SplittableRandom rnd = new SplittableRandom(16);
        double[] a = rnd.doubles(warps * 8 * kk, -1, 1).toArray();
        double[] b = rnd.doubles(warps * kk * 8, -1, 1).toArray();
        double[] c = rnd.doubles(warps * 64, -1, 1).toArray();
        // 5 sub-groups in groups of 64: the last group's second sub-group works on a padded tile (A, B, C zero there)
        int padded = 6;
        DoubleArray pa = new DoubleArray(padded * 8 * kk), pb = new DoubleArray(padded * kk * 8), pc = new DoubleArray(padded * 64);
        for (int i = 0; i < a.length; i++) pa.set(i, a[i]);
        for (int i = 0; i < b.length; i++) pb.set(i, b[i]);
        for (int i = 0; i < c.length; i++) pc.set(i, c[i]);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, pa, pb, pc)
                .task("t", ConformanceKernels::mmaTiles, new KernelContext(), pa, pb, pc, kSteps)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, pc))) {
            p.withGrid("t", WorkerGrid.of(padded * 32).withLocal(64)).execute();
        }
        double[] exp = tileProducts(warps, 8, kk, a, b, c);
        double[] got = java.util.Arrays.copyOf(pc.toHeapArray(), warps * 64);
        Compare.close("mma8x8x4 tiles on " + device.id(), exp, got, 1e-13);
        assertEquals(0.0, pc.get(warps * 64 + 17), "the padded tile stays zero");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void mma16TilesMatchThePlainProduct(Device device) {
        int warps = 3, kSteps = 5, kk = 4 * kSteps;
        SplittableRandom rnd = new SplittableRandom(17);
        double[] a = rnd.doubles(warps * 16 * kk, -1, 1).toArray();
        double[] b = rnd.doubles(warps * kk * 8, -1, 1).toArray();
        double[] c = rnd.doubles(warps * 128, -1, 1).toArray();
        DoubleArray pa = doubles(a), pb = doubles(b), pc = doubles(c);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, pa, pb, pc)
                .task("t", ConformanceKernels::mmaTiles16, new KernelContext(), pa, pb, pc, kSteps)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, pc))) {
            p.withGrid("t", WorkerGrid.of(warps * 32).withLocal(32)).execute();
        }
        Compare.close("mma16x8x4 tiles on " + device.id(), tileProducts(warps, 16, kk, a, b, c), pc.toHeapArray(), 1e-13);
    }

    /** Per tile w: C + A B with A (rows x kk) and B (kk x 8) row-major, packed tile after tile, as the mma kernels lay them out. */
    private static double[] tileProducts(int tiles, int rows, int kk, double[] a, double[] b, double[] c) {
        double[] exp = new double[tiles * rows * 8];
        for (int w = 0; w < tiles; w++) {
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < 8; j++) {
                    double s = c[(w * rows + i) * 8 + j];
                    for (int k = 0; k < kk; k++) s += a[(w * rows + i) * kk + k] * b[w * kk * 8 + k * 8 + j];
                    exp[(w * rows + i) * 8 + j] = s;
                }
            }
        }
        return exp;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void fastMathIsCloseToPrecise(Device device) {
        int n = 500;
        float[] x = new float[n];
        SplittableRandom rnd = new SplittableRandom(12);
        for (int i = 0; i < n; i++) x[i] = (float) rnd.nextDouble(0, 3);
        FloatArray in = FloatArray.fromArray(x), out = new FloatArray(n);
        out.init(Float.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::fastMath, in, out, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.execute();
        }
        Compare.close("fastMath on " + device.id(), ConformanceReference.fastMath(x), out.toHeapArray(), 2e-3);
    }

    private static double[] toDouble(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }

    // ---- barriers and sub-group operations inside control flow (the JVM runs them by work-group fission) ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void barrierInsideAUniformLoop(Device device) {
        int groups = 5, n = 64 * groups, steps = 7;
        long[] x = new SplittableRandom(41).longs(n, -1000, 1000).toArray();
        LongArray in = LongArray.fromArray(x), out = new LongArray(n);
        out.init(Long.MIN_VALUE);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::rotateInLoop, new KernelContext(), in, out, steps)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        Compare.exact("rotateInLoop on " + device.id(), ConformanceReference.rotateInLoop(x, 64, steps), out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void localsLiveAcrossSeveralBarriers(Device device) {
        int groups = 3, n = 64 * groups;
        int[] x = new SplittableRandom(42).ints(n, -100000, 100000).toArray();
        IntArray in = IntArray.fromArray(x), out = new IntArray(n);
        out.init(Integer.MIN_VALUE);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::liveAcrossBarriers, new KernelContext(), in, out)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        Compare.exact("liveAcrossBarriers on " + device.id(), ConformanceReference.liveAcrossBarriers(x, 64), out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void nestedLoopsWithBarriers(Device device) {
        int groups = 4, n = 64 * groups, outer = 4, inner = 3;
        long[] x = new SplittableRandom(43).longs(n).toArray();
        LongArray in = LongArray.fromArray(x), out = new LongArray(n);
        out.init(0);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::nestedLoopBarriers, new KernelContext(), in, out, outer, inner)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        Compare.exact("nestedLoopBarriers on " + device.id(), ConformanceReference.nestedLoopBarriers(x, 64, outer, inner), out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void localMemoryTiledGemm(Device device) {
        int n = 48;
        SplittableRandom rnd = new SplittableRandom(44);
        double[] a = rnd.doubles(n * n, -1, 1).toArray(), b = rnd.doubles(n * n, -1, 1).toArray();
        DoubleArray da = doubles(a), db = doubles(b), dc = new DoubleArray(n * n);
        dc.init(Double.NaN);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::tiledGemm, new KernelContext(), da, db, dc, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, dc))) {
            p.withGrid("t", WorkerGrid.of(n, n).withLocal(16, 16)).execute();
        }
        Compare.close("tiledGemm on " + device.id(), ConformanceReference.gemm(a, b, n), dc.toHeapArray(), 1e-13);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void treeReductionWithABarrierPerStep(Device device) {
        int groups = 6, n = 64 * groups;
        long[] x = new SplittableRandom(45).longs(n, -1L << 40, 1L << 40).toArray();
        LongArray in = LongArray.fromArray(x), out = new LongArray(2 * groups);
        out.init(Long.MIN_VALUE);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::treeReduceSteps, new KernelContext(), in, out)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        Compare.exact("treeReduceSteps on " + device.id(), ConformanceReference.treeReduceSteps(x, 64), out.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void subgroupReductionsInsideALoop(Device device) {
        int n = 64 * 3, rounds = 4;
        double[] x = new SplittableRandom(46).doubles(n, -1, 1).toArray();
        DoubleArray in = doubles(x), out = new DoubleArray(n);
        IntArray counts = new IntArray(n);
        out.init(Double.NaN);
        counts.init(-1);
        try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::subgroupRounds, new KernelContext(), in, out, counts, rounds)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out, counts))) {
            p.withGrid("t", WorkerGrid.of(n).withLocal(64)).execute();
        }
        Compare.close("subgroupRounds on " + device.id(), ConformanceReference.subgroupRounds(x, rounds), out.toHeapArray(), 1e-13);
        int[] lanes = new int[n];
        java.util.Arrays.fill(lanes, 31 * 32 / 2);
        Compare.exact("sub-group sums of lane ids on " + device.id(), lanes, counts.toHeapArray());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void volatileLoadsSeeValuesOtherWorkGroupsPublish(Device device) {
        // predecessors: the previous item (one chain through every group), up to 300 back (waits across groups), none
        int n = 1000;
        SplittableRandom rnd = new SplittableRandom(41);
        double[] x = rnd.doubles(n, -1, 1).toArray();
        for (int shape = 0; shape < 3; shape++) {
            int[] pred = new int[n];
            for (int k = 0; k < n; k++) pred[k] = shape == 0 ? k - 1 : shape == 1 ? (k == 0 ? -1 : k - 1 - rnd.nextInt(Math.min(k, 300))) : -1;
            double[] ed = new double[n];
            float[] ef = new float[n];
            long[] el = new long[n];
            for (int k = 0; k < n; k++) {
                int q = pred[k];
                ed[k] = x[k] + (q >= 0 ? 0.5 * ed[q] : 0);
                ef[k] = (float) x[k] + (q >= 0 ? 0.25f * ef[q] : 0f);
                el[k] = k + (q >= 0 ? el[q] : 0);
            }
            for (int group : new int[] {64, 256}) {
                DoubleArray dout = new DoubleArray(n);
                FloatArray fout = new FloatArray(n);
                LongArray lout = new LongArray(n);
                dout.init(Double.NaN);
                fout.init(Float.NaN);
                lout.init(-7);
                IntArray ready = new IntArray(n), ticket = new IntArray(1);
                try (ExecutionPlan p = plan(device, new TaskGraph("g").task("t", ConformanceKernels::ticketedChain, new KernelContext(),
                                IntArray.fromArray(pred), doubles(x), dout, fout, lout, ready, ticket, n)
                        .transferToHost(DataTransferMode.EVERY_EXECUTION, dout, fout, lout, ready))) {
                    p.withGrid("t", WorkerGrid.of((long) (n + group - 1) / group * group).withLocal(group)).execute();
                }
                String what = "ticketedChain shape " + shape + " group " + group + " on " + device.id();
                Compare.close(what + " (double)", ed, dout.toHeapArray(), 1e-15);
                Compare.close(what + " (float)", toDouble(ef), toDouble(fout.toHeapArray()), 1e-6);
                Compare.exact(what + " (long)", el, lout.toHeapArray());
                int[] ones = new int[n];
                Arrays.fill(ones, 1);
                Compare.exact(what + " (flags)", ones, ready.toHeapArray());
            }
        }
    }
}
