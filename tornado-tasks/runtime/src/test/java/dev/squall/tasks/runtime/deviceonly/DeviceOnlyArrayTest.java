package dev.squall.tasks.runtime.deviceonly;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.*;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Device-only arrays ({@code DoubleArray.onDevice}): written by one graph and read by the next without host memory,
 * zero-filled on the device, copied back only when asked, and clear errors for host access and uploads. Every device
 * present; results against plain Java.
 */
class DeviceOnlyArrayTest {
    static List<Object[]> cases() {
        List<Object[]> c = new ArrayList<>();
        for (Device d : TestDevices.all()) for (int n : new int[] {1, 255, 1037}) c.add(new Object[] {d, n});
        return c;
    }

    @ParameterizedTest(name = "{0} n={1}")
    @MethodSource("cases")
    void graphsChainedThroughDeviceOnlyArraysMatchPlainJava(Device device, int n) {
        double[] x = new SplittableRandom(n).doubles(n, -1e3, 1e3).toArray();
        DoubleArray xs = DoubleArray.fromArray(x), y = new DoubleArray(n);
        DoubleArray t = DoubleArray.onDevice(n), acc = DoubleArray.onDevice(n);
        IntArray counts = IntArray.onDevice(n);
        LongArray wide = LongArray.onDevice(n);
        y.init(Double.NaN);
        TaskGraph produce = new TaskGraph("produce").transferToDevice(DataTransferMode.FIRST_EXECUTION, xs)
                .task("affine", DeviceOnlyKernels::affine, xs, t, -2.5, n)
                .task("acc", DeviceOnlyKernels::accumulate, xs, acc, counts, wide, n);
        TaskGraph consume = new TaskGraph("consume").task("combine", DeviceOnlyKernels::combine, t, acc, y, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        int runs = 3;
        try (ExecutionPlan p1 = new ExecutionPlan(produce.snapshot()).withDevice(device);
             ExecutionPlan p2 = new ExecutionPlan(consume.snapshot()).withDevice(device)) {
            for (int r = 0; r < runs; r++) {
                p1.execute();
                p2.execute();
            }
            boolean jvm = device.info().backend().equals("jvm");
            for (KernelArray a : new KernelArray[] {t, acc, counts, wide}) {
                assertTrue(device.holds(a), a + " on " + device.id());
                // only the JVM, whose device memory is the host's, gives them host memory
                assertEquals(jvm, a.hasHostMemory(), a + " host memory on " + device.id());
            }
            for (int i = 0; i < n; i++) {
                double ti = -2.5 * x[i] + i, want = ti * ti - runs * x[i];
                assertEquals(want, y.get(i), 1e-12 * Math.max(1, Math.abs(ti * ti)), "y[" + i + "] on " + device.id());
            }
            p2.execute().transferToHost(counts, wide); // asked for: they get host memory and the device's values
            for (int i = 0; i < n; i++) {
                assertEquals(runs * (i % 7 - 3), counts.get(i), "counts[" + i + "] on " + device.id());
                assertEquals(runs * (long) i * (1L << 33), wide.get(i), "wide[" + i + "] on " + device.id());
            }
            assertTrue(counts.hasHostMemory());
        }
    }

    @ParameterizedTest(name = "{0} n={1}")
    @MethodSource("cases")
    void transferToHostInAGraphGivesHostMemoryWithTheDevicesValues(Device device, int n) {
        double[] x = new SplittableRandom(7 + n).doubles(n, -1, 1).toArray();
        DoubleArray xs = DoubleArray.fromArray(x), t = DoubleArray.onDevice(n);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, xs)
                .task("affine", DeviceOnlyKernels::affine, xs, t, 3.0, n)
                .transferToHost(DataTransferMode.UNDER_DEMAND, t).snapshot()).withDevice(device)) {
            p.execute();
            if (!device.info().backend().equals("jvm")) assertFalse(t.hasHostMemory(), "UNDER_DEMAND copies nothing");
            p.execute().transferToHost(t);
            double[] got = t.toHeapArray();
            for (int i = 0; i < n; i++) assertEquals(3.0 * x[i] + i, got[i], 1e-12, "t[" + i + "] on " + device.id());
        }
        DoubleArray u = DoubleArray.onDevice(n);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("h").transferToDevice(DataTransferMode.FIRST_EXECUTION, xs)
                .task("affine", DeviceOnlyKernels::affine, xs, u, -1.0, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, u).snapshot()).withDevice(device)) {
            p.execute();
            for (int i = 0; i < n; i++) assertEquals(-x[i] + i, u.get(i), 1e-12, "u[" + i + "] on " + device.id());
        }
    }

    @Test
    void hostAccessWithoutHostMemoryFailsNamingTheArray() {
        DoubleArray d = DoubleArray.onDevice(5);
        IntArray i = IntArray.onDevice(1 << 20);
        assertTrue(d.isDeviceOnly());
        assertFalse(d.hasHostMemory());
        assertFalse(new DoubleArray(5).isDeviceOnly());
        for (Runnable r : List.<Runnable>of(() -> d.get(0), () -> d.set(4, 1.0), () -> d.init(2.0), d::toHeapArray, d::segment,
                () -> i.get(123), () -> i.set(1L, 3))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, r::run);
            assertTrue(e.getMessage().contains("device-only") && e.getMessage().contains("transferToHost"), e.getMessage());
        }
        assertTrue(d.toString().contains("device-only"), d.toString());
        assertThrows(IndexOutOfBoundsException.class, () -> d.attachHostMemory().getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 5));
        assertEquals(0.0, d.get(4)); // attached memory is zero-filled and usable
        assertThrows(IllegalArgumentException.class, () -> DoubleArray.onDevice(-1));
    }

    @Test
    void uploadingADeviceOnlyArrayIsRejectedWhenTheGraphIsBuilt() {
        LongArray l = LongArray.onDevice(10);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, new DoubleArray(3), l));
        assertTrue(e.getMessage().contains("LongArray[10]") && e.getMessage().contains("device-only"), e.getMessage());
    }
}
