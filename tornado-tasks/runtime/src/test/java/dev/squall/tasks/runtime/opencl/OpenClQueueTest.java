package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.*;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.*;

/** Several command queues on one OpenCL device (PoCL in CI): event ordering, pinned memory, asynchronous copies. */
class OpenClQueueTest {
    /** Increments {@code a} after a dependent loop long enough that a consumer not waiting for it would read the old value. */
    static final String SOURCE = """
            __kernel void slowIncrement(__global int* a, __global float* scratch, int iterations) {
                int i = get_global_id(0);
                float x = (float) i;
                for (int k = 0; k < iterations; k++) x = x * 0.99993f + 1.0f;
                scratch[i] = x;
                a[i] = a[i] + 1;
            }
            __kernel void timesThree(__global const int* a, __global int* b) {
                int i = get_global_id(0);
                b[i] = a[i] * 3;
            }
            """;
    static final int N = 1024, LOCAL = 64;

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

    @Test
    void consumerOnAnotherQueueWaitsForTheProducersEvent() {
        NativeQueue producerQueue = dev.newQueue(), consumerQueue = dev.newQueue();
        DeviceBuffer a = dev.allocate(4L * N), b = dev.allocate(4L * N), scratch = dev.allocate(4L * N);
        DeviceProgram p = dev.build("Queues", SOURCE);
        BoundLaunch produce = p.kernel("slowIncrement").bind(new KernelArg[] {
                new KernelArg.Buffer(a), new KernelArg.Buffer(scratch), new KernelArg.I32(20_000)});
        BoundLaunch consume = p.kernel("timesThree").bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.Buffer(b)});
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(JAVA_INT, N);
            producerQueue.copyToDevice(host, a, 0, 4L * N); // zeros
            for (int round = 1; round <= 30; round++) {
                produce.launch(producerQueue, new long[] {N}, new long[] {LOCAL});
                DeviceEvent produced = producerQueue.record();
                consumerQueue.waitFor(produced);
                consume.launch(consumerQueue, new long[] {N}, new long[] {LOCAL});
                consumerQueue.copyToHost(b, 0, host, 4L * N);
                assertTrue(produced.isComplete(), "the consumer's queue finished, so the event it waited for has");
                for (int i = 0; i < N; i++) assertEquals(3 * round, host.getAtIndex(JAVA_INT, i), "round " + round + ", b[" + i + "]");
                produced.release();
            }
        } finally {
            produce.release();
            consume.release();
            a.release(); b.release(); scratch.release();
            producerQueue.release();
            consumerQueue.release();
        }
    }

    @Test
    void pinnedMemoryIsZeroedAlignedAndRecognised() {
        MemorySegment pinned = dev.allocatePinned(1000);
        assertEquals(1000, pinned.byteSize());
        assertEquals(0, pinned.address() % 64, "64-byte aligned");
        for (long i = 0; i < 1000; i++) assertEquals(0, pinned.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i));
        assertTrue(dev.isPinned(pinned));
        assertTrue(dev.isPinned(pinned.asSlice(100, 200)));
        try (Arena arena = Arena.ofConfined()) {
            assertFalse(dev.isPinned(arena.allocate(64)), "ordinary native memory");
        }
        assertFalse(dev.isPinned(MemorySegment.ofArray(new int[4])), "heap memory");
    }

    @Test
    void asynchronousCopiesThroughPinnedMemory() {
        NativeQueue q = dev.newQueue();
        DeviceBuffer a = dev.allocate(4L * N), b = dev.allocate(4L * N);
        MemorySegment in = dev.allocatePinned(4L * N), out = dev.allocatePinned(4L * N);
        for (int i = 0; i < N; i++) {
            in.setAtIndex(JAVA_INT, i, 7 * i - 100);
            out.setAtIndex(JAVA_INT, i, -1);
        }
        BoundLaunch times3 = dev.build("Queues", SOURCE).kernel("timesThree")
                .bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.Buffer(b)});
        try {
            q.copyToDeviceAsync(in, a, 0, 4L * N);
            times3.launch(q, new long[] {N}, new long[] {LOCAL});
            q.copyToHostAsync(b, 0, out, 4L * N);
            DeviceEvent done = q.record();
            done.await();
            assertTrue(done.isComplete());
            for (int i = 0; i < N; i++) assertEquals(3 * (7 * i - 100), out.getAtIndex(JAVA_INT, i), "b[" + i + "]");
            done.release();
        } finally {
            times3.release();
            a.release(); b.release();
            q.release();
        }
    }

    @Test
    void asynchronousCopiesRejectMemoryThatIsNotPinned() {
        NativeQueue q = dev.defaultQueue();
        DeviceBuffer a = dev.allocate(64);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment plain = arena.allocate(64);
            DeviceException e = assertThrows(DeviceException.class, () -> q.copyToDeviceAsync(plain, a, 0, 64));
            assertEquals(DeviceException.Kind.BAD_ARGUMENT, e.kind());
            assertTrue(e.getMessage().contains("not pinned"), e.getMessage());
            e = assertThrows(DeviceException.class, () -> q.copyToHostAsync(a, 0, plain, 64));
            assertTrue(e.getMessage().contains("not pinned"), e.getMessage());
        } finally {
            a.release();
        }
    }

    @Test
    void aReleasedQueueRejectsWork() {
        NativeQueue q = dev.newQueue();
        q.release();
        q.release(); // idempotent
        DeviceException e = assertThrows(DeviceException.class, q::record);
        assertTrue(e.getMessage().contains("released"), e.getMessage());
    }

    @Test
    void launchErrorsOnAQueueCarryTheDriversName() {
        NativeQueue q = dev.newQueue();
        DeviceBuffer a = dev.allocate(4L * N), b = dev.allocate(4L * N);
        BoundLaunch times3 = dev.build("Queues", SOURCE).kernel("timesThree")
                .bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.Buffer(b)});
        try {
            long tooLarge = 2L * dev.info().maxWorkGroupSize();
            DeviceException e = assertThrows(DeviceException.class,
                    () -> times3.launch(q, new long[] {tooLarge}, new long[] {tooLarge}));
            assertTrue(e.getMessage().contains("CL_INVALID_WORK_GROUP_SIZE"), e.getMessage());
        } finally {
            times3.release();
            a.release(); b.release();
            q.release();
        }
    }
}
