package dev.squall.permanent.cli;

import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.exact.BinaryKernelPermanent;
import dev.squall.permanent.exact.BinaryKernels;
import dev.squall.permanent.exact.BlockExactPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;

import java.util.List;
import java.util.function.Function;

/**
 * One exact 0/1 permanent for {@code --exact}: the 64-bit exact kernel (generated per matrix, or generic) on a CUDA/OpenCL device,
 * the 128-bit multi-threaded path on the JVM; optionally block by block
 * ({@link BlockExactPermanent}); with its time, step count and blocks.
 */
record ExactRun(BinaryPermanent.Result result, Device device, String path, double seconds, long steps, List<Integer> blocks) {
    /** Largest block the JVM's exact path takes here: 2^(n-1) steps of 128-bit arithmetic. */
    static final int JVM_MAX_N = 40;

    /** {@code generated}: on CUDA/OpenCL, the per-matrix generated kernel rather than the generic one (ignored on the JVM). */
    static ExactRun on(Device device, SquareMatrix a, boolean decompose, boolean generated, int jvmThreads, ProgressListener progress) {
        long t0 = System.nanoTime();
        long[] steps = {0};
        int max = device.info().type() == DeviceType.JVM ? JVM_MAX_N : BinaryKernels.MAX_N;
        Function<SquareMatrix, BinaryPermanent.Result> block = b -> {
            if (b.n() > max) {
                throw new IllegalArgumentException("--exact: " + (decompose ? "a block of order " + b.n() + " remains after the block-triangular split"
                        : "the matrix is " + b.n() + "x" + b.n()) + "; the exact path on " + device.id() + " supports n <= " + max
                        + (device.info().type() == DeviceType.JVM ? " (use a GPU/OpenCL device for up to " + BinaryKernels.MAX_N + ")" : ""));
            }
            steps[0] += device.info().type() == DeviceType.JVM ? 1L << (b.n() - 1) : 1L << b.n();
            return device.info().type() == DeviceType.JVM ? new BinaryPermanent(jvmThreads).of(b)
                    : new BinaryKernelPermanent(device).withGeneratedKernel(generated).withProgress(progress).compute(b);
        };
        BinaryPermanent.Result r;
        List<Integer> blocks;
        if (decompose) {
            BlockExactPermanent.Outcome o = BlockExactPermanent.of(a, block);
            r = o.result();
            blocks = o.blockSizes();
        } else {
            r = block.apply(a);
            blocks = List.of(a.n());
        }
        String path = device.info().type() == DeviceType.JVM ? "128-bit Nijenhuis-Wilf sweep" : generated ? "generated 64-bit Ryser kernel" : "generic 64-bit Ryser kernel";
        return new ExactRun(r, device, path, (System.nanoTime() - t0) / 1e9, steps[0], blocks);
    }

    double stepsPerSecond() {
        return seconds > 0 ? steps / seconds : 0;
    }
}
