package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;

/**
 * What {@link ExecutionPlan#execute()} returns: the profile, and on-demand copies back.
 *
 * <pre>{@code
 * ExecutionResult r = plan.execute();
 * r.transferToHost(result);                 // arrays staged with UNDER_DEMAND
 * System.out.println(r.profile());
 * }</pre>
 */
public final class ExecutionResult {
    private final ExecutionPlan plan;
    private final Profile profile;

    ExecutionResult(ExecutionPlan plan, Profile profile) {
        this.plan = plan;
        this.profile = profile;
    }

    public Profile profile() {
        return profile;
    }

    /** Copies these arrays' device copies to the host now. */
    public ExecutionResult transferToHost(KernelArray... arrays) {
        plan.copyToHost(arrays);
        return this;
    }
}
