package dev.squall.sparse.solve;

import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * Gauss-Seidel sweeps by the synchronisation-free solve ({@link SyncFreeSolve}): the new iterate goes to a second
 * vector (rows read their later neighbours' old values from {@code x} while earlier ones publish new values), then is
 * copied back; three launches per sweep whatever the number of levels. The result is the sequential sweep in natural
 * order, as with level sets.
 */
public final class SyncFreeSweeper implements Sweeper {
    private final DeviceMatrix m;
    private final Precision p;
    private final SyncFreeSolve solve;
    private final KernelArray next;

    /** Sweeps over {@code m} with work-items taking rows as {@code solve} orders them. */
    public SyncFreeSweeper(DeviceMatrix m, Precision p, SyncFreeSolve solve) {
        this.m = m;
        this.p = p;
        this.solve = solve;
        this.next = p.allocate(Math.max(1, m.rows()));
    }

    @Override
    public void appendForward(TaskGraph g, String prefix, KernelArray b, KernelArray x) {
        append(g, prefix, b, x, true);
    }

    @Override
    public void appendBackward(TaskGraph g, String prefix, KernelArray b, KernelArray x) {
        append(g, prefix, b, x, false);
    }

    private void append(TaskGraph g, String prefix, KernelArray b, KernelArray x, boolean forward) {
        if (m.rows() == 0) return;
        solve.append(g, prefix, p, m, m.val(), b, x, next, forward, SolverKernels.ALL, 0);
        g.task(prefix + "/copy", SolverKernelVariants.copy.at(p), next, x, m.rows());
    }

    @Override
    public int forwardLaunches() {
        return m.rows() == 0 ? 0 : solve.launches() + 1;
    }

    @Override
    public int backwardLaunches() {
        return forwardLaunches();
    }

    @Override
    public int chainedGroups() {
        return 0;
    }

    @Override
    public double bytesPerHalfSweep() {
        int v = p.bytes();
        return m.matrix().nnz() * (4.0 + v) + m.rows() * (4.0 * 3 + 3.0 * v);
    }

    @Override
    public String layout() {
        return "csr, sync-free (one launch per sweep, rows in " + solve.orderName() + ")";
    }
}
