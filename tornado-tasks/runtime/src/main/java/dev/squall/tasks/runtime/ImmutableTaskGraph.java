package dev.squall.tasks.runtime;

import java.util.List;

/**
 * A frozen {@link TaskGraph}, ready for an {@link ExecutionPlan}.
 *
 * <pre>{@code ExecutionPlan plan = new ExecutionPlan(graph.snapshot()); }</pre>
 */
public final class ImmutableTaskGraph {
    private final String name;
    final List<TaskGraph.Step> steps;

    ImmutableTaskGraph(String name, List<TaskGraph.Step> steps) {
        this.name = name;
        this.steps = steps;
    }

    public String name() {
        return name;
    }

    /** Task names in order. */
    public List<String> taskNames() {
        return steps.stream().filter(s -> s instanceof TaskGraph.TaskStep).map(s -> ((TaskGraph.TaskStep) s).name()).toList();
    }
}
