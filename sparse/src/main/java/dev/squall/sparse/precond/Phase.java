package dev.squall.sparse.precond;

import dev.squall.tasks.runtime.TaskGraph;
import java.util.function.Consumer;

/**
 * A part of a solver iteration that can run and be timed alone: its name, the multigrid level it works on (-1 when
 * none) and the launches it appends to a graph.
 *
 * @param name   what it computes, e.g. {@code mg l0 smooth}
 * @param level  multigrid level, or -1
 * @param append appends the part's launches
 */
public record Phase(String name, int level, Consumer<TaskGraph> append) {
}
