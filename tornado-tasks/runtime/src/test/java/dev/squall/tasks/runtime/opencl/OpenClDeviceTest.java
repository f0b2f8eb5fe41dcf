package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.KernelBuildException;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.spi.*;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.*;
import static org.junit.jupiter.api.Assertions.*;

/** Runs hand-written OpenCL C on the first OpenCL device (PoCL in CI). */
class OpenClDeviceTest {
    static final String VADD = """
            __kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
                int i = get_global_id(0);
                if (i < n) c[i] = a[i] + b[i];
            }
            """;
    static final String TRIAD = """
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            #pragma OPENCL FP_CONTRACT OFF
            __kernel void triad(__global double* a, long a__len, __global const double* b, long b__len,
                                __global const double* c, long c__len, double s) {
                long i = get_global_id(0);
                if (i < a__len) a[i] = b[i] + s * c[i];
            }
            """;
    static final int WG = 64;
    static final String BLOCK_SUM = """
            #define WG 64
            __kernel void blocksum(__global const int* in, __global int* out, int n) {
                __local int s[WG];
                int lid = get_local_id(0);
                int gid = get_global_id(0);
                s[lid] = gid < n ? in[gid] : 0;
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int off = WG / 2; off > 0; off >>= 1) {
                    if (lid < off) s[lid] += s[lid + off];
                    barrier(CLK_LOCAL_MEM_FENCE);
                }
                if (lid == 0) out[get_group_id(0)] = s[0];
            }
            """;
    static final String SCALARS = """
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            __kernel void scalars(__global long* li, __global double* fd, char a, short b, int c, long d,
                                  float e, double f) {
                if (get_global_id(0) == 0) {
                    li[0] = a; li[1] = b; li[2] = c; li[3] = d;
                    fd[0] = e; fd[1] = f;
                }
            }
            """;

    @TempDir
    static Path cacheDir;
    static NativeDevice dev;

    @BeforeAll
    static void open() {
        dev = OpenClTestSupport.device(new BuildCache(cacheDir));
    }

    @AfterAll
    static void close() {
        if (dev != null) dev.close();
    }

    static long roundUp(long n, long m) {
        return (n + m - 1) / m * m;
    }

    @Test
    void discoveryListsDevicesWithSaneInfo() {
        List<NativeDevice> all = OpenClTestSupport.devices(new BuildCache(cacheDir));
        try {
            for (NativeDevice d : all) {
                DeviceInfo i = d.info();
                assertEquals("opencl", i.backend());
                assertTrue(i.id().matches("opencl:\\d+:\\d+"), i.id());
                assertFalse(i.name().isBlank());
                assertFalse(i.vendor().isBlank());
                assertFalse(i.driverVersion().isBlank());
                assertTrue(i.globalMemoryBytes() > 0, i.toString());
                assertTrue(i.localMemoryBytes() > 0, i.toString());
                assertTrue(i.computeUnits() > 0, i.toString());
                assertTrue(i.maxWorkGroupSize() >= 1, i.toString());
                assertEquals(32, i.subgroupSize());
                assertTrue(i.computeCapability().startsWith("OpenCL "), i.computeCapability());
            }
            assertEquals("opencl:0:0", all.get(0).info().id());
            if (all.stream().anyMatch(d -> d.info().vendor().contains("Portable Computing Language"))) {
                NativeDevice pocl = all.stream().filter(d -> d.info().vendor().contains("Portable Computing Language"))
                        .findFirst().orElseThrow();
                assertEquals(DeviceType.CPU, pocl.info().type(), "PoCL's device is a CPU");
                assertTrue(pocl.info().fp64(), "PoCL CPU devices support fp64");
            }
        } finally {
            all.forEach(NativeDevice::close);
        }
    }

