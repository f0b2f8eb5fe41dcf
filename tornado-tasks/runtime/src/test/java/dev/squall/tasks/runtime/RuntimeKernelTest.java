package dev.squall.tasks.runtime;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Kernels compiled from source at run time as tasks, on every device: results against plain Java, device copies
 * shared with compiled kernels, loop and SPMD styles, barriers, argument checks, missing bodies and build errors.
 */
class RuntimeKernelTest {
    public static final class Kernels {
        @Kernel
        public static void addOne(IntArray a, int n) {
            for (@Parallel int i = 0; i < n; i++) a.set(i, a.get(i) + 1);
        }

        @Kernel
        public static void twice(IntArray src, IntArray dst, int n) {
            for (@Parallel int i = 0; i < n; i++) dst.set(i, 2 * src.get(i));
        }
    }

    /** x[i] *= a, one work-item per element. */
    private static final KernelSource SCALE = KernelSource.of("""
            __kernel void scale(__global double* x, long x__len, double a) {
              long i = get_global_id(0);
              if (i < x__len) x[i] = x[i] * a;
            }
            """, """
            extern "C" __global__ void scale(double* x, long long x__len, double a) {
              long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
              if (i < x__len) x[i] = x[i] * a;
            }
            """).withJvm((item, args) -> {
        DoubleArray x = (DoubleArray) args[0];
        if (item.globalIdx < x.getSize()) x.set(item.globalIdx, x.get(item.globalIdx) * (double) args[1]);
    });
    private static final KernelSignature SCALE_SIGNATURE = KernelSignature.spmd().array("x", DoubleArray.class).scalar("a", double.class);

    /** a[i] = a[i] * mul + add. */
    private static final KernelSource AXPB = KernelSource.of("""
            __kernel void axpb(__global int* a, long a__len, int mul, int add) {
              long i = get_global_id(0);
              if (i < a__len) a[i] = a[i] * mul + add;
            }
            """, """
            extern "C" __global__ void axpb(int* a, long long a__len, int mul, int add) {
              long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
              if (i < a__len) a[i] = a[i] * mul + add;
            }
            """).withJvm((item, args) -> {
        IntArray a = (IntArray) args[0];
        if (item.globalIdx < a.getSize()) a.set(item.globalIdx, a.get(item.globalIdx) * (int) args[1] + (int) args[2]);
    });
    private static final KernelSignature AXPB_SIGNATURE = KernelSignature.spmd().array("a", IntArray.class).scalar("mul", int.class).scalar("add", int.class);

    static List<Device> devices() {
        return TestDevices.all();
    }

