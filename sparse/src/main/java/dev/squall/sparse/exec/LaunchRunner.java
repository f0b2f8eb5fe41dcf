package dev.squall.sparse.exec;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * The device side of an executor: its launches bound to a device, the host-written inputs (x, y, coefficients)
 * copied there only after {@link #markDirty()}, and batches of back-to-back calls for timing. The executor gives
 * its launches as a function appending one call's tasks to a graph ({@link Launches}); the matrix arrays those
 * tasks take are copied on the first execution and stay.
 *
 * <pre>{@code
 * LaunchRunner r = new LaunchRunner("spmv0", device,
 *         t -> t.graph().task(t.name("csr/rows"), CsrKernels.csrScalar.at(p), rowPtr, col, val, x, y, coef, rows),
 *         x, y, coef);
 * r.markDirty();                          // after writing x on the host
 * r.execute();                            // copies x, y, coef, then runs the launches
 * double ms = r.batchMillis(10);          // executor time per call over 10 calls
 * r.copyBack(y);
 * }</pre>
 */
public final class LaunchRunner implements AutoCloseable {
    /** The launches of one call of an executor. */
    @FunctionalInterface
    public interface Launches {
        /**
         * Appends one call's tasks to {@code tasks}' graph, named through {@link CallTasks#name}. Called once per call
         * a graph holds, so it adds tasks only: the arrays are made once, by the executor, before.
         */
        void appendTo(CallTasks tasks);
    }

    private final String id;
    private final Launches launches;
    private final Device device;
    private final ExecutionPlan upload;
    private final ExecutionPlan run;
    private ExecutionPlan batch;
    private int batchCalls;
    private boolean dirty = true;
    private ExecutionResult last;

    /** Binds {@code launches} to {@code device}; {@code inputs} are copied when dirty. {@code id} names the graphs. */
    public LaunchRunner(String id, Device device, Launches launches, KernelArray... inputs) {
        this.id = id;
        this.launches = launches;
        this.device = device;
        this.upload = new ExecutionPlan(new TaskGraph(id + "in").transferToDevice(DataTransferMode.EVERY_EXECUTION, (Object[]) inputs).snapshot());
        upload.withDevice(device);
        this.run = plan(id, 1);
    }

    /** The inputs changed on the host: copy them before the next execution. */
    public void markDirty() {
        dirty = true;
    }

    /** Runs the launches once (copying the inputs first if dirty). */
    public ExecutionResult execute() {
        uploadIfDirty();
        last = run.execute();
        return last;
    }

    /**
     * Executor time per call: {@code calls} products enqueued back to back between one pair of device events,
     * time divided by {@code calls}, so the host's launch work hides behind the kernels already queued.
     */
    public double batchMillis(int calls) {
        if (calls < 1) throw new IllegalArgumentException("calls " + calls + " must be at least 1");
        uploadIfDirty();
        if (batch == null || batchCalls != calls) {
            if (batch != null) batch.close();
            batch = plan(id + "b" + calls, calls);
            batchCalls = calls;
        }
        last = batch.execute();
        return last.profile().kernelMillis() / calls;
    }

    /** True once an execution or batch has run. */
    public boolean hasRun() {
        return last != null;
    }

    /** Copies {@code a} back from the device after the last execution. */
    public void copyBack(KernelArray a) {
        if (last == null) throw new IllegalStateException("no product has run yet");
        last.transferToHost(a);
    }

    private void uploadIfDirty() {
        if (dirty) {
            upload.execute();
            dirty = false;
        }
    }

    /** One graph of {@code calls} calls' launches in order; tasks of call {@code r} end in {@code /call}r when there are several. */
    private ExecutionPlan plan(String name, int calls) {
        TaskGraph g = new TaskGraph(name);
        for (int r = 0; r < calls; r++) launches.appendTo(new CallTasks(g, calls == 1 ? "" : "/call" + r));
        ExecutionPlan plan = new ExecutionPlan(g.snapshot());
        plan.withDevice(device).withProfiler(true);
        return plan;
    }

    /** Releases the plans and the device copies of their arrays. */
    @Override
    public void close() {
        run.freeDeviceMemory();
        upload.freeDeviceMemory();
        if (batch != null) batch.close();
        run.close();
        upload.close();
    }
}
