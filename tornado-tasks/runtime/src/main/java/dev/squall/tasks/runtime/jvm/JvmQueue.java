package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceEvent;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVM's in-order queue: work submitted to it (kernel launches) runs in submission order, one piece after
 * another, on a runner thread (kernels inside still spread over the fork-join pool), so work on different queues
 * runs at the same time. Events ({@link JvmEvent}) complete when everything submitted before them has finished,
 * whether it failed or not; {@link #waitFor} makes later work wait for one without blocking the caller.
 *
 * <p>A kernel that fails on the runner is reported, as DeviceException, by the first {@link #record() event} or
 * {@link #synchronize()} after it: an event reports the failures of the work submitted between the previous event
 * (or synchronize) and itself, each time it is awaited. Later work runs in any case.
 *
 * <p>Copies between an array and its own buffer (the JVM's device copy of an array is the array) move nothing
 * and return at once; copies from or to plain allocations run on the calling thread once the earlier work has
 * finished. Nothing is pinned, so the asynchronous copies are rejected.
 *
 * <pre>{@code
 * JvmQueue a = (JvmQueue) jvm.newQueue(), b = (JvmQueue) jvm.newQueue();
 * a.submit(produce);
 * b.waitFor(a.record());
 * CompletableFuture<Void> done = b.submit(consume);   // runs after produce
 * }</pre>
 */
final class JvmQueue implements NativeQueue {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ThreadFactory DAEMONS = r -> {
        Thread t = new Thread(r, "squall-jvm-queue-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    };
    /** Runs queued work; a thread per queue that has work, none while idle. */
    private static final ExecutorService RUNNERS = Executors.newCachedThreadPool(DAEMONS);

    private final JvmDevice device;
    /** Completes, normally, when everything submitted so far has finished. */
    private CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
    /** Work submitted since the last event or synchronize that has not (yet) finished normally: what they report. */
    private final ArrayDeque<CompletableFuture<Void>> unreported = new ArrayDeque<>();
    private boolean released;

    JvmQueue(JvmDevice device) {
        this.device = device;
    }

    @Override
    public JvmDevice device() {
        return device;
    }

    /** Runs {@code work} on a runner thread after everything submitted before; returns at once with its outcome. */
    synchronized CompletableFuture<Void> submit(Runnable work) {
        checkOpen();
        CompletableFuture<Void> result = done.thenRunAsync(work, RUNNERS);
        done = result.handle((v, e) -> null);
        // in order: work at the head that finished normally has nothing to report
        while (!unreported.isEmpty() && unreported.peekFirst().isDone() && !unreported.peekFirst().isCompletedExceptionally()) {
            unreported.pollFirst();
        }
        unreported.add(result);
        return result;
    }

    /**
     * Runs {@code work} on the calling thread once everything submitted before has finished; work
     * submitted meanwhile runs after it. Exceptions from {@code work} propagate to the caller.
     */
    void run(Runnable work) {
        CompletableFuture<Void> before, mine = new CompletableFuture<>();
        synchronized (this) {
            checkOpen();
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

    @Override
    public void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        MemorySegment d = ((JvmBuffer) dst).segment();
        if (!sameMemory(src, d, dstOffset)) run(() -> MemorySegment.copy(src, 0, d, dstOffset, bytes));
    }

    @Override
    public void zero(DeviceBuffer dst, long offset, long bytes) {
        MemorySegment d = ((JvmBuffer) dst).segment();
        run(() -> d.asSlice(offset, bytes).fill((byte) 0));
    }

    @Override
    public void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        MemorySegment s = ((JvmBuffer) src).segment();
        if (!sameMemory(dst, s, srcOffset)) run(() -> MemorySegment.copy(s, srcOffset, dst, 0, bytes));
    }

    /** Whether {@code host} starts where {@code buffer} does at {@code offset} (an array and its own buffer). */
    private static boolean sameMemory(MemorySegment host, MemorySegment buffer, long offset) {
        return host.isNative() && buffer.isNative() && host.address() == buffer.address() + offset;
    }

    @Override
    public void copyToDeviceAsync(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes) {
        throw notPinned("copyToDeviceAsync");
    }

    @Override
    public void copyToHostAsync(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes) {
        throw notPinned("copyToHostAsync");
    }

    private DeviceException notPinned(String what) {
        return new DeviceException(DeviceException.Kind.BAD_ARGUMENT, what + " on " + device + ": the host memory is not pinned memory"
                + " of this device (the jvm device has none: its buffers are the host arrays; use the synchronous copy)");
    }

    /** An event that completes when everything submitted so far has finished, and reports the failures since the last. */
    @Override
    public synchronized JvmEvent record() {
        JvmEvent e = new JvmEvent(done, List.copyOf(unreported));
        unreported.clear();
        return e;
    }

    /** Work submitted after this call starts only once {@code event}, an event of the JVM device, has completed. */
    @Override
    public void waitFor(DeviceEvent event) {
        if (!(event instanceof JvmEvent e)) {
            throw new IllegalArgumentException("waitFor on " + device + ": " + event + " is not an event of the jvm device; use waitOnHost");
        }
        waitFor(e.point());
    }

    /** Work submitted after this call starts only once {@code event} has completed (normally or not). */
    synchronized void waitFor(CompletableFuture<?> event) {
        done = done.thenCombine(event.handle((v, e) -> null), (a, b) -> null);
    }

    /** The runner thread awaits {@code event} before the work submitted after this call; returns at once. */
    @Override
    public void waitOnHost(DeviceEvent event) {
        waitFor((Runnable) event::await);
    }

    /**
     * Work submitted after this call starts only once {@code hostWait} has returned (or failed); it runs on a
     * runner thread, so the caller does not block (for events of other devices, awaited on the host).
     */
    synchronized void waitFor(Runnable hostWait) {
        done = done.thenRunAsync(hostWait, RUNNERS).handle((v, e) -> null);
    }

    /** Blocks until everything submitted so far has finished; reports a failure of work since the last event or synchronize. */
    @Override
    public void synchronize() {
        CompletableFuture<Void> d;
        List<CompletableFuture<Void>> since;
        synchronized (this) {
            d = done;
            since = List.copyOf(unreported);
            unreported.clear();
        }
        d.join();
        reportFailures(since);
    }

    /** Waits for the queue's work, then refuses more; failures of that work are not reported. Idempotent. */
    @Override
    public void release() {
        CompletableFuture<Void> d;
        synchronized (this) {
            released = true;
            d = done;
        }
        d.join();
    }

    private void checkOpen() {
        if (released) throw new IllegalStateException("queue of " + device + " was released");
    }

    /** Throws the first failure among {@code work} (all finished), as await and synchronize report it. */
    static void reportFailures(Collection<CompletableFuture<Void>> work) {
        for (CompletableFuture<Void> f : work) {
            if (!f.isCompletedExceptionally()) continue;
            try {
                f.join();
            } catch (CompletionException e) {
                throw failure(e.getCause());
            }
        }
    }

    /** A failure of work on a runner as the waiting thread throws it: device errors keep their kind and message. */
    private static RuntimeException failure(Throwable cause) {
        if (cause instanceof DeviceException d) return new DeviceException(d.kind(), d.getMessage(), d);
        if (cause instanceof RuntimeException r) return r;
        if (cause instanceof Error e) throw e;
        return new DeviceException(DeviceException.Kind.DRIVER_ERROR, "work on a jvm queue failed: " + cause, cause);
    }

    @Override
    public String toString() {
        return "queue of " + device;
    }
}