    private static DoubleArray ramp(int n) {
        DoubleArray x = new DoubleArray(n);
        for (int i = 0; i < n; i++) x.set(i, i * 0.25 - 3);
        return x;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void spmdKernelRunsAsATask(Device device) {
        int n = 1000;
        DoubleArray x = ramp(n);
        RuntimeKernel k = device.compile("scale", SCALE, SCALE_SIGNATURE);
        assertEquals("scale", k.name());
        assertSame(device, k.device());
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
                .task("t", k, x, 3.0)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, x).snapshot())) {
            Profile pr = p.withDevice(device).withProfiler(true).withGrid("t", WorkerGrid.of(1024).withLocal(64)).execute().profile();
            assertTrue(pr.kernelMillis() >= 0 && pr.toDeviceMillis() >= 0 && pr.toHostMillis() >= 0, pr.toString());
            x.set(0, 10);
            p.execute();
        }
        assertEquals(30, x.get(0), "the host's new value was copied in again and scaled once");
        for (int i = 1; i < n; i++) assertEquals((i * 0.25 - 3) * 9, x.get(i), "element " + i);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void runtimeAndCompiledKernelsShareTheDeviceCopy(Device device) {
        int n = 777;
        IntArray a = new IntArray(n), b = new IntArray(n);
        for (int i = 0; i < n; i++) a.set(i, i - 300);
        b.init(-1);
        RuntimeKernel axpb = device.compile("axpb", AXPB, AXPB_SIGNATURE);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("inc", Kernels::addOne, a, n)
                .task("rt", axpb, a, 3, 1)
                .task("copy", Kernels::twice, a, b, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b).snapshot())) {
            p.withDevice(device).withGrid("rt", WorkerGrid.of(784).withLocal(16));
            p.execute();
            p.execute(); // a is not copied in again: the second execution continues from the device copy
        }
        for (int i = 0; i < n; i++) {
            long v = i - 300;
            for (int r = 0; r < 2; r++) v = (v + 1) * 3 + 1;
            assertEquals(2 * v, b.get(i), "element " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void loopKernelTakesItsGridFromItsCount(Device device) {
        int n = 5000;
        IntArray out = new IntArray(n);
        out.init(-1);
        RuntimeKernel iota = device.compile("iota", KernelSource.of("""
                __kernel void iota(long n, __global int* out, long out__len, int base) {
                  for (long i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = base + (int) i;
                }
                """, """
                extern "C" __global__ void iota(long long n, int* out, long long out__len, int base) {
                  for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long) gridDim.x * blockDim.x) out[i] = base + (int) i;
                }
                """).withJvm((item, args) -> ((IntArray) args[1]).set(item.globalIdx, (int) args[2] + item.globalIdx)),
                KernelSignature.loop().scalar("n", long.class).array("out", IntArray.class).scalar("base", int.class));
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .task("t", iota, (long) n - 1, out, 40)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot())) {
            p.withDevice(device).execute();
        }
        for (int i = 0; i < n - 1; i++) assertEquals(40 + i, out.get(i), "element " + i);
        assertEquals(-1, out.get(n - 1), "past the count: untouched");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void spmdKernelWithBarriersSumsEachGroup(Device device) {
        int groups = 37, local = 64;
        DoubleArray x = new DoubleArray(groups * local), sums = new DoubleArray(groups);
        for (int i = 0; i < x.getSize(); i++) x.set(i, i % 7 + 0.5);
        RuntimeKernel k = device.compile("groupSums", KernelSource.of("""
                __kernel void groupSums(__global const double* x, long x__len, __global double* sums, long sums__len) {
                  __local double part[64];
                  int l = get_local_id(0);
                  part[l] = x[get_global_id(0)];
                  barrier(CLK_LOCAL_MEM_FENCE);
                  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
                    if (l < s) part[l] += part[l + s];
                    barrier(CLK_LOCAL_MEM_FENCE);
                  }
                  if (l == 0) sums[get_group_id(0)] = part[0];
                }
                """, """
                extern "C" __global__ void groupSums(const double* x, long long x__len, double* sums, long long sums__len) {
                  __shared__ double part[64];
                  int l = threadIdx.x;
                  part[l] = x[(long long) blockIdx.x * blockDim.x + l];
                  __syncthreads();
                  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
                    if (l < s) part[l] += part[l + s];
                    __syncthreads();
                  }
                  if (l == 0) sums[blockIdx.x] = part[0];
                }
                """).withJvm((ctx, args) -> {
                    DoubleArray in = (DoubleArray) args[0], out = (DoubleArray) args[1];
                    double[] part = ctx.allocateDoubleLocalArray(64);
                    int l = ctx.localIdx;
                    part[l] = in.get(ctx.globalIdx);
                    ctx.localBarrier();
                    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
                        if (l < s) part[l] += part[l + s];
                        ctx.localBarrier();
                    }
                    if (l == 0) out.set(ctx.groupIdx, part[0]);
                }),
                KernelSignature.spmd().withBarriers().array("x", DoubleArray.class).array("sums", DoubleArray.class));
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
                .task("sum", k, x, sums)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, sums).snapshot())) {
            p.withDevice(device).withGrid("sum", WorkerGrid.of((long) groups * local).withLocal(local)).execute();
        }
        for (int g = 0; g < groups; g++) {
            double want = 0;
            for (int i = g * local; i < (g + 1) * local; i++) want += i % 7 + 0.5;
            assertEquals(want, sums.get(g), "group " + g);
        }
    }

    @Test
    void wrongArgumentsAreRejectedBeforeLaunchNamingTaskAndParameter() {
        Device jvm = Devices.jvm();
        RuntimeKernel k = jvm.compile("axpb", AXPB, AXPB_SIGNATURE);
        IntArray a = new IntArray(8);
        a.init(5);
        DoubleArray d = new DoubleArray(8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ExecutionPlan(new TaskGraph("g").task("t", k, d, 2, 1).snapshot()).withDevice(jvm).withGrid("t", WorkerGrid.of(8)).execute());
        assertTrue(e.getMessage().contains("task g.t") && e.getMessage().contains("argument 0 (a)") && e.getMessage().contains("must be IntArray")
                && e.getMessage().contains("axpb"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new ExecutionPlan(new TaskGraph("g").task("t", k, a, 2L, 1).snapshot()).withDevice(jvm).withGrid("t", WorkerGrid.of(8)).execute());
        assertTrue(e.getMessage().contains("task g.t") && e.getMessage().contains("argument 1 (mul)") && e.getMessage().contains("must be int"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new ExecutionPlan(new TaskGraph("g").task("t", k, a, 2).snapshot()).withDevice(jvm).withGrid("t", WorkerGrid.of(8)).execute());
        assertTrue(e.getMessage().contains("task g.t") && e.getMessage().contains("takes 3 arguments"), e.getMessage());
        for (int i = 0; i < 8; i++) assertEquals(5, a.get(i), "nothing ran");
    }

    @Test
    void spmdRuntimeKernelWithoutGridIsRejected() {
        Device jvm = Devices.jvm();
        RuntimeKernel k = jvm.compile("scale", SCALE, SCALE_SIGNATURE);
        DoubleArray x = ramp(4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ExecutionPlan(new TaskGraph("g").task("t", k, x, 2.0).snapshot()).withDevice(jvm).execute());
        assertTrue(e.getMessage().contains("task g.t") && e.getMessage().contains("needs a grid"), e.getMessage());
        assertEquals(-3, x.get(0), "nothing ran");
    }

    @Test
    void aKernelWithoutCodeForTheBackendNamesKernelAndDevice() {
        Device jvm = Devices.jvm();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> jvm.compile("scale", KernelSource.of("__kernel void scale() {}", null), SCALE_SIGNATURE));
        assertTrue(e.getMessage().contains("scale") && e.getMessage().contains("jvm") && e.getMessage().contains("Java body"), e.getMessage());
        for (Device d : devices()) {
            if (d.info().type() == DeviceType.JVM) continue;
            e = assertThrows(IllegalArgumentException.class, () -> d.compile("scale", KernelSource.jvm((item, args) -> { }), SCALE_SIGNATURE));
            assertTrue(e.getMessage().contains("scale") && e.getMessage().contains(d.id()), e.getMessage());
        }
    }

    @Test
    void aKernelCompiledForAnotherDeviceIsRejected() {
        Device jvm = Devices.jvm();
        for (Device d : devices()) {
            if (d == jvm) continue;
            RuntimeKernel k = d.compile("scale", SCALE, SCALE_SIGNATURE);
            DoubleArray x = ramp(4);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ExecutionPlan(new TaskGraph("g").task("t", k, x, 2.0).snapshot()).withDevice(jvm).withGrid("t", WorkerGrid.of(4)).execute());
            assertTrue(e.getMessage().contains("task g.t") && e.getMessage().contains(d.id()) && e.getMessage().contains("jvm"), e.getMessage());
        }
    }

    @Test
    void buildErrorsCarryTheDriverLogAndTheSource() {
        for (Device d : devices()) {
            if (d.info().type() == DeviceType.JVM) continue;
            String broken = d.info().backend().equals("cuda")
                    ? "extern \"C\" __global__ void bad(double* x, long long x__len) { x[0] = undeclared_name; }\n"
                    : "__kernel void bad(__global double* x, long x__len) { x[0] = undeclared_name; }\n";
            KernelBuildException e = assertThrows(KernelBuildException.class,
                    () -> d.compile("bad", KernelSource.of(broken, broken), KernelSignature.spmd().array("x", DoubleArray.class)));
            assertTrue(e.log().contains("undeclared_name"), e.log());
            assertEquals(broken, e.source());
        }
    }

    @Test
    void aRebuiltKernelComesFromTheBuildCache() {
        for (Device d : devices()) {
            if (d.info().type() == DeviceType.JVM) continue;
            // a source no earlier run has built: the first compile builds it, the second finds its binary on disk
            String tag = "// " + System.nanoTime() + "\n";
            KernelSource src = KernelSource.of(tag + SCALE.text("opencl").orElseThrow(), tag + SCALE.text("cuda").orElseThrow());
            RuntimeKernel first = d.compile("scale", src, SCALE_SIGNATURE);
            RuntimeKernel second = d.compile("scale", src, SCALE_SIGNATURE);
            assertFalse(first.fromCache(), d.id() + ": a new source is built");
            assertTrue(second.fromCache(), d.id() + ": the same source again comes from the cache");
        }
    }

    @Test
    void signaturesRejectWhatNoKernelCanTake() {
        assertThrows(IllegalArgumentException.class, () -> KernelSignature.spmd().scalar("s", String.class));
        assertThrows(IllegalArgumentException.class, () -> KernelSignature.spmd().array("x", IntArray.class).array("x", IntArray.class));
        assertThrows(IllegalArgumentException.class, () -> KernelSignature.loop().withBarriers());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Devices.jvm().compile("count", KernelSource.jvm((i, a) -> { }), KernelSignature.loop().array("x", IntArray.class)));
        assertTrue(e.getMessage().contains("count") && e.getMessage().contains("iteration count"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Devices.jvm().compile("not a name", SCALE, SCALE_SIGNATURE));
        assertTrue(e.getMessage().contains("C identifier"), e.getMessage());
    }
}
