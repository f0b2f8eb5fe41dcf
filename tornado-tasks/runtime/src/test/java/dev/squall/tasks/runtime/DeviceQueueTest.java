package dev.squall.tasks.runtime;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Graphs on several queues of one device, ordered by events, on every device present (the JVM and
 * PoCL in CI). The producer's kernel is slow and the consumer's fast, so a consumer that did not wait
 * for the producer's event would read the previous round's values (checked by hand: without the wait
 * these tests fail in the first rounds on the JVM and on PoCL).
 */
class DeviceQueueTest {
    public static final class Kernels {
        /** Increments every element of {@code a} after a dependent loop of {@code iterations} steps per element. */
        @Kernel
        public static void slowIncrement(IntArray a, FloatArray scratch, int iterations, int n) {
            for (@Parallel int i = 0; i < n; i++) {
                float x = (float) i;
                for (int k = 0; k < iterations; k++) x = x * 0.99993f + 1.0f;
                scratch.set(i, x);
                a.set(i, a.get(i) + 1);
            }
        }

        @Kernel
        public static void timesThree(IntArray a, IntArray b, int n) {
            for (@Parallel int i = 0; i < n; i++) b.set(i, a.get(i) * 3);
        }
    }

    static final int N = 1024, ITERATIONS = 20_000, ROUNDS = 25;

    static List<Device> devices() {
        return TestDevices.all();
    }

    static ExecutionPlan producer(IntArray a, FloatArray scratch) {
        return new ExecutionPlan(new TaskGraph("produce")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                .task("inc", Kernels::slowIncrement, a, scratch, ITERATIONS, N).snapshot());
    }

