package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * A Cholesky factor {@code L} (packed column-major, zeros above the diagonal) and what it is
 * used for: solves with {@code A = L L^T}, {@code log det A}, and the Gaussian-process
 * log-likelihood.
 *
 * <pre>{@code
 * CholeskyFactor f = run.factor();
 * KernelArray x = f.solve(device, b, 1);                 // A x = b
 * double ll = f.gaussianLogLikelihood(device, y);        // log N(y | 0, A)
 * }</pre>
 */
public final class CholeskyFactor {
    private final KernelArray l;
    private final int n;

    public CholeskyFactor(KernelArray l, int n) {
        if (l.getSizeLong() != (long) n * n) throw new IllegalArgumentException("L must have n*n = " + (long) n * n + " elements, has " + l.getSizeLong());
        this.l = l;
        this.n = n;
    }

    public KernelArray l() {
        return l;
    }

    public int order() {
        return n;
    }

    /** {@code log det A = 2 sum log L_ii}. */
    public double logDeterminant() {
        double s = 0;
        for (int i = 0; i < n; i++) s += Math.log(Precision.get(l, i + (long) i * n));
        return 2 * s;
    }

    /** Solves {@code A X = B} for {@code nrhs} right-hand sides (columns of {@code b}, length n each); {@code b} is unchanged. */
    public KernelArray solve(Device device, KernelArray b, int nrhs) {
        return solve(device, b, nrhs, true);
    }

    /** {@code L^-1 B}: the forward half of a solve. */
    public KernelArray forwardSolve(Device device, KernelArray b, int nrhs) {
        return solve(device, b, nrhs, false);
    }

    private KernelArray solve(Device device, KernelArray b, int nrhs, boolean both) {
        Precision p = Precision.of(l);
        if (!p.holds(b)) throw new IllegalArgumentException("b must be " + p + " like L, is " + b.elementType());
        if (nrhs < 1 || b.getSizeLong() != (long) n * nrhs) {
            throw new IllegalArgumentException("b must hold nrhs = " + nrhs + " columns of length " + n + ", has " + b.getSizeLong() + " elements");
        }
        KernelArray work = p.fromDoubles(Precision.toDoubles(b)), y = p.allocate((long) n * nrhs), x = p.allocate((long) n * nrhs);
        WorkerGrid grid = WorkerGrid.of((long) nrhs * CholeskyKernelsF64.THREADS).withLocal(CholeskyKernelsF64.THREADS);
        LaunchSequence seq = new LaunchSequence("cholesky_solve");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, l, work);
        seq.graph().task(seq.taskName("forward_solve"), grid, CholeskyKernels.forwardSolve.at(p), new KernelContext(), l, n, n, work, y, n);
        if (both) seq.graph().task(seq.taskName("back_solve"), grid, CholeskyKernels.backSolve.at(p), new KernelContext(), l, n, n, y, x, n);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, both ? x : y);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        return both ? x : y;
    }

    /**
     * {@code log N(y | 0, A) = -(y^T A^-1 y + log det A + n log 2 pi) / 2}, with
     * {@code y^T A^-1 y = |L^-1 y|^2} from one forward solve on {@code device}.
     */
    public double gaussianLogLikelihood(Device device, KernelArray y) {
        double[] z = Precision.toDoubles(forwardSolve(device, y, 1));
        double q = 0;
        for (double v : z) q += v * v;
        return -0.5 * (q + logDeterminant() + n * Math.log(2 * Math.PI));
    }
}
