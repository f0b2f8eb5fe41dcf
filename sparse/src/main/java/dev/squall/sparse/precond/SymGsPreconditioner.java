package dev.squall.sparse.precond;

import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.solve.Sweeper;
import dev.squall.sparse.solve.Sweeps;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * Symmetric Gauss-Seidel preconditioning, {@code z = (D + U)^-1 D (D + L)^-1 r}: from {@code z = 0}, one forward and
 * one backward sweep in the schedule's order (natural order with level sets, colour order with colours); symmetric
 * positive definite whenever A is, so CG may use it.
 *
 * <pre>{@code
 * GaussSeidel.Plan plan = GaussSeidel.Plan.of(a, GaussSeidel.Ordering.AUTO, device);
 * Preconditioner m = new SymGsPreconditioner(DeviceMatrix.of(a, p), plan, p, 512, Sweeper.Layout.AUTO, device.info().isGpu());
 * }</pre>
 */
public final class SymGsPreconditioner implements Preconditioner {
    private final DeviceMatrix m;
    private final GaussSeidel.Plan plan;
    private final Precision p;
    private final Sweeper sweeper;
    private final double setupMillis;

    /** Sweeps of {@code plan}'s schedules over {@code m}, layout chosen for the device class {@code gpu}; {@code chainMax} as in {@link Sweeps}. */
    public SymGsPreconditioner(DeviceMatrix m, GaussSeidel.Plan plan, Precision p, int chainMax, Sweeper.Layout layout, boolean gpu) {
        this(m, plan, GaussSeidel.Ordering.AUTO, p, chainMax, layout, gpu);
    }

    /** As above; {@code o} {@code SYNC_FREE} or {@code SYNC_FREE_LEVELS} sweeps by the sync-free solve ({@link GaussSeidel#sweeper}). */
    public SymGsPreconditioner(DeviceMatrix m, GaussSeidel.Plan plan, GaussSeidel.Ordering o, Precision p, int chainMax, Sweeper.Layout layout,
                               boolean gpu) {
        long t0 = System.nanoTime();
        this.m = m;
        this.plan = plan;
        this.p = p;
        this.sweeper = GaussSeidel.sweeper(m, plan, o, p, chainMax, layout, gpu);
        this.setupMillis = plan.inspectorMillis() + (System.nanoTime() - t0) / 1e6;
    }

    @Override
    public String name() {
        return "symgs";
    }

    @Override
    public String describe() {
        return "symmetric Gauss-Seidel, " + plan.forward().describe() + ", " + sweeper.forwardLaunches() + " + " + sweeper.backwardLaunches()
                + " launches a sweep pair, " + sweeper.layout() + " (" + plan.reason() + ")";
    }

    /** The schedules used. */
    public GaussSeidel.Plan plan() {
        return plan;
    }

    @Override
    public double setupMillis() {
        return setupMillis;
    }

    @Override
    public double flopsPerApply() {
        return 4.0 * m.matrix().nnz();
    }

    @Override
    public double bytesPerApply() {
        return 2.0 * (m.matrix().nnz() * (4.0 + p.bytes()) + m.rows() * (4.0 * 3 + 3.0 * p.bytes()));
    }

    @Override
    public void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z) {
        g.task(prefix + "/zero", SolverKernelVariants.zero.at(p), z, m.rows());
        sweeper.appendForward(g, prefix + "/fwd", r, z);
        sweeper.appendBackward(g, prefix + "/bwd", r, z);
    }
}
