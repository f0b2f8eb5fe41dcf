package uk.ac.manchester.tornado.api;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.ExecutionResult;

/** What an execution gives: its profile, and copies to the host on demand ({@code DataTransferMode.UNDER_DEMAND}). */
public class TornadoExecutionResult {
    private final TornadoExecutionPlan plan;
    private final ExecutionResult result;
    private final TornadoProfilerResult profile;

    TornadoExecutionResult(TornadoExecutionPlan plan, ExecutionResult result, TornadoProfilerResult profile) {
        this.plan = plan;
        this.result = result;
        this.profile = profile;
    }

    public TornadoProfilerResult getProfilerResult() {
        return profile;
    }

    /** Copies these arrays (TornadoVM arrays or Java arrays) from the device to the host now. */
    public TornadoExecutionResult transferToHost(Object... objects) {
        java.util.List<KernelArray> arrays = new java.util.ArrayList<>();
        for (Object o : objects) {
            KernelArray a = TaskGraph.deviceArray(o, "transferToHost");
            if (a != null) arrays.add(a);
        }
        result.transferToHost(arrays.toArray(KernelArray[]::new));
        plan.copiedToHost(objects);
        return this;
    }

    /** Executions complete before {@code execute()} returns. */
    public boolean isReady() {
        return true;
    }
}
