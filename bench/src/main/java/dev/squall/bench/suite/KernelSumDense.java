package dev.squall.bench.suite;

import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.tasks.runtime.Device;

import java.util.function.Function;

/**
 * The dense Gaussian kernel sum {@code a = K b} over {@code n} uniform points in the unit cube, targets and sources
 * drawn apart ({@link KernelSum}, fp32, tiled through local memory). A sample is the device time of one
 * execution (inputs uploaded, the kernels built once per run); compute-bound ({@link KernelSumWorkload#flopsPerPair} a pair).
 */
public final class KernelSumDense extends KernelSumWorkload {
    static final int DIM = 3;

    public KernelSumDense(int n) {
        super("ksum-dense", "Gaussian kernel sum, dense", n, DIM, 0.1);
    }

    @Override
    Function<double[], KernelSum.Result> prepare(KernelSum engine, PointSet x, PointSet y, Device device) {
        return b -> engine.apply(x, y, b, 1, 0);
    }
}
