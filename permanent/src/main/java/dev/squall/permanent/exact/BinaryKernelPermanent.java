package dev.squall.permanent.exact;

import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.kernel.GenericKernelPermanent;
import dev.squall.permanent.kernel.LaunchPlan;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.BregmanBound;
import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.*;

import java.math.BigInteger;

/**
 * Exact permanents of 0/1 matrices on any Squall device (CUDA, OpenCL, the JVM backend): 2^n
 * Ryser steps in 64-bit wrapping integers, chunked by the {@link LaunchPlan}, partials summed
 * modulo 2^64 on the host (exact, order-free). On CUDA/OpenCL devices the kernel is generated for
 * the matrix ({@link ExactSourceGenerator}: row sums in registers, columns as constant row lists);
 * on the JVM, or with {@code withGeneratedKernel(false)}, it is the generic
 * {@link BinaryKernels#ryserChunks}. The residue
 * is the permanent whenever it is below 2^64, which {@link BregmanBound} certifies; otherwise
 * the result says it is only the residue.
 *
 * <pre>{@code
 * BinaryPermanent.Result r = new BinaryKernelPermanent(Devices.get("cuda:0")).compute(a);
 * if (r.exact()) System.out.println(r.value());   // the number of perfect matchings
 * }</pre>
 */
public final class BinaryKernelPermanent {
    /** Bits of the modulus the kernel works in. */
    public static final int MODULUS_BITS = 64;

    private final Device device;
    private int maxThreads;
    private ProgressListener progress = ProgressListener.NONE;
    private boolean generated;

    public BinaryKernelPermanent(Device device) {
        this.device = device;
        this.maxThreads = GenericKernelPermanent.defaultThreads(device);
        this.generated = device.info().type() != DeviceType.JVM;
    }

    /** Per-matrix generated kernel (default on CUDA/OpenCL) or the generic one; the JVM backend has only the generic one. */
    public BinaryKernelPermanent withGeneratedKernel(boolean on) {
        if (on && device.info().type() == DeviceType.JVM) throw new IllegalArgumentException("the generated exact kernel needs a CUDA or OpenCL device, not " + device.id());
        this.generated = on;
        return this;
    }

    public boolean generatedKernel() {
        return generated;
    }

    /** Overrides the number of work-items per launch (tests use small counts to get several launches). */
    public BinaryKernelPermanent withMaxThreads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.maxThreads = threads;
        return this;
    }

    public BinaryKernelPermanent withProgress(ProgressListener listener) {
        this.progress = listener;
        return this;
    }

    /**
     * @throws IllegalArgumentException when an entry is not 0 or 1, or n is outside
     *                                  [1, {@link BinaryKernels#MAX_N}]
     */
    public BinaryPermanent.Result compute(SquareMatrix a) {
        int n = a.n();
        if (n < 1 || n > BinaryKernels.MAX_N) {
            throw new IllegalArgumentException("the exact kernel supports 1 <= n <= " + BinaryKernels.MAX_N + " (2^n Ryser steps), got n=" + n);
        }
        if (!a.isBinary()) throw new IllegalArgumentException("the exact integer path needs a 0/1 matrix; this one has other values");
        long sum = generated ? new GeneratedExactSweep(device, maxThreads, progress).sweep(a) : sweep(a);
        long residue = (n & 1) == 0 ? sum : -sum; // perm = (-1)^n sum
        boolean exact = BregmanBound.log2(a) < MODULUS_BITS - 0.01; // margin for rounding in the log sum
        return new BinaryPermanent.Result(new BigInteger(Long.toUnsignedString(residue)), exact, MODULUS_BITS);
    }

    /** {@code sum over g < 2^n of (-1)^g prod_i rowSum_i(gray(g))} modulo 2^64. */
    private long sweep(SquareMatrix a) {
        int n = a.n();
        long steps = 1L << n;
        int local = 64;
        int threads = (int) Math.min(maxThreads, Math.max(1, (steps + 1023) / 1024));
        int global = (threads + local - 1) / local * local;
        int[] cols = new int[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) cols[j * n + i] = (int) a.get(i, j);
        IntArray colArray = IntArray.fromArray(cols);
        LongArray plan = new LongArray(3);
        LongArray partials = new LongArray(threads);
        TaskGraph g = new TaskGraph("exactPermanent")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, colArray)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, plan)
                .task("ryser", BinaryKernels::ryserChunks, new KernelContext(), colArray, plan, partials, n, threads)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partials);
        long total = 0;
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            p.withGrid("ryser", WorkerGrid.of(global).withLocal(local));
            for (LaunchPlan.Launch l : LaunchPlan.of(steps, threads, 1024)) {
                long[] words = l.planWords(steps);
                for (int i = 0; i < words.length; i++) plan.set(i, words[i]);
                partials.init(0x5EED_BAD0_5EED_BAD0L); // poison: a work-item that does not write shows
                p.execute();
                for (int t = 0; t < l.threads(); t++) total += partials.get(t); // wraps: exact modulo 2^64
                progress.stepsDone(l.end(steps), steps);
            }
        }
        return total;
    }
}
