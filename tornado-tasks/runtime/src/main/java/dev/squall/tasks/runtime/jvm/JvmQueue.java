package dev.squall.tasks.runtime.jvm;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVM's in-order queue: work submitted to it runs in submission order, one piece after another,
 * on a runner thread (kernels inside still spread over the fork-join pool), so work on different
 * queues runs at the same time. Events are futures that complete when everything submitted before
 * them has finished, whether it failed or not; {@link #waitFor} makes later work wait for one
 * without blocking the caller.
 *
 * <pre>{@code
 * JvmQueue a = new JvmQueue(), b = new JvmQueue();
 * a.submit(produce);
 * b.waitFor(a.record());
 * CompletableFuture<Void> done = b.submit(consume);   // runs after produce
 * }</pre>
 */
public final class JvmQueue {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ThreadFactory DAEMONS = r -> {
        Thread t = new Thread(r, "squall-jvm-queue-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    };
    /** Runs queued work; a thread per queue that has work, none while idle. */
    private static final ExecutorService RUNNERS = Executors.newCachedThreadPool(DAEMONS);

    /** Completes, normally, when everything submitted so far has finished. */
    private CompletableFuture<Void> done = CompletableFuture.completedFuture(null);

    /** Runs {@code work} on a runner thread after everything submitted before; returns at once with its outcome. */
    public synchronized CompletableFuture<Void> submit(Runnable work) {
        CompletableFuture<Void> result = done.thenRunAsync(work, RUNNERS);
        done = result.handle((v, e) -> null);
        return result;
    }

    /**
     * Runs {@code work} on the calling thread once everything submitted before has finished; work
     * submitted meanwhile runs after it. Exceptions from {@code work} propagate to the caller.
     */
    public void run(Runnable work) {
        CompletableFuture<Void> before, mine = new CompletableFuture<>();
        synchronized (this) {
            before = done;
            done = mine;
        }
        try {
            before.join(); // completes normally by construction
            work.run();
        } finally {
            mine.complete(null);
        }
    }

    /** A future that completes when everything submitted so far has finished. */
    public synchronized CompletableFuture<Void> record() {
        return done;
    }

    /** Work submitted after this call starts only once {@code event} has completed (normally or not). */
    public synchronized void waitFor(CompletableFuture<?> event) {
        done = done.thenCombine(event.handle((v, e) -> null), (a, b) -> null);
    }

    /**
     * Work submitted after this call starts only once {@code hostWait} has returned; it runs on a runner
     * thread, so the caller does not block (for events of other devices, awaited on the host).
     */
    public synchronized void waitFor(Runnable hostWait) {
        done = done.thenRunAsync(hostWait, RUNNERS).handle((v, e) -> null);
    }

    /** Blocks until everything submitted so far has finished. */
    public void synchronize() {
        record().join();
    }
}
