package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.triangular.CopyLaunches;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * Cholesky factorisation of many small SPD matrices ({@code n <= 64}) at once, by one of four
 * kernels ({@link SmallCholeskyKernel}): one warp per matrix in registers with the columns broadcast
 * through local memory (the default; {@code warp-loop}: the same as a loop, out of place) or by shuffles, or one work-group per matrix in local memory. Matrices are packed column-major, {@code n x n}
 * each, and are overwritten by their factors (zeros above the diagonal).
 *
 * <pre>{@code
 * BatchStatus s = BatchedCholesky.factor(Devices.select(null), a, 64, 10_000);
 * if (!s.allPositiveDefinite()) System.err.println(s.describeFirstFailure());
 * }</pre>
 */
public final class BatchedCholesky {
    private BatchedCholesky() {
    }

    /**
     * Factors in place on {@code device} with the {@link SmallCholeskyKernel#WARP_LOOP} kernel (5.4x torch on the H100, bench/results/h100/linalg/2026-11-22-batched-cholesky) and copies the factors back into {@code a}.
     *
     * @throws IllegalArgumentException on wrong sizes, {@code n > 64}, or a non-finite input entry (naming it)
     */
    public static BatchStatus factor(Device device, KernelArray a, int n, int batch) {
        return factor(device, a, n, batch, SmallCholeskyKernel.WARP_LOOP);
    }

    /** Like {@link #factor(Device, KernelArray, int, int)} with the given kernel. */
    public static BatchStatus factor(Device device, KernelArray a, int n, int batch, SmallCholeskyKernel kernel) {
        InputChecks.squareBatch("A", a, n, batch);
        InputChecks.finiteLower("A", a, n, batch);
        IntArray info = new IntArray(batch);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("potrf_batched");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, info);
        append(seq, a, 0, n, n * n, n, batch, info, 0, 0, kernel);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, a, info);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        return new BatchStatus(info.toHeapArray());
    }

    /**
     * Appends the factorisation of {@code batch} matrices of order {@code n} (matrix {@code e} at
     * {@code aOff + e * stride}, leading dimension {@code lda}); failing pivots go to
     * {@code info[infoOff + e]} as {@code pivotBase + j} (atomic minimum). With the
     * {@link SmallCholeskyKernel#GROUP} kernel a failing matrix keeps its columns factored up to the
     * pivot; with the warp kernels its values are undefined.
     */
    public static void append(LaunchSequence seq, KernelArray a, int aOff, int lda, int stride, int n, int batch,
                              IntArray info, int infoOff, int pivotBase, SmallCholeskyKernel kernel) {
        checkOrder(n);
        Precision p = Precision.of(a);
        if (kernel == SmallCholeskyKernel.WARP_LOOP) {
            launchWarpLoop(seq, p, a, aOff, a, aOff, lda, stride, n, batch, info, infoOff, pivotBase);
            return;
        }
        if (kernel == SmallCholeskyKernel.WARP) {
            seq.graph().task(seq.taskName("potrf_warp_local"),
                    WorkerGrid.of((long) batch * WarpLocalCholeskyKernelsF64.THREADS).withLocal(WarpLocalCholeskyKernelsF64.THREADS),
                    WarpLocalCholeskyKernels.potrfWarpLocal.at(p), new KernelContext(), a, aOff, lda, stride, n, batch, info, infoOff, pivotBase);
            return;
        }
        if (kernel == SmallCholeskyKernel.WARP_SHUFFLE) {
            int groups = (batch + WarpCholeskyKernelsF64.MATRICES_PER_GROUP - 1) / WarpCholeskyKernelsF64.MATRICES_PER_GROUP;
            seq.graph().task(seq.taskName("potrf_warp"), WorkerGrid.of((long) groups * WarpCholeskyKernelsF64.THREADS).withLocal(WarpCholeskyKernelsF64.THREADS),
                    WarpCholeskyKernels.potrfWarp.at(p), new KernelContext(), a, aOff, lda, stride, n, batch, info, infoOff, pivotBase);
            return;
        }
        seq.graph().task(seq.taskName("potrf_small"), WorkerGrid.of((long) batch * CholeskyKernelsF64.THREADS).withLocal(CholeskyKernelsF64.THREADS),
                CholeskyKernels.potrfSmall.at(p), new KernelContext(), a, aOff, lda, stride, n, info, infoOff, pivotBase);
    }

    /**
     * Appends the factorisation of {@code batch} matrices of order {@code n} read from {@code src} (lower triangle,
     * matrix {@code e} at {@code srcOff + e * stride}) into {@code dst} (at {@code dstOff + e * stride}, zeros above
     * the diagonal), leading dimension {@code lda} for both; {@code src} is not modified. Kernels with
     * {@link SmallCholeskyKernel#outOfPlace()} do it in one launch, the others after a copy launch.
     */
    public static void appendOutOfPlace(LaunchSequence seq, KernelArray src, int srcOff, KernelArray dst, int dstOff, int lda, int stride,
                                        int n, int batch, IntArray info, int infoOff, int pivotBase, SmallCholeskyKernel kernel) {
        checkOrder(n);
        if (kernel.outOfPlace()) {
            launchWarpLoop(seq, Precision.of(dst), src, srcOff, dst, dstOff, lda, stride, n, batch, info, infoOff, pivotBase);
            return;
        }
        CopyLaunches.lower(seq, src, srcOff, lda, stride, dst, dstOff, lda, stride, n, batch);
        append(seq, dst, dstOff, lda, stride, n, batch, info, infoOff, pivotBase, kernel);
    }

    private static void checkOrder(int n) {
        if (n < 1 || n > CholeskyKernelsF64.MAX_N) {
            throw new IllegalArgumentException("batched Cholesky handles orders 1.." + CholeskyKernelsF64.MAX_N + ", got " + n);
        }
    }

    private static void launchWarpLoop(LaunchSequence seq, Precision p, KernelArray src, int srcOff, KernelArray dst, int dstOff, int lda,
                                       int stride, int n, int batch, IntArray info, int infoOff, int pivotBase) {
        seq.graph().task(seq.taskName("potrf_warp_loop"), WorkerGrid.of((long) batch * WarpLoopCholeskyKernelsF64.THREADS).withLocal(WarpLoopCholeskyKernelsF64.THREADS),
                WarpLoopCholeskyKernels.potrfWarpLoop.at(p), new KernelContext(), src, srcOff, dst, dstOff, lda, stride, n, batch, info, infoOff, pivotBase);
    }
}
