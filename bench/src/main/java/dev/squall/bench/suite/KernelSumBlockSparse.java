package dev.squall.bench.suite;

import dev.squall.hmatrix.ksum.BlockSparseSum;
import dev.squall.hmatrix.ksum.Clustering;
import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.tasks.runtime.Device;

import java.util.function.Function;

/**
 * The block-sparse Gaussian kernel sum ({@link BlockSparseSum}, fp32): a narrow kernel (length 0.01) over {@code n}
 * uniform points in the unit square, grid cells of 0.02, tiles kept when their clusters may hold points within 0.06
 * (the dropped terms are below exp(-18) of a term). The clustering and ranges are set up once; a sample is the device
 * time of one execution; compute-bound over the pairs kept.
 */
public final class KernelSumBlockSparse extends KernelSumWorkload {
    static final int DIM = 2;

    public KernelSumBlockSparse(int n) {
        super("ksum-sparse", "Gaussian kernel sum, block-sparse", n, DIM, 0.01);
    }

    @Override
    Function<double[], KernelSum.Result> prepare(KernelSum engine, PointSet x, PointSet y, Device device) {
        BlockSparseSum bs = BlockSparseSum.build(engine, x, y, Clustering.grid(x, 0.02, device), Clustering.grid(y, 0.02, device));
        BlockSparseSum.KeepRule rule = BlockSparseSum.KeepRule.within(0.06);
        return b -> bs.apply(b, 1, rule, 0);
    }
}
