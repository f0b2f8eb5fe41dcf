package dev.squall.sparse.precond;

import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * Jacobi (diagonal) preconditioning, {@code z = D^-1 r}, with the reciprocal diagonal computed once on the host.
 *
 * <pre>{@code
 * Preconditioner m = new JacobiPreconditioner(DeviceMatrix.of(a, p), p);
 * }</pre>
 */
public final class JacobiPreconditioner implements Preconditioner {
    private final Precision p;
    private final KernelArray invDiag;
    private final int n;
    private final double setupMillis;

    /** The reciprocal diagonal of {@code m}'s matrix (its diagonal is present and nonzero: {@link DeviceMatrix} checked). */
    public JacobiPreconditioner(DeviceMatrix m, Precision p) {
        long t0 = System.nanoTime();
        this.p = p;
        this.n = m.rows();
        double[] d = new double[n];
        for (int i = 0; i < n; i++) d[i] = 1.0 / m.matrix().value(m.diagPos().get(i));
        this.invDiag = p.fromDoubles(d.length == 0 ? new double[1] : d);
        this.setupMillis = (System.nanoTime() - t0) / 1e6;
    }

    @Override
    public String name() {
        return "jacobi";
    }

    @Override
    public String describe() {
        return "Jacobi: z = D^-1 r";
    }

    @Override
    public double setupMillis() {
        return setupMillis;
    }

    @Override
    public double flopsPerApply() {
        return n;
    }

    @Override
    public double bytesPerApply() {
        return 3.0 * n * p.bytes();
    }

    @Override
    public void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z) {
        g.task(prefix + "/jacobi", SolverKernelVariants.scaleBy.at(p), invDiag, r, z, n);
    }
}
