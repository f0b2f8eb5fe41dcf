package dev.squall.permanent.kernel;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One plan with its device buffers kept per device between calls, so that a warm repeat allocates, uploads and frees
 * nothing. A caller takes it out while in use (a concurrent caller on the same device then builds its own) and keeps it
 * afterwards; what was kept before is released.
 *
 * @param <R> what is kept: a plan and the arrays bound to it
 */
public final class KeptPlans<R> {
    private final Map<String, R> byDevice = new HashMap<>();
    private final Function<R, ExecutionPlan> plan;

    /** {@code plan}: the plan of a kept value, freed and closed on release. */
    public KeptPlans(Function<R, ExecutionPlan> plan) {
        this.plan = plan;
    }

    /** The value kept for {@code device} when {@code fits} accepts it (removed while in use), else {@code build}'s. */
    public R take(Device device, Predicate<R> fits, Supplier<R> build) {
        R r;
        synchronized (byDevice) {
            r = byDevice.remove(device.id());
        }
        if (r != null && fits.test(r)) return r;
        if (r != null) release(r);
        return build.get();
    }

    /** Keeps {@code r} for the next call on {@code device}, releasing what another call kept there meanwhile. */
    public void keep(Device device, R r) {
        R old;
        synchronized (byDevice) {
            old = byDevice.put(device.id(), r);
        }
        if (old != null && old != r) release(old);
    }

    /** Frees {@code r}'s device memory and closes its plan. */
    public void release(R r) {
        ExecutionPlan p = plan.apply(r);
        try {
            p.freeDeviceMemory();
        } finally {
            p.close();
        }
    }
}