    @Test
    void vectorAddOnOddSize() {
        int n = 1000 + 37;
        Random r = new Random(1);
        float[] a = new float[n], b = new float[n];
        for (int i = 0; i < n; i++) { a[i] = r.nextFloat() * 100 - 50; b[i] = r.nextFloat() * 100 - 50; }
        DeviceBuffer da = dev.allocate(4L * n), db = dev.allocate(4L * n), dc = dev.allocate(4L * n);
        try (Arena arena = Arena.ofConfined()) {
            dev.copyToDevice(arena.allocateFrom(JAVA_FLOAT, a), da, 0, 4L * n);
            dev.copyToDevice(MemorySegment.ofArray(b), db, 0, 4L * n); // heap segment goes through a staging copy
            float[] poison = new float[n];
            Arrays.fill(poison, Float.NaN);
            dev.copyToDevice(MemorySegment.ofArray(poison), dc, 0, 4L * n);
            DeviceKernel k = dev.build("VAdd", VADD).kernel("vadd");
            assertFalse(k.resourceReport().isBlank());
            BoundLaunch l = k.bind(new KernelArg[] {new KernelArg.Buffer(da), new KernelArg.Buffer(db),
                    new KernelArg.Buffer(dc), new KernelArg.I32(n)});
            l.launch(new long[] {roundUp(n, WG)}, new long[] {WG});
            dev.synchronize();
            MemorySegment out = arena.allocate(JAVA_FLOAT, n);
            dev.copyToHost(dc, 0, out, 4L * n);
            for (int i = 0; i < n; i++) assertEquals(a[i] + b[i], out.getAtIndex(JAVA_FLOAT, i), "c[" + i + "]");
            float[] heapOut = new float[n];
            dev.copyToHost(dc, 0, MemorySegment.ofArray(heapOut), 4L * n);
            assertEquals(a[n - 1] + b[n - 1], heapOut[n - 1]);
            l.release();
            l.release(); // idempotent
        } finally {
            da.release(); db.release(); dc.release();
            da.release();
        }
    }

    @Test
    void doubleTriadOnOddSize() {
        int n = 4099;
        double s = 1.75;
        Random r = new Random(2);
        double[] b = r.doubles(n, -1e3, 1e3).toArray(), c = r.doubles(n, -1e3, 1e3).toArray();
        DeviceBuffer da = dev.allocate(8L * n), db = dev.allocate(8L * n), dc = dev.allocate(8L * n);
        try (Arena arena = Arena.ofConfined()) {
            dev.copyToDevice(arena.allocateFrom(JAVA_DOUBLE, b), db, 0, 8L * n);
            dev.copyToDevice(arena.allocateFrom(JAVA_DOUBLE, c), dc, 0, 8L * n);
            double[] poison = new double[n];
            Arrays.fill(poison, Double.NaN);
            dev.copyToDevice(MemorySegment.ofArray(poison), da, 0, 8L * n);
            BoundLaunch l = dev.build("Triad", TRIAD).kernel("triad").bind(new KernelArg[] {
                    new KernelArg.Buffer(da), new KernelArg.I64(n), new KernelArg.Buffer(db), new KernelArg.I64(n),
                    new KernelArg.Buffer(dc), new KernelArg.I64(n), new KernelArg.F64(s)});
            l.launch(new long[] {roundUp(n, 128)}, new long[] {128});
            dev.synchronize();
            double[] out = new double[n];
            dev.copyToHost(da, 0, MemorySegment.ofArray(out), 8L * n);
            for (int i = 0; i < n; i++) assertEquals(b[i] + s * c[i], out[i], 1e-12 * Math.abs(b[i] + s * c[i]) + 1e-12, "a[" + i + "]");
            l.release();
        } finally {
            da.release(); db.release(); dc.release();
        }
    }

    @Test
    void blockSumWithLocalMemoryAndBarriers() {
        int n = 10 * WG + 13;
        int groups = (int) (roundUp(n, WG) / WG);
        Random r = new Random(3);
        int[] in = r.ints(n, -1000, 1000).toArray();
        DeviceBuffer din = dev.allocate(4L * n), dout = dev.allocate(4L * groups);
        try {
            dev.copyToDevice(MemorySegment.ofArray(in), din, 0, 4L * n);
            int[] poison = new int[groups];
            Arrays.fill(poison, -1);
            dev.copyToDevice(MemorySegment.ofArray(poison), dout, 0, 4L * groups);
            DeviceKernel k = dev.build("BlockSum", BLOCK_SUM).kernel("blocksum");
            assertTrue(k.resourceReport().contains("localMem="), k.resourceReport());
            BoundLaunch l = k.bind(new KernelArg[] {new KernelArg.Buffer(din), new KernelArg.Buffer(dout), new KernelArg.I32(n)});
            for (int rep = 0; rep < 3; rep++) {
                dev.copyToDevice(MemorySegment.ofArray(poison), dout, 0, 4L * groups);
                l.launch(new long[] {(long) groups * WG}, new long[] {WG});
                int[] out = new int[groups];
                dev.copyToHost(dout, 0, MemorySegment.ofArray(out), 4L * groups);
                for (int g = 0; g < groups; g++) {
                    int expect = 0;
                    for (int i = g * WG; i < Math.min(n, (g + 1) * WG); i++) expect += in[i];
                    assertEquals(expect, out[g], "group " + g);
                }
            }
            l.release();
        } finally {
            din.release(); dout.release();
        }
    }

