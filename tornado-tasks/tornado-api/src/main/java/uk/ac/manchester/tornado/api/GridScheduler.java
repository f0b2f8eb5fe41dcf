package uk.ac.manchester.tornado.api;

import java.util.LinkedHashMap;
import java.util.Map;

/** Launch grids of tasks, keyed by {@code "graph.task"} (the graph's and the task's names). */
public class GridScheduler {
    private final Map<String, WorkerGrid> grids = new LinkedHashMap<>();

    public GridScheduler() {
    }

    public GridScheduler(String taskName, WorkerGrid grid) {
        addWorkerGrid(taskName, grid);
    }

    /** Sets the grid of task {@code taskName}, written {@code "graph.task"}. */
    public void addWorkerGrid(String taskName, WorkerGrid grid) {
        if (taskName == null || !taskName.contains(".")) {
            throw new IllegalArgumentException("a GridScheduler key names the graph and the task, \"graph.task\", got \"" + taskName + "\"");
        }
        if (grid == null) throw new IllegalArgumentException("the grid of " + taskName + " is null");
        grids.put(taskName, grid);
    }

    public WorkerGrid get(String taskName) {
        return grids.get(taskName);
    }

    public boolean contains(String graphName, String taskName) {
        return grids.containsKey(graphName + "." + taskName);
    }

    /** The grids, by {@code "graph.task"}. */
    public Map<String, WorkerGrid> grids() {
        return Map.copyOf(grids);
    }
}
