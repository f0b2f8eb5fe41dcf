package dev.squall.sparse.solve;

import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * Gauss-Seidel sweeps by the synchronisation-free solve ({@link SyncFreeSolve}): the new iterate goes to a second
 * vector (rows read their later neighbours' old values from {@code x} while earlier ones publish new values), then is
 * copied back; three launches per sweep whatever the number of levels (two, in place, when the sweep reads no old
 * values: a forward sweep over a lower-triangular matrix, the triangular solve). The result is the sequential sweep in natural
 * order, as with level sets.
 */
public final class SyncFreeSweeper implements Sweeper {
    private final DeviceMatrix m;
    private final Precision p;
    private final SyncFreeSolve solve;
    private final KernelArray next;
    private final boolean noUpper;
    private final boolean noLower;

    /** Sweeps over {@code m} with work-items taking rows as {@code solve} orders them. */
    public SyncFreeSweeper(DeviceMatrix m, Precision p, SyncFreeSolve solve) {
        this.m = m;
        this.p = p;
        this.solve = solve;
        this.next = p.allocate(Math.max(1, m.rows()));
        boolean upper = false, lower = false;
        for (int i = 0; i < m.rows(); i++) {
            for (int q = m.matrix().rowStart(i); q < m.matrix().rowStart(i + 1); q++) {
                int j = m.matrix().colIndex(q);
                upper |= j > i;
                lower |= j < i;
            }
        }
        this.noUpper = !upper;
        this.noLower = !lower;
    }

    /** Whether a sweep in this direction reads no old values (a forward sweep of a lower-triangular matrix): then it solves in place. */
    private boolean inPlace(boolean forward) {
        return forward ? noUpper : noLower;
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
        if (inPlace(forward)) {
            solve.append(g, prefix, p, m, m.val(), b, b, x, forward, SolverKernels.ALL, 0);
            return;
        }
        solve.append(g, prefix, p, m, m.val(), b, x, next, forward, SolverKernels.ALL, 0);
        g.task(prefix + "/copy", SolverKernelVariants.copy.at(p), next, x, m.rows());
    }

    @Override
    public int forwardLaunches() {
        return m.rows() == 0 ? 0 : solve.launches() + (inPlace(true) ? 0 : 1);
    }

    @Override
    public int backwardLaunches() {
        return m.rows() == 0 ? 0 : solve.launches() + (inPlace(false) ? 0 : 1);
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
