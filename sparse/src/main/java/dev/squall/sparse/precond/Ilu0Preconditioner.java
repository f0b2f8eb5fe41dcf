package dev.squall.sparse.precond;

import dev.squall.sparse.inspect.DependenceGraph;
import dev.squall.sparse.inspect.LevelSets;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.Sweeps;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * ILU(0) preconditioning: A ~ L U with L unit lower and U upper triangular on A's own pattern, factorised on the
 * device level by level (forward level sets of the row order), then {@code z = U^-1 L^-1 r} by two level-scheduled
 * triangular solves (L over the forward levels, U over the backward levels). The factors stay on the device; one copy
 * back after factorising keeps them on the host too.
 *
 * <pre>{@code
 * Ilu0Preconditioner m = new Ilu0Preconditioner(DeviceMatrix.of(a, p), p, device, 512);
 * double[] lu = m.factors();        // L below the diagonal (unit diagonal implied), U on and above
 * }</pre>
 */
public final class Ilu0Preconditioner implements Preconditioner {
    private final DeviceMatrix m;
    private final Precision p;
    private final KernelArray lu;
    private final KernelArray y;
    private final Sweeps lower;
    private final Sweeps upper;
    private final Schedule fwd;
    private final double setupMillis;
    private final double factorMillis;

    /** Inspects {@code m}'s pattern and factorises it on {@code device}; {@code chainMax} as in {@link Sweeps}. */
    public Ilu0Preconditioner(DeviceMatrix m, Precision p, Device device, int chainMax) {
        long t0 = System.nanoTime();
        this.m = m;
        this.p = p;
        DependenceGraph g = DependenceGraph.of(m.matrix());
        this.fwd = LevelSets.forward(g);
        Schedule bwd = LevelSets.backward(g);
        this.lower = new Sweeps(fwd, chainMax);
        this.upper = new Sweeps(bwd, chainMax);
        this.lu = p.fromDoubles(m.matrix().nnz() == 0 ? new double[1] : m.matrix().values());
        this.y = p.allocate(Math.max(1, m.rows()));
        TaskGraph fg = new TaskGraph("ilu0factor" + System.identityHashCode(this));
        lower.appendIlu(fg, "ilu", p, m, lu);
        fg.transferToHost(DataTransferMode.EVERY_EXECUTION, lu); // the host copy holds the factors too, should the device copy be freed
        long f0 = System.nanoTime();
        try (ExecutionPlan plan = new ExecutionPlan(fg.snapshot())) {
            plan.withDevice(device).execute();
        }
        this.factorMillis = (System.nanoTime() - f0) / 1e6;
        this.setupMillis = (System.nanoTime() - t0) / 1e6;
    }

    @Override
    public String name() {
        return "ilu0";
    }

    @Override
    public String describe() {
        return String.format(java.util.Locale.ROOT, "ILU(0), factorised on the device in %.1f ms over %s; triangular solves %d + %d launches",
                factorMillis, fwd.describe(), lower.launches(), upper.launches());
    }

    @Override
    public double setupMillis() {
        return setupMillis;
    }

    @Override
    public double flopsPerApply() {
        return 2.0 * m.matrix().nnz();
    }

    @Override
    public double bytesPerApply() {
        return m.matrix().nnz() * (4.0 + p.bytes()) * 2 + m.rows() * (4.0 * 3 + 3.0 * p.bytes()) * 2;
    }

    @Override
    public void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z) {
        lower.append(g, prefix + "/L", p, m, lu, r, y, SolverKernels.LOWER, 1);
        upper.append(g, prefix + "/U", p, m, lu, y, z, SolverKernels.UPPER, 0);
    }

    /** The factors as the device computed them (L strictly below the diagonal, U on and above), in A's entry order. */
    public double[] factors() {
        return Precision.read(lu, m.matrix().nnz());
    }
}
