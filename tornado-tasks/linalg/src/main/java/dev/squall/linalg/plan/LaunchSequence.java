package dev.squall.linalg.plan;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A task graph being assembled from many launches, each with its own grid: algorithms made of
 * several kernels (a blocked Cholesky, the rounds of a triangular inverse) append to one
 * sequence and run it as one {@link ExecutionPlan}, so data stays on the device throughout.
 *
 * <pre>{@code
 * LaunchSequence seq = new LaunchSequence("gemm");
 * seq.launch("tile", GemmKernelsF64.class, "gemm", WorkerGrid.of(256L * groups).withLocal(256), args);
 * try (ExecutionPlan plan = seq.plan(device)) { plan.execute(); }
 * }</pre>
 */
public final class LaunchSequence {
    private final TaskGraph graph;
    private final Map<String, WorkerGrid> grids = new LinkedHashMap<>();
    private int launches;
    private Device target;

    public LaunchSequence(String name) {
        graph = new TaskGraph(name);
    }

    /**
     * Names the device this sequence will run on, so that launches appended afterwards may pick a
     * kernel variant for it (the FP64 tensor-core GEMM on CUDA, say); without it they pick the
     * portable one. The plan may still be made for another device.
     */
    public LaunchSequence target(Device device) {
        this.target = device;
        return this;
    }

    /** The device named by {@link #target(Device)}, or null. */
    public Device target() {
        return target;
    }

    public LaunchSequence upload(DataTransferMode mode, KernelArray... arrays) {
        graph.transferToDevice(mode, (Object[]) arrays);
        return this;
    }

    public LaunchSequence download(DataTransferMode mode, KernelArray... arrays) {
        graph.transferToHost(mode, (Object[]) arrays);
        return this;
    }

    /**
     * Appends a launch of the SPMD kernel {@code owner.kernel} on {@code grid}; {@code args} are
     * the kernel's arguments after its {@code KernelContext}. The task gets a unique name.
     */
    public LaunchSequence launch(String label, Class<?> owner, String kernel, WorkerGrid grid, Object... args) {
        String name = label + "_" + launches++;
        Object[] withContext = new Object[args.length + 1];
        System.arraycopy(args, 0, withContext, 1, args.length);
        graph.task(name, owner, kernel, withContext);
        grids.put(name, grid);
        return this;
    }

    /**
     * Appends a launch of the loop-style kernel {@code owner.kernel} (no {@code KernelContext}; the
     * runtime sizes its grid from the {@code @Parallel} loop's trip count).
     */
    public LaunchSequence loop(String label, Class<?> owner, String kernel, Object... args) {
        graph.task(label + "_" + launches++, owner, kernel, args);
        return this;
    }

    public int launches() {
        return launches;
    }

    /** An execution plan on {@code device} with every launch's grid set. */
    public ExecutionPlan plan(Device device) {
        ExecutionPlan plan = new ExecutionPlan(graph.snapshot()).withDevice(device);
        grids.forEach(plan::withGrid);
        return plan;
    }
}