    @Test
    void scalarArgumentsRoundTrip() {
        DeviceBuffer li = dev.allocate(8 * 4), fd = dev.allocate(8 * 2);
        try {
            dev.copyToDevice(MemorySegment.ofArray(new long[] {-1, -1, -1, -1}), li, 0, 32);
            dev.copyToDevice(MemorySegment.ofArray(new double[] {Double.NaN, Double.NaN}), fd, 0, 16);
            DeviceKernel k = dev.build("Scalars", SCALARS).kernel("scalars");
            BoundLaunch l = k.bind(new KernelArg[] {new KernelArg.Buffer(li), new KernelArg.Buffer(fd),
                    new KernelArg.I8(Byte.MIN_VALUE), new KernelArg.I16((short) -12345), new KernelArg.I32(Integer.MIN_VALUE + 7),
                    new KernelArg.I64(Long.MAX_VALUE - 11), new KernelArg.F32(3.1415927f), new KernelArg.F64(-Math.E * 1e300)});
            l.launch(new long[] {1}, new long[] {1});
            long[] outL = new long[4];
            double[] outD = new double[2];
            dev.copyToHost(li, 0, MemorySegment.ofArray(outL), 32);
            dev.copyToHost(fd, 0, MemorySegment.ofArray(outD), 16);
            assertArrayEquals(new long[] {Byte.MIN_VALUE, -12345, Integer.MIN_VALUE + 7, Long.MAX_VALUE - 11}, outL);
            assertEquals((double) 3.1415927f, outD[0]);
            assertEquals(-Math.E * 1e300, outD[1]);
            l.release();
        } finally {
            li.release(); fd.release();
        }
    }

    @Test
    void buildErrorCarriesLogAndSource() {
        String bad = "__kernel void broken(__global float* x) {\n    x[0] = undefined_symbol_xyz;\n}\n";
        KernelBuildException e = assertThrows(KernelBuildException.class, () -> dev.build("Broken", bad));
        assertFalse(e.log().isBlank(), "driver build log");
        assertTrue(e.getMessage().contains(e.log()), e.getMessage());
        assertTrue(e.log().contains("undefined_symbol_xyz"), e.log());
        assertTrue(e.getMessage().contains("x[0] = undefined_symbol_xyz;"), e.getMessage());
        assertTrue(e.getMessage().contains(dev.info().id()), e.getMessage());
        assertEquals(bad, e.source());
    }

    @Test
    void secondBuildIsACacheHitAndCorruptEntriesAreRebuilt(@TempDir Path tmp) throws Exception {
        String src = VADD.replace("vadd", "vadd_cached");
        NativeDevice d1 = OpenClTestSupport.device(new BuildCache(tmp));
        try {
            DeviceProgram p1 = d1.build("Cached", src);
            assertFalse(p1.fromCache());
            assertTrue(p1.buildMillis() > 0);
            DeviceProgram p2 = d1.build("Cached", src);
            assertTrue(p2.fromCache(), "second build of the same source");
            runVadd(d1, p2.kernel("vadd_cached"));
        } finally {
            d1.close();
        }
        // a fresh backend (new context) with the same cache directory hits too
        NativeDevice d2 = OpenClTestSupport.device(new BuildCache(tmp));
        try {
            assertTrue(d2.build("Cached", src).fromCache());
            // corrupt every entry: the build falls back to source and rewrites the entry
            List<Path> entries;
            try (Stream<Path> s = Files.list(tmp)) {
                entries = s.filter(p -> p.toString().endsWith(".bin")).toList();
            }
            assertEquals(1, entries.size(), entries.toString());
            Files.write(entries.get(0), "not a binary at all".getBytes());
            DeviceProgram p3 = d2.build("Cached", src);
            assertFalse(p3.fromCache());
            runVadd(d2, p3.kernel("vadd_cached"));
            assertTrue(Files.size(entries.get(0)) > 100, "rewritten");
            assertTrue(d2.build("Cached", src).fromCache());
        } finally {
            d2.close();
        }
    }

