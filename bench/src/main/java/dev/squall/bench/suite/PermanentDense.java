package dev.squall.bench.suite;

import dev.squall.permanent.Method;
import dev.squall.permanent.PermanentResult;
import dev.squall.permanent.PermanentSolver;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.reference.RyserPermanent;
import dev.squall.tasks.runtime.Device;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The permanent of a dense {@code n x n} matrix of uniform [0, 1) values by the Gray-code Ryser sweep
 * ({@link PermanentSolver}, method dense: JVM threads on jvm, the generic dense kernel elsewhere; no decomposition).
 * A sample is the sweep's time; a Gray step updates n row sums and multiplies them, 2n flops. Verified against
 * {@link RyserPermanent}, the sequential reference: relative error within {@link #TOLERANCE}.
 */
public final class PermanentDense extends Workload {
    /**
     * Ryser's alternating sum cancels terms about e^n times the permanent of a positive matrix, so a double sweep keeps
     * about eight digits at these orders (permanent/ACCURACY.md), the sequential reference included.
     */
    static final double TOLERANCE = 1e-6;
    private final int n;

    public PermanentDense(int n) {
        this.n = n;
    }

    @Override
    public String name() {
        return "permanent";
    }

    @Override
    public String title() {
        return "permanent, Ryser";
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
    public String scaleUnit() {
        return "order";
    }

    @Override
    public String precision() {
        return "fp64";
    }

    @Override
    public Bound bound() {
        return Bound.COMPUTE;
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
                double want = RyserPermanent.of(n, rowMajor);
                double rel = Math.abs(v[0] - want) / Math.abs(want);
                return new Check(Double.isNaN(rel) ? Double.POSITIVE_INFINITY : rel, TOLERANCE, "RyserPermanent, relative error");
            }

            @Override
            public void close() {
            }
        };
    }
}
