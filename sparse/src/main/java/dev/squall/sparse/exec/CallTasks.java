package dev.squall.sparse.exec;

import dev.squall.tasks.runtime.TaskGraph;

/**
 * The task graph that one call of an executor appends its launches to ({@link LaunchRunner.Launches}). Task names
 * say what runs, format and step ({@code "csr-vector/rows"}; no dots, which a plan reads as {@code graph.task});
 * {@link #name} ends them with the call's number when a batch holds several calls in one graph.
 *
 * <pre>{@code
 * t.graph().task(t.name("csr/rows"), CsrKernels.csrScalar.at(p), rowPtr, col, val, x, y, coef, rows);
 * }</pre>
 */
public final class CallTasks {
    private final TaskGraph graph;
    private final String suffix;

    CallTasks(TaskGraph graph, String suffix) {
        this.graph = graph;
        this.suffix = suffix;
    }

    /** The graph to add this call's tasks to. */
    public TaskGraph graph() {
        return graph;
    }

    /** The name of this call's task for {@code step} (format and step, e.g. {@code "csr-merge/carry-fix"}). */
    public String name(String step) {
        return step + suffix;
    }
}
