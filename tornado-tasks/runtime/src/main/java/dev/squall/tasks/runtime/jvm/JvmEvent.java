package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.runtime.spi.DeviceEvent;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A point in a {@link JvmQueue}: it completes when everything submitted to the queue before it has finished, at
 * which time the host clock is read (for profiling). Awaiting it reports the first failure of the work submitted
 * between the queue's previous event and this one.
 */
final class JvmEvent implements DeviceEvent {
    private final CompletableFuture<Void> point;
    private final CompletableFuture<Long> nanos;
    private final List<CompletableFuture<Void>> window;

    /**
     * @param point  completes (normally) when the work before the event has finished
     * @param window the work since the previous event, whose failures this one reports
     */
    JvmEvent(CompletableFuture<Void> point, List<CompletableFuture<Void>> window) {
        this.point = point;
        this.nanos = point.thenApply(v -> System.nanoTime());
        this.window = window;
    }

    CompletableFuture<Void> point() {
        return point;
    }

    @Override
    public double millisSince(DeviceEvent earlier) {
        return (nanos.join() - ((JvmEvent) earlier).nanos.join()) / 1e6;
    }

    @Override
    public void await() {
        point.join();
        JvmQueue.reportFailures(window);
    }

    @Override
    public boolean isComplete() {
        return point.isDone();
    }

    /** Nothing to free. */
    @Override
    public void release() {
    }
}
