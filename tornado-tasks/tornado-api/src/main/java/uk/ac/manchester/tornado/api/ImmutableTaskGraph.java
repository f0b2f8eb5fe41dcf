package uk.ac.manchester.tornado.api;

/** A frozen task graph ({@link TaskGraph#snapshot()}), run by a {@link TornadoExecutionPlan}. */
public final class ImmutableTaskGraph {
    final TaskGraph graph;
    final dev.squall.tasks.runtime.ImmutableTaskGraph squall;

    ImmutableTaskGraph(TaskGraph graph, dev.squall.tasks.runtime.ImmutableTaskGraph squall) {
        this.graph = graph;
        this.squall = squall;
    }

    public String getTaskGraphName() {
        return graph.getTaskGraphName();
    }
}
