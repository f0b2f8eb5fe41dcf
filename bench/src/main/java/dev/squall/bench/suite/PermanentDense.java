package dev.squall.bench.suite;

import dev.squall.permanent.Method;
import dev.squall.permanent.PermanentResult;
import dev.squall.permanent.PermanentSolver;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.cpu.DoubleDoubleGraySweep;
import dev.squall.tasks.runtime.Device;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The permanent of a dense {@code n x n} matrix of uniform [0, 1) values by the Gray-code Ryser sweep
 * ({@link PermanentSolver}, method dense: JVM threads on jvm, the generic dense kernel elsewhere; no decomposition).
 * A sample is the sweep's time; a Gray step updates n row sums and multiplies them, 2n flops. Verified against the
 * Gray-code sweep in double-double on the JVM ({@link DoubleDoubleGraySweep}): relative error within {@link #TOLERANCE}.
 */
public final class PermanentDense extends Workload {
    /**
     * The solver's sweeps (Nijenhuis-Wilf form, balanced, compensated sums) keep about twelve digits on these
     * positive matrices (permanent/ACCURACY.md); the reference, in double-double, about thirty. A plain double Ryser
     * sum without those measures is no reference here: at n = 26 it is 3.7e-4 off.
     */
    static final double TOLERANCE = 1e-9;
    private final int n;

    public PermanentDense(int n) {
        super("permanent", "permanent, Ryser", "order", "fp64", Bound.COMPUTE);
        this.n = n;
    }

    @Override
    public String size() {
        return String.format(Locale.ROOT, "dense n=%d", n);
    }

    @Override
    public double scale() {
        return n;
    }

    @Override
    protected Run start(Device device) {
        double[] rowMajor = new SplittableRandom(5).doubles((long) n * n, 0, 1).toArray();
        SquareMatrix a = SquareMatrix.of(n, rowMajor);
        PermanentSolver solver = new PermanentSolver().device(device).method(Method.DENSE).decompose(false);
        return new Run() {
            PermanentResult r;

            @Override
            public double sample() {
                r = solver.solve(a);
                return r.sweepSeconds() * 1e3;
            }

            @Override
            public double work() {
                return 2.0 * n * r.graySteps();
            }

            @Override
            public String note(double medianMs) {
                return String.format(Locale.ROOT, "%.3g Gray steps/s, %s, own error estimate %.1e", r.graySteps() / (medianMs * 1e-3),
                        String.join(" ", r.methodsUsed()), r.errorBound().toDouble() / Math.abs(r.value()));
            }

            @Override
            public Check check(ResultHook hook) {
                double[] v = {r.value()};
                hook.accept(name(), v);
                double want = new ChunkedJvmPermanent(Runtime.getRuntime().availableProcessors())
                        .run(n, () -> new DoubleDoubleGraySweep(a));
                double rel = Math.abs(v[0] - want) / Math.abs(want);
                return new Check(Double.isNaN(rel) ? Double.POSITIVE_INFINITY : rel, TOLERANCE, "double-double Gray-code sweep (JVM), relative error");
            }

            @Override
            public void close() {
            }
        };
    }
}
