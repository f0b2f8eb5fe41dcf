package dev.squall.sparse.solve;

import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;

/**
 * Dot products of vectors of one length into a device-resident scalar array: a partial sum per work-group, then one
 * group adds the partials. The number of groups is fixed per device (enough to fill it), so results do not depend on
 * anything but the device and the length.
 *
 * <pre>{@code
 * VectorOps ops = new VectorOps(n, Precision.FP64, device);
 * ops.dot(graph, "rz", r, z, s, SolverKernels.RZ, SolverKernels.RZ_OLD);
 * }</pre>
 */
public final class VectorOps {
    private final int n;
    private final Precision p;
    private final int groups;
    private final KernelArray partial;
    private final KernelArray carried;

    /** Dot products of length {@code n} at precision {@code p} on {@code device}. */
    public VectorOps(int n, Precision p, Device device) {
        this.n = n;
        this.p = p;
        int units = Math.max(1, device.info().computeUnits());
        int want = device.info().isGpu() ? units * 4 : units;
        this.groups = (int) Math.max(1, Math.min(want, ((long) n + SolverKernels.GROUP - 1) / SolverKernels.GROUP));
        this.partial = p.allocate(groups);
        this.carried = p.allocate(groups);
    }

    /** Work-groups of the partial sums. */
    public int groups() {
        return groups;
    }

    /** Appends {@code s[slot] = x . y}; with {@code keep >= 0} the slot's previous value moves to {@code s[keep]} first. */
    public void dot(TaskGraph g, String name, KernelArray x, KernelArray y, KernelArray s, int slot, int keep) {
        g.task(name + "/partials", WorkerGrid.of((long) groups * SolverKernels.GROUP).withLocal(SolverKernels.GROUP),
                SolverKernelVariants.dotPartials.at(p), new KernelContext(), x, y, partial, n);
        g.task(name + "/sum", WorkerGrid.of(SolverKernels.GROUP).withLocal(SolverKernels.GROUP),
                SolverKernelVariants.dotFinish.at(p), new KernelContext(), partial, s, groups, slot, keep);
    }

    /**
     * Appends CG's step {@code x += alpha p, r -= alpha Ap} ({@code alpha = s[RZ] / s[PAP]}) fused with the partial
     * sums of the new {@code r^T r}, which the next {@link #dotFinishingCarried} completes into its slot.
     */
    public void stepWithNorm(TaskGraph g, String name, KernelArray x, KernelArray r, KernelArray dir, KernelArray ap, KernelArray s) {
        g.task(name, WorkerGrid.of((long) groups * SolverKernels.GROUP).withLocal(SolverKernels.GROUP),
                SolverKernelVariants.cgStepNorm.at(p), new KernelContext(), x, r, dir, ap, s, carried, n);
    }

    /**
     * Appends {@code s[slot] = x . y} (the slot's previous value to {@code s[keep]} first when {@code keep >= 0}) and, in
     * the same finishing launch, {@code s[carriedSlot]} = the sum of the partials left by {@link #stepWithNorm}.
     */
    public void dotFinishingCarried(TaskGraph g, String name, KernelArray x, KernelArray y, KernelArray s, int slot, int keep, int carriedSlot) {
        g.task(name + "/partials", WorkerGrid.of((long) groups * SolverKernels.GROUP).withLocal(SolverKernels.GROUP),
                SolverKernelVariants.dotPartials.at(p), new KernelContext(), x, y, partial, n);
        g.task(name + "/sum", WorkerGrid.of(SolverKernels.GROUP).withLocal(SolverKernels.GROUP),
                SolverKernelVariants.dotFinishPair.at(p), new KernelContext(), partial, carried, s, groups, slot, keep, carriedSlot);
    }

    /** Appends {@code dst = src}. */
    public void copy(TaskGraph g, String name, KernelArray src, KernelArray dst) {
        g.task(name, SolverKernelVariants.copy.at(p), src, dst, n);
    }

    /** Appends {@code x = 0}. */
    public void zero(TaskGraph g, String name, KernelArray x) {
        g.task(name, SolverKernelVariants.zero.at(p), x, n);
    }
}
