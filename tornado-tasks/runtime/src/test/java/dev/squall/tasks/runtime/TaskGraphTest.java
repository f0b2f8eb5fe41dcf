package dev.squall.tasks.runtime;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Transfer modes, device residency between executions and graphs, and argument checks, on every device. */
class TaskGraphTest {
    public static final class Kernels {
        @Kernel
        public static void addOne(IntArray a, int n) {
            for (@Parallel int i = 0; i < n; i++) a.set(i, a.get(i) + 1);
        }

        @Kernel
        public static void copyScaled(IntArray src, IntArray dst, int factor, int n) {
            for (@Parallel int i = 0; i < n; i++) dst.set(i, src.get(i) * factor);
        }

        @Kernel
        public static void fill(KernelContext ctx, IntArray a, int v) {
            a.set(ctx.globalIdx, v + ctx.globalIdx);
        }
    }

    static List<Device> devices() {
        return TestDevices.all();
    }

    private static IntArray iota(int n) {
        IntArray a = new IntArray(n);
        for (int i = 0; i < n; i++) a.set(i, i * 3 - 7);
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void dataStaysOnTheDeviceBetweenExecutions(Device device) {
        int n = 1000;
        IntArray a = iota(n);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t", Kernels::addOne, a, n)
                .transferToHost(DataTransferMode.UNDER_DEMAND, a).snapshot()).withDevice(device)) {
            for (int r = 0; r < 5; r++) p.execute();
            ExecutionResult last = p.execute();
            if (device.info().type() != DeviceType.JVM) assertEquals(-7, a.get(0), "no copy back before it is asked for");
            last.transferToHost(a);
        }
        for (int i = 0; i < n; i++) assertEquals(i * 3 - 7 + 6, a.get(i), "element " + i);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void everyExecutionCopiesTheHostDataAgain(Device device) {
        int n = 333;
        IntArray a = iota(n);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
                .task("t", Kernels::addOne, a, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(device)) {
            p.execute();
            a.set(5, 1000);
            p.execute();
        }
        assertEquals(1001, a.get(5), "the host's new value went to the device and was incremented once");
        assertEquals(0 - 7 + 2, a.get(0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void arraysStayResidentBetweenGraphs(Device device) {
        int n = 500;
        IntArray a = iota(n), b = new IntArray(n);
        b.init(-1);
        try (ExecutionPlan first = new ExecutionPlan(new TaskGraph("producer")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t", Kernels::addOne, a, n).snapshot()).withDevice(device);
             ExecutionPlan second = new ExecutionPlan(new TaskGraph("consumer")
                     .task("t", Kernels::copyScaled, a, b, 2, n)
                     .transferToHost(DataTransferMode.EVERY_EXECUTION, b).snapshot()).withDevice(device)) {
            first.execute();
            second.execute();
        }
        for (int i = 0; i < n; i++) assertEquals((i * 3 - 7 + 1) * 2, b.get(i), "element " + i);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void profilerReportsTimes(Device device) {
        int n = 4096;
        IntArray a = iota(n);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
                .task("t", Kernels::fill, new KernelContext(), a, 5)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(device)) {
            Profile pr = p.withProfiler(true).withGrid("g.t", WorkerGrid.of(n).withLocal(64)).execute().profile();
            assertTrue(pr.kernelMillis() >= 0 && pr.toDeviceMillis() >= 0 && pr.toHostMillis() >= 0 && pr.hostMicros() > 0, pr.toString());
            assertTrue(pr.compileMillis() > 0, "first execution reports compile time: " + pr);
            Profile second = p.execute().profile();
            assertEquals(0, second.compileMillis(), "second execution compiles nothing");
        }
        for (int i = 0; i < n; i++) assertEquals(5 + i, a.get(i));
    }

    @Test
    @SuppressWarnings({"rawtypes", "unchecked"})
    void wrongArgumentsAreRejectedWhenTheTaskIsAdded() {
        IntArray a = iota(10);
        KernelFunctions.Task2<IntArray, Integer> typed = Kernels::addOne;
        KernelFunctions.Task2 raw = typed; // raw types: what javac cannot check, the graph does
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", raw, a, 10L));
        assertTrue(e.getMessage().contains("task g.t") && e.getMessage().contains("argument 1 (n)") && e.getMessage().contains("must be int"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", raw, new DoubleArray(10), 10));
        assertTrue(e.getMessage().contains("argument 0 (a)") && e.getMessage().contains("must be IntArray"), e.getMessage());
        assertEquals(-7, a.get(0), "nothing ran");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("devicesAndPrecisions")
    void aVariantHandleRunsTheKernelOfThePrecision(Device device, Precision p) {
        int n = 777;
        double[] x = new double[n], y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 1.0 / (i + 3);
            y[i] = (i % 7) - 3.1;
        }
        KernelArray xs = p.fromDoubles(x), ys = p.fromDoubles(y);
        double a = 0.1;
        try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, xs, ys)
                .task("axpy", Axpy.axpy.at(p), xs, ys, a, n)
                .task("scale", WorkerGrid.of(1024).withLocal(64), Axpy.scaleSpmd.at(p), new KernelContext(), ys, 3.0, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, ys).snapshot()).withDevice(device)) {
            plan.execute();
        }
        double[] got = Precision.read(ys, n);
        double maxFromDouble = 0;
        for (int i = 0; i < n; i++) {
            // devices may or may not contract a * x + y into a fused multiply-add: accept either rounding
            double fused, separate, ulp;
            if (p == Precision.FP32) {
                fused = 3f * Math.fma((float) a, (float) x[i], (float) y[i]);
                separate = 3f * ((float) a * (float) x[i] + (float) y[i]);
                ulp = Math.ulp((float) separate);
            } else {
                fused = 3 * Math.fma(a, x[i], y[i]);
                separate = 3 * (a * x[i] + y[i]);
                ulp = Math.ulp(separate);
            }
            double err = Math.min(Math.abs(got[i] - fused), Math.abs(got[i] - separate));
            assertTrue(err <= 2 * ulp, "element " + i + ": " + got[i] + " against " + separate + " (" + p + ")");
            maxFromDouble = Math.max(maxFromDouble, Math.abs(got[i] - 3 * (a * x[i] + y[i])));
        }
        if (p == Precision.FP32) assertTrue(maxFromDouble > 1e-9, "the fp32 kernel rounds to float: " + maxFromDouble);
        else assertTrue(maxFromDouble < 1e-13, "the fp64 kernel keeps double: " + maxFromDouble);
    }

    @Test
    void aVariantHandleRejectsArraysOfTheOtherPrecision() {
        DoubleArray x = new DoubleArray(4), y = new DoubleArray(4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TaskGraph("g").task("axpy", Axpy.axpy.at(Precision.FP32), x, y, 2.0, 4));
        assertTrue(e.getMessage().contains("task g.axpy") && e.getMessage().contains("argument 0 (x)") && e.getMessage().contains("FloatArray"),
                e.getMessage());
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> devicesAndPrecisions() {
        return devices().stream().flatMap(d -> java.util.stream.Stream.of(Precision.values())
                .map(p -> org.junit.jupiter.params.provider.Arguments.of(d, p)));
    }

    @Test
    void spmdKernelWithoutGridIsRejected() {
        IntArray a = iota(10);
        ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").task("t", Kernels::fill, new KernelContext(), a, 1).snapshot()).withDevice(Devices.jvm());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::execute);
        assertTrue(e.getMessage().contains("needs a grid"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void aGridGivenWithTheTaskIsUsed(Device device) {
        int n = 640;
        IntArray a = iota(n);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .task("t", WorkerGrid.of(n).withLocal(32), Kernels::fill, new KernelContext(), a, 9)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(device)) {
            p.execute();
        }
        for (int i = 0; i < n; i++) assertEquals(9 + i, a.get(i), "element " + i);
    }

    @Test
    void unknownDeviceNamesThePresentOnes() {
        DeviceException e = assertThrows(DeviceException.class, () -> Devices.get("opencl:9:9"));
        assertTrue(e.getMessage().contains("opencl:9:9"), e.getMessage());
    }

    @Test
    void jvmRunsAKernelThatFailsWithItsError() {
        IntArray a = iota(10);
        ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").task("t", Kernels::addOne, a, 11).snapshot()).withDevice(Devices.jvm());
        DeviceException e = assertThrows(DeviceException.class, p::execute);
        assertTrue(e.getMessage().contains("addOne") && e.getMessage().contains("out of bounds"), e.getMessage());
    }
}
