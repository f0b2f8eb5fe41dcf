package dev.squall.sparse.exec;

import dev.squall.tasks.runtime.TaskGraph;

/**
 * The tasks of one executor call appended to a caller's own graph (a solver's iteration), named with {@code suffix}
 * after each step so that several calls of one executor can share the graph.
 *
 * <pre>{@code
 * spmv.launches().appendTo(OneCall.in(iterationGraph, ""));
 * }</pre>
 */
public final class OneCall {
    private OneCall() {
    }

    /** Tasks appended to {@code graph}, names ending in {@code suffix}. */
    public static CallTasks in(TaskGraph graph, String suffix) {
        return new CallTasks(graph, suffix);
    }
}
