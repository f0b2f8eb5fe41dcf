package dev.squall.sparse.solve;

import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/** Sweeps reading the matrix's CSR arrays, rows through the forward and backward schedules ({@link Sweeps}). */
public final class CsrSweeper implements Sweeper {
    private final DeviceMatrix m;
    private final Precision p;
    private final Sweeps fwd;
    private final Sweeps bwd;
    private final String layout;

    /** Sweeps of {@code plan}'s forward and backward schedules over {@code m}. */
    public CsrSweeper(DeviceMatrix m, GaussSeidel.Plan plan, Precision p, int chainMax, String layout) {
        this.m = m;
        this.p = p;
        this.fwd = new Sweeps(plan.forward(), chainMax);
        this.bwd = new Sweeps(plan.backward(), chainMax);
        this.layout = layout;
    }

    @Override
    public double bytesPerHalfSweep() {
        int v = p.bytes();
        return m.matrix().nnz() * (4.0 + v) + m.rows() * (4.0 * 3 + 3.0 * v);
    }

    @Override
    public void appendForward(TaskGraph g, String prefix, KernelArray b, KernelArray x) {
        fwd.append(g, prefix, p, m, m.val(), b, x, SolverKernels.ALL, 0);
    }

    @Override
    public void appendBackward(TaskGraph g, String prefix, KernelArray b, KernelArray x) {
        bwd.append(g, prefix, p, m, m.val(), b, x, SolverKernels.ALL, 0);
    }

    @Override
    public int forwardLaunches() {
        return fwd.launches();
    }

    @Override
    public int backwardLaunches() {
        return bwd.launches();
    }

    @Override
    public int chainedGroups() {
        return fwd.chainedGroups();
    }

    @Override
    public String layout() {
        return layout;
    }
}