    private static void runVadd(NativeDevice d, DeviceKernel k) {
        int n = 100;
        DeviceBuffer a = d.allocate(4 * n), c = d.allocate(4 * n);
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = i * 0.5f;
        float[] poison = new float[n];
        Arrays.fill(poison, Float.NaN);
        d.copyToDevice(MemorySegment.ofArray(x), a, 0, 4 * n);
        d.copyToDevice(MemorySegment.ofArray(poison), c, 0, 4 * n);
        BoundLaunch l = k.bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.Buffer(a), new KernelArg.Buffer(c),
                new KernelArg.I32(n)});
        l.launch(new long[] {128}, new long[] {32});
        float[] out = new float[n];
        d.copyToHost(c, 0, MemorySegment.ofArray(out), 4 * n);
        for (int i = 0; i < n; i++) assertEquals(2 * x[i], out[i]);
        l.release();
        a.release();
        c.release();
    }

    @Test
    void absurdAllocationIsOutOfMemoryWithSizes() {
        long huge = 1L << 50;
        DeviceException e = assertThrows(DeviceException.class, () -> dev.allocate(huge));
        assertEquals(DeviceException.Kind.OUT_OF_MEMORY, e.kind());
        assertTrue(e.getMessage().contains(Long.toString(huge)), e.getMessage());
        assertTrue(e.getMessage().contains(Long.toString(dev.info().globalMemoryBytes())), e.getMessage());
        assertEquals(DeviceException.Kind.BAD_ARGUMENT, assertThrows(DeviceException.class, () -> dev.allocate(-1)).kind());
        DeviceBuffer empty = dev.allocate(0);
        assertEquals(0, empty.byteSize());
        empty.release();
    }

    @Test
    void badArgumentsAreRejectedBeforeLaunch() {
        DeviceKernel k = dev.build("VAdd", VADD).kernel("vadd");
        DeviceBuffer b = dev.allocate(64);
        try {
            DeviceException few = assertThrows(DeviceException.class,
                    () -> k.bind(new KernelArg[] {new KernelArg.Buffer(b), new KernelArg.Buffer(b)}));
            assertEquals(DeviceException.Kind.BAD_ARGUMENT, few.kind());
            assertTrue(few.getMessage().contains("takes 4 arguments") && few.getMessage().contains("2 given"), few.getMessage());
            // a long where the kernel takes an int
            DeviceException size = assertThrows(DeviceException.class, () -> k.bind(new KernelArg[] {
                    new KernelArg.Buffer(b), new KernelArg.Buffer(b), new KernelArg.Buffer(b), new KernelArg.I64(4)}));
            assertEquals(DeviceException.Kind.BAD_ARGUMENT, size.kind());
            assertTrue(size.getMessage().contains("clSetKernelArg"), size.getMessage());
            BoundLaunch l = k.bind(new KernelArg[] {new KernelArg.Buffer(b), new KernelArg.Buffer(b),
                    new KernelArg.Buffer(b), new KernelArg.I32(16)});
            assertEquals(DeviceException.Kind.BAD_ARGUMENT,
                    assertThrows(DeviceException.class, () -> l.launch(new long[] {100}, new long[] {32})).kind());
            assertEquals(DeviceException.Kind.BAD_ARGUMENT,
                    assertThrows(DeviceException.class, () -> l.launch(new long[] {64, 1}, new long[] {32})).kind());
            l.release();
            assertThrows(DeviceException.class, () -> l.launch(new long[] {32}, new long[] {32}));
            DeviceException nf = assertThrows(DeviceException.class, () -> dev.build("VAdd", VADD).kernel("nope"));
            assertEquals(DeviceException.Kind.NOT_FOUND, nf.kind());
            assertThrows(DeviceException.class, () -> dev.copyToDevice(MemorySegment.ofArray(new byte[128]), b, 0, 128));
        } finally {
            b.release();
        }
        assertThrows(DeviceException.class, () -> dev.copyToHost(b, 0, MemorySegment.ofArray(new byte[64]), 64));
    }

    @Test
    void twoBindingsOfOneKernelKeepTheirOwnArguments() {
        DeviceKernel k = dev.build("VAdd", VADD).kernel("vadd");
        int n = 64;
        DeviceBuffer one = dev.allocate(4 * n), two = dev.allocate(4 * n), c1 = dev.allocate(4 * n), c2 = dev.allocate(4 * n);
        float[] f = new float[n];
        Arrays.fill(f, 1f);
        dev.copyToDevice(MemorySegment.ofArray(f), one, 0, 4 * n);
        Arrays.fill(f, 2f);
        dev.copyToDevice(MemorySegment.ofArray(f), two, 0, 4 * n);
        BoundLaunch l1 = k.bind(new KernelArg[] {new KernelArg.Buffer(one), new KernelArg.Buffer(one), new KernelArg.Buffer(c1), new KernelArg.I32(n)});
        BoundLaunch l2 = k.bind(new KernelArg[] {new KernelArg.Buffer(two), new KernelArg.Buffer(two), new KernelArg.Buffer(c2), new KernelArg.I32(n)});
        l1.launch(new long[] {n}, new long[] {n});
        l2.launch(new long[] {n}, new long[] {n});
        float[] o1 = new float[n], o2 = new float[n];
        dev.copyToHost(c1, 0, MemorySegment.ofArray(o1), 4 * n);
        dev.copyToHost(c2, 0, MemorySegment.ofArray(o2), 4 * n);
        assertEquals(2f, o1[n - 1]);
        assertEquals(4f, o2[n - 1]);
        l1.release(); l2.release();
        one.release(); two.release(); c1.release(); c2.release();
    }

    @Test
    void eventsGiveNonNegativeTime() {
        int n = 1 << 16;
        DeviceBuffer a = dev.allocate(4L * n);
        BoundLaunch l = dev.build("VAdd", VADD).kernel("vadd").bind(new KernelArg[] {
                new KernelArg.Buffer(a), new KernelArg.Buffer(a), new KernelArg.Buffer(a), new KernelArg.I32(n)});
        DeviceEvent start = dev.record();
        for (int i = 0; i < 5; i++) l.launch(new long[] {n}, new long[] {WG});
        DeviceEvent end = dev.record();
        dev.synchronize();
        double ms = end.millisSince(start);
        assertTrue(ms >= 0 && Double.isFinite(ms), "ms=" + ms);
        assertEquals(0.0, start.millisSince(start));
        start.release(); end.release(); start.release();
        l.release();
        a.release();
    }

    @Test
    void repeatedLaunchesDoNotAllocateOnTheJavaHeap() {
        var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported());
        int n = 256;
        DeviceBuffer a = dev.allocate(4L * n);
        BoundLaunch l = dev.build("VAdd", VADD).kernel("vadd").bind(new KernelArg[] {
                new KernelArg.Buffer(a), new KernelArg.Buffer(a), new KernelArg.Buffer(a), new KernelArg.I32(n)});
        long[] global = {n}, local = {WG};
        // warm up past C2 compilation, whose one-time allocations are not the launches'
        for (int i = 0; i < 20_000; i++) l.launch(global, local);
        dev.synchronize();
        long tid = Thread.currentThread().threadId();
        int launches = 4000;
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < launches; i++) l.launch(global, local);
        long bytes = mx.getThreadAllocatedBytes(tid) - before;
        dev.synchronize();
        // any object is at least 16 bytes: under one byte per launch means no launch allocates
        assertTrue(bytes < launches, launches + " launches allocated " + bytes + " bytes");
        l.release();
        a.release();
    }

    @Test
    void anyThreadMayCall() throws Exception {
        DeviceKernel k = dev.build("VAdd", VADD).kernel("vadd");
        int n = 96;
        DeviceBuffer a = dev.allocate(4L * n), c = dev.allocate(4L * n);
        float[] x = new float[n];
        Arrays.fill(x, 3f);
        dev.copyToDevice(MemorySegment.ofArray(x), a, 0, 4L * n);
        BoundLaunch l = k.bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.Buffer(a), new KernelArg.Buffer(c),
                new KernelArg.I32(n)});
        float[] out = new float[n];
        Thread t = new Thread(() -> {
            l.launch(new long[] {n}, new long[] {32});
            DeviceEvent e = dev.record();
            dev.synchronize();
            e.release();
            dev.copyToHost(c, 0, MemorySegment.ofArray(out), 4L * n);
        });
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        t.setUncaughtExceptionHandler((th, ex) -> failure.set(ex));
        t.start();
        t.join();
        assertNull(failure.get());
        assertEquals(6f, out[n - 1]);
        l.release();
        a.release();
        c.release();
    }

    @Test
    void closedDeviceRejectsWork(@TempDir Path tmp) {
        NativeDevice d = OpenClTestSupport.device(new BuildCache(tmp));
        DeviceBuffer b = d.allocate(16);
        d.close();
        d.close(); // idempotent
        b.release(); // already released by close: no-op
        assertThrows(DeviceException.class, () -> d.allocate(16));
    }
}
