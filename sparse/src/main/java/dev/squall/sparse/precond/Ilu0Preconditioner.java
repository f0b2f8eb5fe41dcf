package dev.squall.sparse.precond;

import dev.squall.sparse.inspect.DependenceGraph;
import dev.squall.sparse.inspect.LevelSets;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.inspect.ScheduleChooser;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.solve.Sweeps;
import dev.squall.sparse.solve.SyncFreeSolve;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.Locale;

/**
 * ILU(0) preconditioning: A ~ L U with L unit lower and U upper triangular on A's own pattern, factorised on the
 * device level by level (forward level sets of the row order), then {@code z = U^-1 L^-1 r} by two triangular solves:
 * level-scheduled (L over the forward levels, U over the backward levels, a launch per wide level) or sync-free (one
 * launch each, {@link SyncFreeSolve}); {@code auto} takes level sets ({@link #chooseSolves}). The factors stay on the device;
 * one copy back after factorising keeps them on the host too.
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
    private final SyncFreeSolve syncFree;
    private final String solveReason;
    private final Schedule fwd;
    private final double setupMillis;
    private final double factorMillis;

    /** Inspects {@code m}'s pattern and factorises it on {@code device}; level-scheduled solves, {@code chainMax} as in {@link Sweeps}. */
    public Ilu0Preconditioner(DeviceMatrix m, Precision p, Device device, int chainMax) {
        this(m, p, device, chainMax, GaussSeidel.Ordering.LEVELS);
    }

    /**
     * As {@link #Ilu0Preconditioner(DeviceMatrix, Precision, Device, int)} with the triangular solves scheduled by
     * {@code solves}: {@code LEVELS}, {@code SYNC_FREE} (rows in natural order), {@code SYNC_FREE_LEVELS} (rows in level
     * order) or {@code AUTO}.
     *
     * @throws IllegalArgumentException for {@code COLOURS} (ILU(0)'s factors depend on the row order)
     */
    public Ilu0Preconditioner(DeviceMatrix m, Precision p, Device device, int chainMax, GaussSeidel.Ordering solves) {
        long t0 = System.nanoTime();
        this.m = m;
        this.p = p;
        DependenceGraph g = DependenceGraph.of(m.matrix());
        this.fwd = LevelSets.forward(g);
        Schedule bwd = LevelSets.backward(g);
        this.lower = new Sweeps(fwd, chainMax);
        this.upper = new Sweeps(bwd, chainMax);
        if (solves == GaussSeidel.Ordering.COLOURS) {
            throw new IllegalArgumentException("ILU(0)'s triangular solves take --schedule auto, levelset, syncfree or syncfree-levels, not "
                    + "multicolor: its factors depend on the row order");
        }
        String[] why = {"requested"};
        GaussSeidel.Ordering o = solves == GaussSeidel.Ordering.AUTO
                ? chooseSolves(fwd, device.info().isGpu(), ScheduleChooser.width(device), why) : solves;
        this.syncFree = switch (o) {
            case SYNC_FREE -> SyncFreeSolve.natural(m.rows());
            case SYNC_FREE_LEVELS -> new SyncFreeSolve(fwd.order(), bwd.order(), "level order");
            case SYNC_FREE_WARP -> SyncFreeSolve.natural(m.rows(), true);
            case SYNC_FREE_WARP_LEVELS -> new SyncFreeSolve(fwd.order(), bwd.order(), "level order", true);
            case SYNC_FREE_LANES -> SyncFreeSolve.natural(m.rows(), SyncFreeSolve.lanes(m.matrix()), SyncFreeSolve.waitMode());
            case SYNC_FREE_LANES_LEVELS -> SyncFreeSolve.levels(fwd, bwd, m.matrix());
            default -> null;
        };
        this.solveReason = (syncFree == null ? "level-scheduled" : "sync-free, rows in " + syncFree.orderName()) + " (" + why[0] + ")";
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

    /**
     * AUTO's choice of triangular solves for the forward levels {@code fwd}: level sets on every device. On CPUs narrow
     * levels chained into one work-group cost no launches and spinning work-items would hold cores; on an H100 the
     * level-set solves measured 2-20x faster than the sync-free ones (sparse/SOLVERS.md), narrow levels included.
     * {@code width} is kept for a measured width-based choice. The reason goes to {@code why[0]}.
     */
    public static GaussSeidel.Ordering chooseSolves(Schedule fwd, boolean gpu, long width, String[] why) {
        if (!gpu) {
            why[0] = "auto: CPU device, level sets with narrow levels chained";
            return GaussSeidel.Ordering.LEVELS;
        }
        why[0] = String.format(Locale.ROOT, "auto: GPU, level sets (measured faster than the sync-free solves on an H100 at every width), "
                + "%.0f rows per level on average, %d levels", fwd.meanRows(), fwd.groups());
        return GaussSeidel.Ordering.LEVELS;
    }

    @Override
    public String name() {
        return "ilu0";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "ILU(0), factorised on the device in %.1f ms over %s; triangular solves %s, %d + %d launches",
                factorMillis, fwd.describe(), solveReason, lowerLaunches(), syncFree != null ? syncFree.launches() : upper.launches());
    }

    /** Launches of one of the two triangular solves. */
    public int lowerLaunches() {
        return syncFree != null ? syncFree.launches() : lower.launches();
    }

    /** Whether the triangular solves are sync-free. */
    public boolean syncFree() {
        return syncFree != null;
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
        if (syncFree != null) {
            syncFree.append(g, prefix + "/L", p, m, lu, r, r, y, true, SolverKernels.LOWER, 1);
            syncFree.append(g, prefix + "/U", p, m, lu, y, y, z, false, SolverKernels.UPPER, 0);
            return;
        }
        lower.append(g, prefix + "/L", p, m, lu, r, y, SolverKernels.LOWER, 1);
        upper.append(g, prefix + "/U", p, m, lu, y, z, SolverKernels.UPPER, 0);
    }

    /** The factors as the device computed them (L strictly below the diagonal, U on and above), in A's entry order. */
    public double[] factors() {
        return Precision.read(lu, m.matrix().nnz());
    }
}
