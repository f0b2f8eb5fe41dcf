package dev.squall.tasks.runtime;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** {@link ExecutionPlan#executeAsync()} and its handle: results, profiles, and failures surfacing at await. */
class ExecutionHandleTest {
    public static final class Kernels {
        @Kernel
        public static void addOne(IntArray a, int n) {
            for (@Parallel int i = 0; i < n; i++) a.set(i, a.get(i) + 1);
        }

        @Kernel
        public static void fill(KernelContext ctx, IntArray a, int v) {
            a.set(ctx.globalIdx, v + ctx.globalIdx);
        }
    }

    static List<Device> devices() {
        return TestDevices.all();
    }

    static List<Device> nativeDevices() {
        return TestDevices.all().stream().filter(d -> d.info().type() != DeviceType.JVM).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void awaitGivesTheResultOfTheExecution(Device device) {
        int n = 5000;
        IntArray a = new IntArray(n);
        for (int i = 0; i < n; i++) a.set(i, 2 * i);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
                .task("t", Kernels::addOne, a, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(device).withProfiler(true)) {
            ExecutionHandle h = p.executeAsync();
            ExecutionResult r = h.await();
            assertSame(r, h.await(), "await again gives the same result");
            assertTrue(h.isDone() && h.event().isDone());
            assertTrue(r.profile().compileMillis() > 0 && r.profile().kernelMillis() >= 0 && r.profile().hostMicros() > 0,
                    r.profile().toString());
            for (int i = 0; i < n; i++) assertEquals(2 * i + 1, a.get(i), "a[" + i + "]");
            for (int i = 0; i < n; i++) a.set(i, -i);
            Profile second = p.executeAsync().await().profile();
            assertEquals(0, second.compileMillis());
            for (int i = 0; i < n; i++) assertEquals(-i + 1, a.get(i), "second execution, a[" + i + "]");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void onDemandCopiesAfterAwait(Device device) {
        int n = 777;
        IntArray a = new IntArray(n);
        try (DeviceQueue q = device.newQueue(); ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("t", Kernels::addOne, a, n)
                .transferToHost(DataTransferMode.UNDER_DEMAND, a).snapshot()).onQueue(q)) {
            p.executeAsync();
            p.executeAsync();
            p.executeAsync().await().transferToHost(a);
        }
        for (int i = 0; i < n; i++) assertEquals(3, a.get(i), "a[" + i + "]");
    }

    @Test
    void aFailingJvmKernelSurfacesAtAwait() {
        IntArray a = new IntArray(10);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").task("t", Kernels::addOne, a, 11).snapshot())
                .withDevice(Devices.jvm())) {
            ExecutionHandle h = p.executeAsync(); // returns: the kernel fails on the queue's runner
            DeviceException e = assertThrows(DeviceException.class, h::await);
            assertTrue(e.getMessage().contains("addOne") && e.getMessage().contains("out of bounds"), e.getMessage());
            assertSame(e, assertThrows(DeviceException.class, h::await), "await again throws the same failure");
            h.event().await(); // the event completes although the work failed
            assertTrue(h.isDone());
        }
        IntArray ok = new IntArray(10);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").task("t", Kernels::addOne, ok, 10).snapshot())
                .withDevice(Devices.jvm())) {
            p.executeAsync().await(); // the default queue goes on after a failure
        }
        assertEquals(1, ok.get(9));
    }

    @Test
    void aFailingJvmKernelOfAProfiledPlanSurfacesAtAwaitAndAtExecute() {
        IntArray a = new IntArray(10);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
                .task("t", Kernels::addOne, a, 11)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot())
                .withDevice(Devices.jvm()).withProfiler(true)) {
            ExecutionHandle h = p.executeAsync();
            DeviceException e = assertThrows(DeviceException.class, h::await);
            assertTrue(e.getMessage().contains("addOne") && e.getMessage().contains("out of bounds"), e.getMessage());
            h.event().await();
            DeviceException direct = assertThrows(DeviceException.class, p::execute);
            assertTrue(direct.getMessage().contains("addOne") && direct.getMessage().contains("out of bounds"), direct.getMessage());
        }
        IntArray ok = new IntArray(10);
        try (ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").task("t", Kernels::addOne, ok, 10).snapshot())
                .withDevice(Devices.jvm()).withProfiler(true)) {
            assertTrue(p.execute().profile().kernelMillis() >= 0); // the earlier failures were reported and are gone
        }
        assertEquals(1, ok.get(9));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nativeDevices")
    void aLaunchTheDriverRejectsSurfacesAtAwaitWithItsMessage(Device device) {
        long tooLarge = 2L * device.info().maxWorkGroupSize();
        IntArray a = new IntArray(tooLarge);
        try (DeviceQueue q = device.newQueue(); ExecutionPlan p = new ExecutionPlan(new TaskGraph("g")
                .task("t", Kernels::fill, new KernelContext(), a, 5).snapshot())
                .onQueue(q).withGrid("t", WorkerGrid.of(tooLarge).withLocal(tooLarge))) {
            ExecutionHandle h = p.executeAsync();
            DeviceException e = assertThrows(DeviceException.class, h::await);
            String expected = device.info().backend().equals("opencl") ? "CL_INVALID_WORK_GROUP_SIZE" : "block exceeds the limits";
            assertTrue(e.getMessage().contains(expected), e.getMessage());
            h.event().await();
            p.withGrid("t", WorkerGrid.of(tooLarge).withLocal(64)).execute().transferToHost(a); // the queue still works
        }
        for (int i = 0; i < tooLarge; i++) assertEquals(5 + i, a.get(i), "a[" + i + "]");
    }

    @Test
    void aPlanThatCannotBePreparedIsRejectedByExecuteAsyncItself() {
        IntArray a = new IntArray(10);
        ExecutionPlan p = new ExecutionPlan(new TaskGraph("g").task("t", Kernels::fill, new KernelContext(), a, 1).snapshot())
                .withDevice(Devices.jvm());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::executeAsync);
        assertTrue(e.getMessage().contains("needs a grid"), e.getMessage());
        assertEquals(0, a.get(0), "nothing ran");
    }
}
