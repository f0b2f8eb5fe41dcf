package dev.squall.sparse.exec;

import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.Map;

/**
 * The task graph that one call of an executor appends its launches to ({@link LaunchRunner.Launches}). Task names
 * say what runs, format and step ({@code "csr-vector/rows"}; no dots, which a plan reads as {@code graph.task});
 * {@link #name} ends them with the call's number when a batch holds several calls in one graph.
 *
 * <pre>{@code
 * t.graph().task(t.name("csr/rows"), SpmvKernels.csrScalar.at(p), rowPtr, col, val, x, y, coef, rows);
 * }</pre>
 */
public final class CallTasks {
    private final TaskGraph graph;
    private final String suffix;
    private final Map<String, WorkerGrid> planGrids;

    CallTasks(TaskGraph graph, String suffix, Map<String, WorkerGrid> planGrids) {
        this.graph = graph;
        this.suffix = suffix;
        this.planGrids = planGrids;
    }

    /** The graph to add this call's tasks to. */
    public TaskGraph graph() {
        return graph;
    }

    /** The name of this call's task for {@code step} (format and step, e.g. {@code "csr-merge/carry-fix"}). */
    public String name(String step) {
        return step + suffix;
    }

    /**
     * Adds a task of a kernel with more parameters than {@link TaskGraph}'s typed tasks take (15), naming it by class
     * and method; {@code grid} (null for a loop kernel) is set on the plan. The graph checks the arguments against the
     * kernel's parameters as it does for typed tasks.
     */
    public CallTasks byName(String step, WorkerGrid grid, Class<?> owner, String kernel, Object... args) {
        String task = name(step);
        graph.task(task, owner, kernel, args);
        if (grid != null) planGrids.put(task, grid);
        return this;
    }
}
