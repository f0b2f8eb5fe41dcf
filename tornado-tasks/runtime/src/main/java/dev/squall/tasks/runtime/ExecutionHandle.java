package dev.squall.tasks.runtime;

/**
 * An execution started by {@link ExecutionPlan#executeAsync()}: its work is queued (or, on the JVM,
 * running on the queue's runner), and this handle waits for it, reports its failures, and gives the
 * event that other queues and plans order themselves after.
 *
 * <pre>{@code
 * ExecutionHandle h = plan.executeAsync();     // returns once the work is queued
 * doHostWork();                                // overlaps with the device
 * ExecutionResult r = h.await();               // blocks; a failed kernel or copy is thrown here
 * }</pre>
 */
public final class ExecutionHandle {
    /** What await() runs once: waits for the work, and returns the result or throws its failure. */
    interface Completion {
        ExecutionResult complete();
    }

    private final Event event;
    private final Completion completion;
    private ExecutionResult result;
    private RuntimeException failure;
    private boolean completed;

    ExecutionHandle(Event event, Completion completion) {
        this.event = event;
        this.completion = completion;
    }

    /**
     * Blocks until the execution's work has finished and returns its result (profile, on-demand copies).
     * Calling it again returns the same result or throws the same failure.
     *
     * @throws DeviceException with the driver's message when a kernel or copy of this execution failed (on
     *                         the JVM: the kernel's exception, e.g. an index out of bounds)
     */
    public synchronized ExecutionResult await() {
        if (!completed) {
            try {
                result = completion.complete();
            } catch (RuntimeException e) {
                failure = e;
            }
            completed = true;
        }
        if (failure != null) throw failure;
        return result;
    }

    /**
     * The event that completes when this execution's work has finished, for {@link ExecutionPlan#after}
     * and {@link DeviceQueue#waitFor}; it completes also when the work failed.
     */
    public Event event() {
        return event;
    }

    /** Whether the work has finished (does not block). */
    public boolean isDone() {
        return event.isDone();
    }
}
