package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceEvent;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.*;

/** The JVM queue: in-order execution, events across queues, failures reported by the next event or synchronize, copies. */
class JvmQueueTest {
    private final JvmDevice device = new JvmDevice();

    private JvmQueue newQueue() {
        return (JvmQueue) device.newQueue();
    }

    @Test
    void workRunsInSubmissionOrder() {
        JvmQueue q = newQueue();
        List<Integer> seen = new ArrayList<>();
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int k = i;
            fs.add(q.submit(() -> {
                synchronized (seen) {
                    seen.add(k);
                }
            }));
        }
        q.synchronize();
        for (int i = 0; i < 200; i++) assertEquals(i, seen.get(i));
        assertTrue(fs.stream().allMatch(CompletableFuture::isDone));
    }

    @Test
    void twoQueuesRunAtTheSameTime() {
        // each queue's work waits for the other's: this finishes only if both run concurrently
        JvmQueue a = newQueue(), b = newQueue();
        CountDownLatch aStarted = new CountDownLatch(1), bStarted = new CountDownLatch(1);
        CompletableFuture<Void> fa = a.submit(() -> {
            aStarted.countDown();
            awaitQuietly(bStarted);
        });
        CompletableFuture<Void> fb = b.submit(() -> {
            bStarted.countDown();
            awaitQuietly(aStarted);
        });
        a.synchronize();
        b.synchronize();
        assertFalse(fa.isCompletedExceptionally() || fb.isCompletedExceptionally());
    }

    @Test
    void aQueueWaitsForAnotherQueuesEventWithoutBlockingTheCaller() throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            JvmQueue a = newQueue(), b = newQueue();
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger value = new AtomicInteger();
            a.submit(() -> {
                awaitQuietly(release);
                value.set(42);
            });
            JvmEvent produced = a.record();
            b.waitFor(produced);
            int[] read = new int[1];
            CompletableFuture<Void> consumer = b.submit(() -> read[0] = value.get());
            Thread.sleep(round == 0 ? 20 : 0); // the caller was not blocked; the consumer must still be waiting
            assertFalse(consumer.isDone(), "consumer ran before the producer's event");
            assertFalse(produced.isComplete());
            release.countDown();
            consumer.join();
            assertEquals(42, read[0], "round " + round);
            assertTrue(produced.isComplete());
        }
    }

    @Test
    void eventsMeasureTheTimeOfTheWorkBetweenThem() {
        JvmQueue q = newQueue();
        JvmEvent before = q.record();
        q.submit(() -> sleep(40));
        JvmEvent after = q.record();
        after.await();
        double ms = after.millisSince(before);
        assertTrue(ms >= 35 && ms < 5_000, ms + " ms for 40 ms of work");
    }

    @Test
    void runOnTheCallingThreadWaitsForEarlierWork() {
        JvmQueue q = newQueue();
        AtomicInteger value = new AtomicInteger();
        q.submit(() -> {
            sleep(30);
            value.set(1);
        });
        int[] seen = new int[1];
        Thread caller = Thread.currentThread();
        Thread[] ranOn = new Thread[1];
        q.run(() -> {
            seen[0] = value.get();
            ranOn[0] = Thread.currentThread();
        });
        assertEquals(1, seen[0]);
        assertSame(caller, ranOn[0]);
    }

    @Test
    void aFailureIsReportedByTheNextEventAndLaterWorkStillRuns() {
        JvmQueue q = newQueue();
        JvmEvent before = q.record();
        CompletableFuture<Void> bad = q.submit(() -> {
            throw new IllegalStateException("kernel failed");
        });
        AtomicInteger after = new AtomicInteger();
        CompletableFuture<Void> good = q.submit(after::incrementAndGet);
        JvmEvent afterBad = q.record();
        CompletionException e = assertThrows(CompletionException.class, bad::join);
        assertEquals("kernel failed", e.getCause().getMessage());
        good.join();
        assertEquals(1, after.get());
        before.await(); // recorded before the failing work
        IllegalStateException reported = assertThrows(IllegalStateException.class, afterBad::await);
        assertEquals("kernel failed", reported.getMessage());
        assertThrows(IllegalStateException.class, afterBad::await, "each await of the event reports it");
        assertTrue(afterBad.isComplete(), "the event completed although work before it failed");
        q.record().await(); // nothing failed since the last event
        q.synchronize();
        IllegalStateException direct = assertThrows(IllegalStateException.class, () -> q.run(() -> {
            throw new IllegalStateException("inline");
        }));
        assertEquals("inline", direct.getMessage());
        q.synchronize();
    }

    @Test
    void synchronizeReportsAFailureSinceTheLastEventOnceKeepingItsKind() {
        JvmQueue q = newQueue();
        q.submit(() -> {
            throw new DeviceException(DeviceException.Kind.DRIVER_ERROR, "kernel k failed on jvm: index 7 out of bounds");
        });
        DeviceException e = assertThrows(DeviceException.class, q::synchronize);
        assertEquals(DeviceException.Kind.DRIVER_ERROR, e.kind());
        assertEquals("kernel k failed on jvm: index 7 out of bounds", e.getMessage());
        assertInstanceOf(DeviceException.class, e.getCause(), "the runner's exception is the cause");
        q.synchronize(); // reported once
    }

    @Test
    void aHostWaitForAnotherDevicesEventRunsOffTheCallersThread() {
        JvmQueue q = newQueue();
        CountDownLatch go = new CountDownLatch(1);
        DeviceEvent foreign = new DeviceEvent() {
            @Override
            public double millisSince(DeviceEvent earlier) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void await() {
                awaitQuietly(go);
            }

            @Override
            public boolean isComplete() {
                return go.getCount() == 0;
            }

            @Override
            public void release() {
            }
        };
        assertThrows(IllegalArgumentException.class, () -> q.waitFor(foreign), "waitFor takes events of the jvm device only");
        q.waitOnHost(foreign); // returns at once
        CompletableFuture<Void> after = q.submit(() -> { });
        assertFalse(after.isDone());
        go.countDown();
        after.join();
    }

    @Test
    void copiesOfAnArraysOwnBufferMoveNothingAndPlainBuffersWaitForEarlierWork() {
        JvmQueue q = newQueue();
        IntArray a = new IntArray(4);
        DeviceBuffer own = device.allocate(a);
        a.set(2, 7);
        q.copyToDevice(a.segment(), own, 0, a.byteSize());
        q.copyToHost(own, 0, a.segment(), a.byteSize());
        assertEquals(7, a.get(2));

        DeviceBuffer plain = device.allocate(16);
        MemorySegment host = Arena.ofAuto().allocate(16, 8);
        host.setAtIndex(JAVA_INT, 1, 5);
        q.copyToDevice(host, plain, 0, 16);
        MemorySegment deviceSide = ((JvmBuffer) plain).segment();
        assertEquals(5, deviceSide.getAtIndex(JAVA_INT, 1));
        q.submit(() -> {
            sleep(30);
            deviceSide.setAtIndex(JAVA_INT, 3, 9); // a "kernel" writing the buffer
        });
        MemorySegment back = Arena.ofAuto().allocate(16, 8);
        q.copyToHost(plain, 0, back, 16);
        assertEquals(9, back.getAtIndex(JAVA_INT, 3), "the copy back waited for the kernel before it");
        assertEquals(5, back.getAtIndex(JAVA_INT, 1));
    }

    @Test
    void asynchronousCopiesNeedPinnedMemoryWhichTheJvmHasNone() {
        JvmQueue q = newQueue();
        IntArray a = new IntArray(4);
        DeviceBuffer own = device.allocate(a);
        assertFalse(device.isPinned(device.allocatePinned(64)));
        DeviceException e = assertThrows(DeviceException.class, () -> q.copyToDeviceAsync(a.segment(), own, 0, a.byteSize()));
        assertEquals(DeviceException.Kind.BAD_ARGUMENT, e.kind());
        assertTrue(e.getMessage().contains("not pinned"), e.getMessage());
        assertThrows(DeviceException.class, () -> q.copyToHostAsync(own, 0, a.segment(), a.byteSize()));
    }

    @Test
    void aReleasedQueueRefusesWork() {
        JvmQueue q = newQueue();
        AtomicInteger ran = new AtomicInteger();
        q.submit(() -> {
            sleep(20);
            ran.incrementAndGet();
        });
        q.release();
        assertEquals(1, ran.get(), "release waited for the queue's work");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.submit(ran::incrementAndGet));
        assertTrue(e.getMessage().contains("released"), e.getMessage());
        q.release();
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            assertTrue(l.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
