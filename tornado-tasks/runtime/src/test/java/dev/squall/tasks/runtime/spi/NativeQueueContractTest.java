package dev.squall.tasks.runtime.spi;

import dev.squall.tasks.runtime.BuildCache;
import dev.squall.tasks.runtime.DeviceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.*;

/**
 * What every native backend's queues must do, run by one subclass per backend on that backend's first device:
 * event ordering between queues, pinned memory, asynchronous copies through it, and the errors of misuse.
 * A subclass gives the device and the two kernels in its dialect: {@code slowIncrement(int* a, float* scratch,
 * int iterations)} increments {@code a[i]} after a dependent loop long enough that a consumer not waiting for it
 * would read the old value, and {@code timesThree(const int* a, int* b)} writes {@code b[i] = 3 a[i]}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class NativeQueueContractTest {
    private final String source;
    /** Work-items of every launch, and the work-group size. */
    protected final int n, local;
    private final int slowIterations, rounds;

    protected NativeDevice dev;
    protected DeviceProgram program;

    /**
     * @param source         the two kernels in the backend's dialect
     * @param slowIterations the length of {@code slowIncrement}'s dependent loop
     * @param rounds         producer-consumer rounds of the event-ordering test
     */
    protected NativeQueueContractTest(String source, int n, int local, int slowIterations, int rounds) {
        this.source = source;
        this.n = n;
        this.local = local;
        this.slowIterations = slowIterations;
        this.rounds = rounds;
    }

    /** The device under test; skips the class when the backend is absent (fails instead when it is required). */
    protected abstract NativeDevice openDevice(BuildCache cache);

    @BeforeAll
    void open(@TempDir Path cacheDir) {
        dev = openDevice(new BuildCache(cacheDir));
        program = dev.build(getClass().getSimpleName(), source);
    }

    @AfterAll
    void close() {
        if (dev != null) dev.close();
    }

    /** {@code timesThree} bound to {@code a} and {@code b}. */
    protected BoundLaunch timesThree(DeviceBuffer a, DeviceBuffer b) {
        return program.kernel("timesThree").bind(new KernelArg[] {new KernelArg.Buffer(a), new KernelArg.Buffer(b)});
    }

    @Test
    void consumerOnAnotherQueueWaitsForTheProducersEvent() {
        NativeQueue producerQueue = dev.newQueue(), consumerQueue = dev.newQueue();
        DeviceBuffer a = dev.allocate(4L * n), b = dev.allocate(4L * n), scratch = dev.allocate(4L * n);
        BoundLaunch produce = program.kernel("slowIncrement").bind(new KernelArg[] {
                new KernelArg.Buffer(a), new KernelArg.Buffer(scratch), new KernelArg.I32(slowIterations)});
        BoundLaunch consume = timesThree(a, b);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(JAVA_INT, n);
            producerQueue.copyToDevice(host, a, 0, 4L * n); // zeros
            for (int round = 1; round <= rounds; round++) {
                produce.launch(producerQueue, new long[] {n}, new long[] {local});
                DeviceEvent produced = producerQueue.record();
                consumerQueue.waitFor(produced);
                consume.launch(consumerQueue, new long[] {n}, new long[] {local});
                consumerQueue.copyToHost(b, 0, host, 4L * n);
                assertTrue(produced.isComplete(), "the consumer's queue finished, so the event it waited for has");
                for (int i = 0; i < n; i++) assertEquals(3 * round, host.getAtIndex(JAVA_INT, i), "round " + round + ", b[" + i + "]");
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
        for (long i = 0; i < 1000; i++) assertEquals(0, pinned.get(JAVA_BYTE, i));
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
        DeviceBuffer a = dev.allocate(4L * n), b = dev.allocate(4L * n);
        MemorySegment in = dev.allocatePinned(4L * n), out = dev.allocatePinned(4L * n);
        for (int i = 0; i < n; i++) {
            in.setAtIndex(JAVA_INT, i, 7 * i - 100);
            out.setAtIndex(JAVA_INT, i, -1);
        }
        BoundLaunch times3 = timesThree(a, b);
        try {
            q.copyToDeviceAsync(in, a, 0, 4L * n);
            times3.launch(q, new long[] {n}, new long[] {local});
            q.copyToHostAsync(b, 0, out, 4L * n);
            DeviceEvent done = q.record();
            done.await();
            assertTrue(done.isComplete());
            for (int i = 0; i < n; i++) assertEquals(3 * (7 * i - 100), out.getAtIndex(JAVA_INT, i), "b[" + i + "]");
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
}
