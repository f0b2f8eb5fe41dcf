package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.KernelBuildException;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceEvent;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.KernelArg;
import dev.squall.tasks.runtime.spi.NativeDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Random;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs hand-written CUDA C on a real device. Skipped without one; fails instead when
 * SQUALL_REQUIRE_CUDA=1.
 */
class CudaBackendDeviceTest {
    static final String SOURCE = """
            extern "C" __global__ void vadd(const float* a, long long na, const float* b, long long nb,
                                            float* c, long long nc) {
                long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
                if (i < nc) c[i] = a[i] + b[i];
            }

            extern "C" __global__ void triad(double* a, long long na, const double* b, long long nb,
                                             const double* c, long long nc, double s) {
                long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
                if (i < na) a[i] = b[i] + s * c[i];
            }

            extern "C" __global__ void blocksum(const float* in, long long n, float* out, long long nout) {
                __shared__ float s[256];
                unsigned t = threadIdx.x;
                long long i = (long long)blockIdx.x * blockDim.x + t;
                s[t] = i < n ? in[i] : 0.0f;
                __syncthreads();
                for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
                    if (t < k) s[t] += s[t + k];
                    __syncthreads();
                }
                if (t == 0) out[blockIdx.x] = s[0];
            }

            extern "C" __global__ void scalars(signed char a, short b, int c, long long d, float e, double f,
                                               long long* out, long long nout, double* outd, long long noutd) {
                if (blockIdx.x == 0 && threadIdx.x == 0) {
                    out[0] = a; out[1] = b; out[2] = c; out[3] = d;
                    outd[0] = e; outd[1] = f;
                }
            }
            """;

    @TempDir
    static Path cacheDir;

    static NativeDevice device;
    static DeviceProgram program;

    @BeforeAll
    static void findDevice() {
        device = CudaTestSupport.firstDevice(new BuildCache(cacheDir));
        program = device.build("CudaBackendDeviceTest", SOURCE);
    }

    @AfterAll
    static void closeDevice() {
        if (device != null) device.close();
    }

    private static long roundUp(long n, long block) {
        return (n + block - 1) / block * block;
    }

