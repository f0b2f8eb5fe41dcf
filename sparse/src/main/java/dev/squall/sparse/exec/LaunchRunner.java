package dev.squall.sparse.exec;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.List;

/**
 * The device side of an executor: a fixed list of launches bound to a device, the host-written inputs
 * (x, y, coefficients) copied there only after {@link #markDirty()}, and batches of back-to-back calls
 * for timing. The matrix arrays in the launches' arguments are copied on the first execution and stay.
 *
 * <pre>{@code
 * LaunchRunner r = new LaunchRunner("spmv0", Fp64Kernels.class, launches, device, x, y, coef);
 * r.markDirty();                          // after writing x on the host
 * r.execute();                            // copies x, y, coef, then runs the launches
 * double ms = r.batchMillis(10);          // executor time per call over 10 calls
 * r.copyBack(y);
 * }</pre>
 */
public final class LaunchRunner implements AutoCloseable {
    private final String id;
    private final Class<?> kernels;
    private final List<Launch> launches;
    private final Device device;
    private final ExecutionPlan upload;
    private final ExecutionPlan run;
    private ExecutionPlan batch;
    private int batchCalls;
    private boolean dirty = true;
    private ExecutionResult last;

    /** Binds {@code launches} (kernels of class {@code kernels}) to {@code device}; {@code inputs} are copied when dirty. */
    public LaunchRunner(String id, Class<?> kernels, List<Launch> launches, Device device, KernelArray... inputs) {
        this.id = id;
        this.kernels = kernels;
        this.launches = List.copyOf(launches);
        this.device = device;
        this.upload = new ExecutionPlan(new TaskGraph(id + "in").transferToDevice(DataTransferMode.EVERY_EXECUTION, inputs).snapshot());
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

    private ExecutionPlan plan(String name, int calls) {
        TaskGraph g = new TaskGraph(name);
        for (int r = 0; r < calls; r++) {
            for (int i = 0; i < launches.size(); i++) g.task("b" + r + "t" + i, kernels, launches.get(i).kernel(), launches.get(i).args());
        }
        ExecutionPlan plan = new ExecutionPlan(g.snapshot());
        plan.withDevice(device).withProfiler(true);
        for (int r = 0; r < calls; r++) {
            for (int i = 0; i < launches.size(); i++) {
                if (launches.get(i).grid() != null) plan.withGrid("b" + r + "t" + i, launches.get(i).grid());
            }
        }
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