    static ExecutionPlan consumer(IntArray a, IntArray b) {
        return new ExecutionPlan(new TaskGraph("consume")
                .task("x3", Kernels::timesThree, a, b, N)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b).snapshot());
    }

    static void assertAll(IntArray b, int expected, String where) {
        for (int i = 0; i < N; i++) assertEquals(expected, b.get(i), where + ", b[" + i + "]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void consumerOnQueueBWaitsForTheProducerOnQueueA(Device device) {
        IntArray a = new IntArray(N), b = new IntArray(N);
        FloatArray scratch = new FloatArray(N);
        try (DeviceQueue qa = device.newQueue(); DeviceQueue qb = device.newQueue();
             ExecutionPlan produce = producer(a, scratch).onQueue(qa); ExecutionPlan consume = consumer(a, b).onQueue(qb)) {
            for (int round = 1; round <= ROUNDS; round++) {
                ExecutionHandle produced = produce.executeAsync();
                ExecutionHandle consumed = consume.after(produced.event()).executeAsync();
                consumed.await();
                assertAll(b, 3 * round, "round " + round);
                assertTrue(produced.isDone(), "the consumer finished, so the producer it waited for has");
                produced.await();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void pinnedArraysTravelAsynchronouslyInOrder(Device device) {
        IntArray a = IntArray.pinned(N, device), b = IntArray.pinned(N, device);
        FloatArray scratch = new FloatArray(N);
        assertEquals(device.info().type() != DeviceType.JVM, device.isPinned(b), "native devices place pinned arrays in their pinned memory");
        try (DeviceQueue qa = device.newQueue(); DeviceQueue qb = device.newQueue();
             ExecutionPlan produce = producer(a, scratch).onQueue(qa); ExecutionPlan consume = consumer(a, b).onQueue(qb)) {
            for (int round = 1; round <= ROUNDS; round++) {
                b.init(-1);
                ExecutionHandle produced = produce.executeAsync();
                consume.after(produced.event()).executeAsync().await();
                assertAll(b, 3 * round, "round " + round);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void queueWaitForOrdersWorkWithoutBlockingTheHost(Device device) {
        IntArray a = new IntArray(N), b = new IntArray(N);
        FloatArray scratch = new FloatArray(N);
        try (DeviceQueue qa = device.newQueue(); DeviceQueue qb = device.newQueue();
             ExecutionPlan produce = producer(a, scratch).onQueue(qa); ExecutionPlan consume = consumer(a, b).onQueue(qb)) {
            for (int round = 1; round <= ROUNDS; round++) {
                produce.executeAsync();
                qb.waitFor(qa.record());
                consume.execute();
                assertAll(b, 3 * round, "round " + round);
            }
            qa.synchronize();
            Event last = qa.record();
            last.await();
            assertTrue(last.isDone());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void workOnOneQueueRunsInOrder(Device device) {
        IntArray a = new IntArray(N), b = new IntArray(N);
        FloatArray scratch = new FloatArray(N);
        try (DeviceQueue q = device.newQueue();
             ExecutionPlan produce = producer(a, scratch).onQueue(q); ExecutionPlan consume = consumer(a, b).onQueue(q)) {
            for (int round = 1; round <= 5; round++) {
                produce.executeAsync();
                produce.executeAsync();
                consume.execute(); // same queue: after both increments, without any event
                assertAll(b, 6 * round, "round " + round);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void aClosedQueueIsRejected(Device device) {
        DeviceQueue q = device.newQueue();
        IntArray a = new IntArray(N);
        ExecutionPlan p = producer(a, new FloatArray(N)).onQueue(q);
        q.close();
        assertTrue(q.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, p::execute);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> p.onQueue(q));
        assertEquals(0, a.get(0), "nothing ran");
        device.defaultQueue().close();
        assertFalse(device.defaultQueue().isClosed(), "the default queue stays open");
        p.onQueue(device.defaultQueue()).execute();
        if (device.info().type() == DeviceType.JVM) assertEquals(1, a.get(0));
    }

    @Test
    void eventsOfAnotherDeviceAreAwaitedOnTheHost() {
        Device gpu = TestDevices.all().stream().filter(d -> d.info().type() != DeviceType.JVM).findFirst().orElse(null);
        assumeTrue(gpu != null, "needs a native device beside the JVM");
        Device jvm = Devices.jvm();
        IntArray a = IntArray.pinned(N, gpu), b = new IntArray(N);
        FloatArray scratch = new FloatArray(N);
        // the native device increments a and copies it back asynchronously; the JVM's queue waits for that copy
        try (DeviceQueue nativeQueue = gpu.newQueue(); DeviceQueue jvmQueue = jvm.newQueue();
             ExecutionPlan produce = new ExecutionPlan(new TaskGraph("produce")
                     .transferToDevice(DataTransferMode.FIRST_EXECUTION, a)
                     .task("inc", Kernels::slowIncrement, a, scratch, ITERATIONS, N)
                     .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).onQueue(nativeQueue);
             ExecutionPlan consume = consumer(a, b).onQueue(jvmQueue)) {
            for (int round = 1; round <= 10; round++) {
                ExecutionHandle produced = produce.executeAsync();
                consume.after(produced.event()).executeAsync().await();
                assertAll(b, 3 * round, "round " + round);
            }
        }
        // the other way: the JVM produces in host memory, the native device's queue waits before copying it in
        IntArray c = new IntArray(N), d = IntArray.pinned(N, gpu);
        try (DeviceQueue jvmQueue = jvm.newQueue(); DeviceQueue nativeQueue = gpu.newQueue();
             ExecutionPlan produce = producer(c, scratch).onQueue(jvmQueue);
             ExecutionPlan consume = new ExecutionPlan(new TaskGraph("consume")
                     .transferToDevice(DataTransferMode.EVERY_EXECUTION, c)
                     .task("x3", Kernels::timesThree, c, d, N)
                     .transferToHost(DataTransferMode.EVERY_EXECUTION, d).snapshot()).onQueue(nativeQueue)) {
            for (int round = 1; round <= 10; round++) {
                ExecutionHandle produced = produce.executeAsync();
                consume.after(produced.event()).executeAsync().await();
                for (int i = 0; i < N; i++) assertEquals(3 * round, d.get(i), "round " + round + ", d[" + i + "]");
            }
        }
    }
}
