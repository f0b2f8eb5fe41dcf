package dev.squall.bench.suite;

import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PairKernel;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The dense Gaussian kernel sum {@code a = K b} over {@code n} uniform points in the unit cube, targets and sources
 * drawn apart ({@link KernelSum}, fp32, tiled through local memory). A sample is the device time of one
 * execution (inputs uploaded, the kernels built once per run); compute-bound ({@link KernelSumRun#flopsPerPair} a pair).
 */
public final class KernelSumDense extends Workload {
    static final int DIM = 3;
    private final int n;

    public KernelSumDense(int n) {
        super("ksum-dense", "Gaussian kernel sum, dense", "points", "fp32", Bound.COMPUTE);
        this.n = n;
    }

    @Override
    public String size() {
        return String.format(Locale.ROOT, "%dd n=%d", DIM, n);
    }

    @Override
    public double scale() {
        return n;
    }

    @Override
    protected Run start(Device device) {
        PairKernel k = PairKernel.gaussian(0.1);
        PointSet x = PointSet.uniform(n, DIM, 1), y = PointSet.uniform(n, DIM, 2);
        double[] b = new SplittableRandom(3).doubles(n, 0, 1).toArray();
        KernelSum engine = new KernelSum(k, Precision.FP32, device);
        return new Run() {
            KernelSum.Result r;

            @Override
            public double sample() {
                r = engine.apply(x, y, b, 1, 0);
                return r.profile().kernelMillis();
            }

            @Override
            public double work() {
                return r.pairs() * KernelSumRun.flopsPerPair(DIM);
            }

            @Override
            public String note(double medianMs) {
                return KernelSumRun.note(r.pairs(), 1, medianMs);
            }

            @Override
            public Check check(ResultHook hook) {
                return KernelSumRun.check(name(), hook, r, k, Precision.FP32, x, y, b);
            }

            @Override
            public void close() {
            }
        };
    }
}
