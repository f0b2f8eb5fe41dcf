package dev.squall.tasks.runtime.jvm;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** The JVM queue: in-order execution, events across queues, failures kept to the work that failed. */
class JvmQueueTest {
    @Test
    void workRunsInSubmissionOrder() {
        JvmQueue q = new JvmQueue();
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
    void aQueueWaitsForAnotherQueuesEventWithoutBlockingTheCaller() throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            JvmQueue a = new JvmQueue(), b = new JvmQueue();
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger value = new AtomicInteger();
            a.submit(() -> {
                awaitQuietly(release);
                value.set(42);
            });
            b.waitFor(a.record());
            int[] read = new int[1];
            CompletableFuture<Void> consumer = b.submit(() -> read[0] = value.get());
            Thread.sleep(round == 0 ? 20 : 0); // the caller was not blocked; the consumer must still be waiting
            assertFalse(consumer.isDone(), "consumer ran before the producer's event");
            release.countDown();
            consumer.join();
            assertEquals(42, read[0], "round " + round);
        }
    }

    @Test
    void runOnTheCallingThreadWaitsForEarlierWork() {
        JvmQueue q = new JvmQueue();
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
    void aFailureStaysWithItsWorkAndLaterWorkStillRuns() {
        JvmQueue q = new JvmQueue();
        CompletableFuture<Void> bad = q.submit(() -> {
            throw new IllegalStateException("kernel failed");
        });
        AtomicInteger after = new AtomicInteger();
        CompletableFuture<Void> good = q.submit(after::incrementAndGet);
        CompletionException e = assertThrows(CompletionException.class, bad::join);
        assertEquals("kernel failed", e.getCause().getMessage());
        good.join();
        assertEquals(1, after.get());
        q.record().join(); // the event completes normally although work before it failed
        IllegalStateException direct = assertThrows(IllegalStateException.class, () -> q.run(() -> {
            throw new IllegalStateException("inline");
        }));
        assertEquals("inline", direct.getMessage());
        q.synchronize();
    }

    @Test
    void aHostWaitRunsOffTheCallersThread() {
        JvmQueue q = new JvmQueue();
        CountDownLatch go = new CountDownLatch(1);
        q.waitFor(() -> awaitQuietly(go));
        CompletableFuture<Void> after = q.submit(() -> { });
        assertFalse(after.isDone());
        go.countDown();
        after.join();
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
