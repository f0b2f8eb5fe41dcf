package dev.squall.bench.suite;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.precond.JacobiPreconditioner;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.Pcg;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

import java.util.Arrays;
import java.util.Locale;

/**
 * A Jacobi-preconditioned CG solve ({@link Pcg}, fp64) of HPCG's 27-point problem on an {@code m^3} grid, b = A * ones,
 * to a relative residual of 1e-8. A sample is the device time of the solve's iterations; bytes are what
 * {@link Pcg#bytesPerIteration()} counts, times the iterations. Verified by the true residual ||b - A x|| / ||b||
 * ({@link ReferenceSolvers}), which must stay within 10 times the tolerance.
 */
public final class PcgSolve extends Workload {
    static final double TOL = 1e-8;
    private final int m;

    public PcgSolve(int m) {
        super("pcg", "PCG solve, Jacobi", "rows", "fp64", Bound.MEMORY);
        this.m = m;
    }

    @Override
    public String size() {
        return String.format(Locale.ROOT, "hpcg %dx%dx%d", m, m, m);
    }

    @Override
    public double scale() {
        return (double) m * m * m;
    }

    @Override
    protected Run start(Device device) {
        CsrMatrix a = MatrixGenerators.generate("hpcg:" + m + "x" + m + "x" + m);
        double[] ones = new double[a.rows()];
        Arrays.fill(ones, 1);
        double[] b = ReferenceSpmv.multiply(a, ones);
        Pcg cg = Pcg.create(a, new JacobiPreconditioner(DeviceMatrix.of(a, Precision.FP64), Precision.FP64), Precision.FP64, device, null);
        return new Run() {
            Pcg.Result r;

            @Override
            public double sample() {
                r = cg.solve(b, TOL, 1000, null);   // a solve that does not converge fails the check
                return r.kernelMillis();
            }

            @Override
            public double work() {
                return cg.bytesPerIteration() * r.iterations();
            }

            @Override
            public String note(double medianMs) {
                return String.format(Locale.ROOT, "%s after %d iterations, %.3g ms each, %.1f MB moved an iteration (more than"
                        + " the copy bandwidth when that fits in the device's cache)", r.status().name().toLowerCase(Locale.ROOT),
                        r.iterations(), medianMs / Math.max(1, r.iterations()), cg.bytesPerIteration() / 1e6);
            }

            @Override
            public Check check(ResultHook hook) {
                double[] x = r.x().clone();
                hook.accept(name(), x);
                double rel = ReferenceSolvers.residualNorm(a, b, x) / ReferenceSolvers.norm(b);
                return new Check(Double.isNaN(rel) ? Double.POSITIVE_INFINITY : rel, 10 * TOL, "true residual ||b - Ax|| / ||b|| (ReferenceSolvers)");
            }

            @Override
            public void close() {
                cg.close();
            }
        };
    }
}