    /** Fills a device buffer with 0xFF bytes (NaN for float and double, -1 for integers). */
    private static void poison(DeviceBuffer b) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(b.byteSize());
            p.fill((byte) 0xFF);
            device.copyToDevice(p, b, 0, b.byteSize());
        }
    }

    @Test
    void vectorAddOnSizeNotMultipleOfBlock() {
        int n = 1_000_003;
        Random rnd = new Random(42);
        float[] a = new float[n], b = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextFloat() * 100 - 50;
            b[i] = rnd.nextFloat() * 100 - 50;
        }
        long bytes = 4L * n;
        DeviceBuffer da = device.allocate(bytes), db = device.allocate(bytes), dc = device.allocate(bytes);
        try (Arena arena = Arena.ofConfined()) {
            device.copyToDevice(MemorySegment.ofArray(a), da, 0, bytes); // heap segment: staged
            MemorySegment nb = arena.allocate(bytes, 64);
            MemorySegment.copy(b, 0, nb, JAVA_FLOAT, 0, n);
            device.copyToDevice(nb, db, 0, bytes); // native segment: direct
            poison(dc);
            DeviceKernel k = program.kernel("vadd");
            assertTrue(k.resourceReport().contains("registers"), k.resourceReport());
            BoundLaunch launch = k.bind(new KernelArg[] {new KernelArg.Buffer(da), new KernelArg.I64(n),
                    new KernelArg.Buffer(db), new KernelArg.I64(n), new KernelArg.Buffer(dc), new KernelArg.I64(n)});
            launch.launch(new long[] {roundUp(n, 256)}, new long[] {256});
            device.synchronize();
            float[] c = new float[n];
            device.copyToHost(dc, 0, MemorySegment.ofArray(c), bytes);
            for (int i = 0; i < n; i++) assertEquals(a[i] + b[i], c[i], 0.0f, "c[" + i + "]");
            // native destination, offset read of the tail
            MemorySegment tail = arena.allocate(40);
            device.copyToHost(dc, bytes - 40, tail, 40);
            for (int i = 0; i < 10; i++) assertEquals(a[n - 10 + i] + b[n - 10 + i], tail.getAtIndex(JAVA_FLOAT, i), 0.0f);
            launch.release();
        } finally {
            da.release();
            db.release();
            dc.release();
        }
    }

    @Test
    void fp64Triad() {
        int n = 300_007;
        double s = 2.5;
        Random rnd = new Random(7);
        double[] b = new double[n], c = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = rnd.nextDouble() * 2 - 1;
            c[i] = rnd.nextDouble() * 2 - 1;
        }
        long bytes = 8L * n;
        DeviceBuffer da = device.allocate(bytes), db = device.allocate(bytes), dc = device.allocate(bytes);
        try {
            device.copyToDevice(MemorySegment.ofArray(b), db, 0, bytes);
            device.copyToDevice(MemorySegment.ofArray(c), dc, 0, bytes);
            poison(da);
            BoundLaunch launch = program.kernel("triad").bind(new KernelArg[] {new KernelArg.Buffer(da), new KernelArg.I64(n),
                    new KernelArg.Buffer(db), new KernelArg.I64(n), new KernelArg.Buffer(dc), new KernelArg.I64(n),
                    new KernelArg.F64(s)});
            launch.launch(new long[] {roundUp(n, 128)}, new long[] {128});
            device.synchronize();
            double[] a = new double[n];
            device.copyToHost(da, 0, MemorySegment.ofArray(a), bytes);
            for (int i = 0; i < n; i++) {
                double expect = b[i] + s * c[i];
                assertEquals(expect, a[i], 1e-14 * Math.max(1, Math.abs(expect)), "a[" + i + "]");
            }
            launch.release();
        } finally {
            da.release();
            db.release();
            dc.release();
        }
    }

    @Test
    void sharedMemoryBlockSum() {
        int n = 100_000, block = 256;
        int blocks = (int) (roundUp(n, block) / block);
        float[] in = new float[n];
        Random rnd = new Random(3);
        for (int i = 0; i < n; i++) in[i] = rnd.nextInt(16); // small integers: sums are exact in float
        DeviceBuffer din = device.allocate(4L * n), dout = device.allocate(4L * blocks);
        try {
            device.copyToDevice(MemorySegment.ofArray(in), din, 0, 4L * n);
            poison(dout);
            BoundLaunch launch = program.kernel("blocksum").bind(new KernelArg[] {new KernelArg.Buffer(din),
                    new KernelArg.I64(n), new KernelArg.Buffer(dout), new KernelArg.I64(blocks)});
            launch.launch(new long[] {(long) blocks * block}, new long[] {block});
            device.synchronize();
            float[] out = new float[blocks];
            device.copyToHost(dout, 0, MemorySegment.ofArray(out), 4L * blocks);
            for (int g = 0; g < blocks; g++) {
                float expect = 0;
                for (int i = g * block; i < Math.min(n, (g + 1) * block); i++) expect += in[i];
                assertEquals(expect, out[g], 0.0f, "block " + g);
            }
            // relaunching the same bound launch gives the same result (poisoned again first)
            poison(dout);
            launch.launch(new long[] {(long) blocks * block}, new long[] {block});
            device.synchronize();
            float[] again = new float[blocks];
            device.copyToHost(dout, 0, MemorySegment.ofArray(again), 4L * blocks);
            assertArrayEquals(out, again);
            launch.release();
        } finally {
            din.release();
            dout.release();
        }
    }

    @Test
    void scalarArgumentsOfEveryTypeRoundTrip() {
        DeviceBuffer out = device.allocate(8 * 4), outd = device.allocate(8 * 2);
        try (Arena arena = Arena.ofConfined()) {
            poison(out);
            poison(outd);
            BoundLaunch launch = program.kernel("scalars").bind(new KernelArg[] {
                    new KernelArg.I8((byte) -7), new KernelArg.I16((short) -12345), new KernelArg.I32(-123456789),
                    new KernelArg.I64(0x0123456789ABCDEFL), new KernelArg.F32(3.25f), new KernelArg.F64(Math.PI),
                    new KernelArg.Buffer(out), new KernelArg.I64(4), new KernelArg.Buffer(outd), new KernelArg.I64(2)});
            launch.launch(new long[] {32}, new long[] {32});
            device.synchronize();
            MemorySegment l = arena.allocate(32), d = arena.allocate(16);
            device.copyToHost(out, 0, l, 32);
            device.copyToHost(outd, 0, d, 16);
            assertEquals(-7, l.getAtIndex(JAVA_LONG, 0));
            assertEquals(-12345, l.getAtIndex(JAVA_LONG, 1));
            assertEquals(-123456789, l.getAtIndex(JAVA_LONG, 2));
            assertEquals(0x0123456789ABCDEFL, l.getAtIndex(JAVA_LONG, 3));
            assertEquals(3.25, d.getAtIndex(JAVA_DOUBLE, 0));
            assertEquals(Math.PI, d.getAtIndex(JAVA_DOUBLE, 1));
            launch.release();
        } finally {
            out.release();
            outd.release();
        }
    }

    @Test
    void buildErrorCarriesNvrtcLogAndSource() {
        String bad = """
                extern "C" __global__ void broken(float* x) {
                    x[0] = undefined_name_42;
                }
                """;
        KernelBuildException e = assertThrows(KernelBuildException.class, () -> device.build("Broken", bad));
        assertTrue(e.log().contains("undefined_name_42"), e.log());
        assertEquals(bad, e.source());
        assertTrue(e.getMessage().contains("Broken") && e.getMessage().contains(device.info().id()), e.getMessage());
        assertTrue(e.getMessage().contains("generated source"), e.getMessage());
    }

    @Test
    void secondBuildIsACacheHit(@TempDir Path freshCache) {
        NativeDevice d = CudaTestSupport.firstDevice(new BuildCache(freshCache));
        try {
            String src = SOURCE + "\n// cache test\n";
            DeviceProgram first = d.build("CacheTest", src);
            assertFalse(first.fromCache());
            assertTrue(first.buildMillis() > 0);
            DeviceProgram second = d.build("CacheTest", src);
            assertTrue(second.fromCache());
            assertEquals(0.0, second.buildMillis());
            // the cached binary works
            DeviceBuffer out = d.allocate(32), outd = d.allocate(16);
            try (Arena arena = Arena.ofConfined()) {
                BoundLaunch launch = second.kernel("scalars").bind(new KernelArg[] {
                        new KernelArg.I8((byte) 1), new KernelArg.I16((short) 2), new KernelArg.I32(3), new KernelArg.I64(4),
                        new KernelArg.F32(5f), new KernelArg.F64(6), new KernelArg.Buffer(out), new KernelArg.I64(4),
                        new KernelArg.Buffer(outd), new KernelArg.I64(2)});
                launch.launch(new long[] {1}, new long[] {1});
                d.synchronize();
                MemorySegment l = arena.allocate(32);
                d.copyToHost(out, 0, l, 32);
                assertEquals(4, l.getAtIndex(JAVA_LONG, 3));
                launch.release();
            } finally {
                out.release();
                outd.release();
            }
        } finally {
            d.close();
        }
    }

    @Test
    void hugeAllocationIsOutOfMemoryWithSizes() {
        long huge = device.info().globalMemoryBytes() * 4;
        DeviceException e = assertThrows(DeviceException.class, () -> device.allocate(huge));
        assertEquals(DeviceException.Kind.OUT_OF_MEMORY, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("requested " + huge + " bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("free "), e.getMessage());
        // the device is still usable afterwards
        DeviceBuffer small = device.allocate(1024);
        small.release();
    }

    @Test
    void eventsMeasurePositiveTime() {
        int n = 1 << 22;
        long bytes = 4L * n;
        DeviceBuffer a = device.allocate(bytes), b = device.allocate(bytes), c = device.allocate(bytes);
        try {
            poison(a);
            poison(b);
            poison(c);
            BoundLaunch launch = program.kernel("vadd").bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.I64(n),
                    new KernelArg.Buffer(b), new KernelArg.I64(n), new KernelArg.Buffer(c), new KernelArg.I64(n)});
            DeviceEvent e0 = device.record();
            for (int i = 0; i < 10; i++) launch.launch(new long[] {n}, new long[] {256});
            DeviceEvent e1 = device.record();
            device.synchronize();
            double ms = e1.millisSince(e0);
            assertTrue(ms > 0 && ms < 10_000, "elapsed " + ms + " ms");
            e0.release();
            e1.release();
            launch.release();
        } finally {
            a.release();
            b.release();
            c.release();
        }
    }

    @Test
    void missingKernelIsNotFound() {
        DeviceException e = assertThrows(DeviceException.class, () -> program.kernel("no_such_kernel"));
        assertEquals(DeviceException.Kind.NOT_FOUND, e.kind());
        assertTrue(e.getMessage().contains("no_such_kernel"), e.getMessage());
    }

    @Test
    void badLaunchShapesAreRejectedBeforeTheDriver() {
        DeviceBuffer a = device.allocate(4096);
        try {
            BoundLaunch launch = program.kernel("vadd").bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.I64(1),
                    new KernelArg.Buffer(a), new KernelArg.I64(1), new KernelArg.Buffer(a), new KernelArg.I64(1)});
            DeviceException notMultiple = assertThrows(DeviceException.class,
                    () -> launch.launch(new long[] {1000}, new long[] {256}));
            assertEquals(DeviceException.Kind.BAD_ARGUMENT, notMultiple.kind());
            DeviceException tooBig = assertThrows(DeviceException.class,
                    () -> launch.launch(new long[] {4096}, new long[] {4096}));
            assertEquals(DeviceException.Kind.BAD_ARGUMENT, tooBig.kind());
            DeviceException mismatch = assertThrows(DeviceException.class,
                    () -> launch.launch(new long[] {256, 1}, new long[] {256}));
            assertEquals(DeviceException.Kind.BAD_ARGUMENT, mismatch.kind());
            launch.release();
        } finally {
            a.release();
        }
    }

    @Test
    void wrongArgumentCountIsRejectedWhenTheDriverCanTell() {
        assumeTrue(CudaApi.hasFuncGetParamInfo(), "driver lacks cuFuncGetParamInfo");
        DeviceException e = assertThrows(DeviceException.class,
                () -> program.kernel("vadd").bind(new KernelArg[] {new KernelArg.I32(1)}));
        assertEquals(DeviceException.Kind.BAD_ARGUMENT, e.kind());
    }
}
