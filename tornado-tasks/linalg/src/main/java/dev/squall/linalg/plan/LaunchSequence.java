package dev.squall.linalg.plan;

import dev.squall.tasks.runtime.*;

/**
 * A task graph being assembled from many launches: algorithms made of several kernels (a blocked
 * Cholesky, the rounds of a triangular inverse) add their tasks to one {@link TaskGraph} and run it
 * as one {@link ExecutionPlan}, so data stays on the device throughout. Launches are typed tasks
 * with their grid ({@code graph().task(name, grid, Kernels::k, ...)}, or a variant handle's
 * {@code at(precision)}); this class adds what they share: task names unique in the graph that say
 * which kernel runs, and the device the launches are meant for, so that an append may pick a
 * kernel variant for it.
 *
 * <pre>{@code
 * LaunchSequence seq = new LaunchSequence("gemm", device);
 * seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b, c);
 * seq.graph().task(seq.taskName("gemm"), WorkerGrid.of(256L * groups).withLocal(256), GemmKernels.gemm.at(p),
 *         new KernelContext(), a, b, c, desc, 1.0, 0.0, 0, 0, 0, tilesM, tilesN);
 * try (ExecutionPlan plan = seq.plan(device)) { plan.execute(); }
 * }</pre>
 */
public final class LaunchSequence {
    private final TaskGraph graph;
    private final Device target;
    private int names;

    /** A sequence whose launches use the portable kernels. */
    public LaunchSequence(String name) {
        this(name, null);
    }

    /**
     * A sequence meant for {@code target}: launches appended to it may pick a kernel variant for that
     * device (the FP64 tensor-core GEMM on CUDA, say); null picks the portable ones. The plan may
     * still be made for another device.
     */
    public LaunchSequence(String name, Device target) {
        this.graph = new TaskGraph(name);
        this.target = target;
    }

    /** The device given at construction, or null. */
    public Device target() {
        return target;
    }

    /** The graph the transfers and launches go to. */
    public TaskGraph graph() {
        return graph;
    }

    /** A task name not used before in this sequence: {@code label} (the kernel that runs) and the launch's index. */
    public String taskName(String label) {
        return label + "_" + names++;
    }

    /** Launches added so far. */
    public int launches() {
        return graph.snapshot().taskNames().size();
    }

    /** An execution plan of the launches on {@code device}. */
    public ExecutionPlan plan(Device device) {
        return new ExecutionPlan(graph.snapshot()).withDevice(device);
    }
}
