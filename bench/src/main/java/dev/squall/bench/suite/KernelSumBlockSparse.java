package dev.squall.bench.suite;

import dev.squall.hmatrix.ksum.BlockSparseSum;
import dev.squall.hmatrix.ksum.Clustering;
import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PairKernel;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The block-sparse Gaussian kernel sum ({@link BlockSparseSum}, fp32): a narrow kernel (length 0.01) over {@code n}
 * uniform points in the unit square, grid cells of 0.02, tiles kept when their clusters may hold points within 0.06
 * (the dropped terms are below exp(-18) of a term). The clustering and ranges are set up once; a sample is the device
 * time of one execution; compute-bound over the pairs kept.
 */
public final class KernelSumBlockSparse extends Workload {
    static final int DIM = 2;
    private final int n;

    public KernelSumBlockSparse(int n) {
        super("ksum-sparse", "Gaussian kernel sum, block-sparse", "points", "fp32", Bound.COMPUTE);
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
        PairKernel k = PairKernel.gaussian(0.01);
        PointSet x = PointSet.uniform(n, DIM, 1), y = PointSet.uniform(n, DIM, 2);
        double[] b = new SplittableRandom(3).doubles(n, 0, 1).toArray();
        KernelSum engine = new KernelSum(k, Precision.FP32, device);
        BlockSparseSum bs = BlockSparseSum.build(engine, x, y, Clustering.grid(x, 0.02, device), Clustering.grid(y, 0.02, device));
        BlockSparseSum.KeepRule rule = BlockSparseSum.KeepRule.within(0.06);
        return new Run() {
            KernelSum.Result r;

            @Override
            public double sample() {
                r = bs.apply(b, 1, rule, 0);
                return r.profile().kernelMillis();
            }

            @Override
            public double work() {
                return r.pairs() * KernelSumRun.flopsPerPair(DIM);
            }

            @Override
            public String note(double medianMs) {
                return KernelSumRun.note(r.pairs(), r.keptFraction(), medianMs);
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
