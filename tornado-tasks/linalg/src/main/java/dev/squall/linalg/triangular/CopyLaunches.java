package dev.squall.linalg.triangular;

import dev.squall.linalg.cholesky.CholeskyKernels;
import dev.squall.linalg.cholesky.CholeskyKernelsF64;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;

/**
 * Launches of the block-copy kernel: a lower triangle with zeros above it, or a rectangle.
 *
 * <pre>{@code CopyLaunches.lower(seq, a, 0, n, n * n, a, 0, n, n * n, n, batch);   // clear upper triangles in place }</pre>
 */
public final class CopyLaunches {
    private CopyLaunches() {
    }

    public static void lower(LaunchSequence seq, KernelArray src, int srcOff, int lds, int srcStride,
                             KernelArray dst, int dstOff, int ldd, int dstStride, int n, int batch) {
        copy(seq, src, srcOff, lds, srcStride, dst, dstOff, ldd, dstStride, n, n, 1, batch);
    }

    /**
     * Zeros above the diagonal of the {@code n x n} matrix at {@code off} within {@code band} columns of it
     * ({@code CholeskyKernels.clearUpperBand}): where only that band can hold anything but zeros, the same result as
     * {@link #lower} in place at a fraction of its traffic.
     */
    public static void clearUpperBand(LaunchSequence seq, KernelArray a, int off, int lda, int n, int band) {
        if (n < 2 || band < 1) return;
        int t = CholeskyKernelsF64.THREADS;
        long items = (long) n * band;
        seq.graph().task(seq.taskName("clear_upper_band"), WorkerGrid.of((items + t - 1) / t * t).withLocal(t),
                CholeskyKernels.clearUpperBand.at(Precision.of(a)), new KernelContext(), a, off, lda, n, band);
    }

    public static void rect(LaunchSequence seq, KernelArray src, int srcOff, int lds, KernelArray dst, int dstOff, int ldd, int rows, int cols) {
        copy(seq, src, srcOff, lds, 0, dst, dstOff, ldd, 0, rows, cols, 0, 1);
    }

    /** The lower triangle of the {@code n x n} matrix at {@code srcOff} into {@code dst}, its entries above the diagonal left as they are. */
    public static void lowerOnly(LaunchSequence seq, KernelArray src, int srcOff, int lds, KernelArray dst, int dstOff, int ldd, int n) {
        copy(seq, src, srcOff, lds, 0, dst, dstOff, ldd, 0, n, n, 2, 1);
    }

    private static void copy(LaunchSequence seq, KernelArray src, int srcOff, int lds, int srcStride, KernelArray dst, int dstOff, int ldd,
                             int dstStride, int rows, int cols, int lower, int batch) {
        if ((long) rows * cols == 0) return;
        Precision p = Precision.of(dst);
        int t = CholeskyKernelsF64.THREADS;
        int blocks = (int) (((long) rows * cols + t - 1) / t);
        seq.graph().task(seq.taskName(lower != 0 ? "copy_lower" : "copy_rect"), WorkerGrid.of((long) batch * blocks * t).withLocal(t),
                CholeskyKernels.copyBlock.at(p), new KernelContext(), src, srcOff, lds, srcStride, dst, dstOff, ldd, dstStride, rows, cols, lower, blocks);
    }
}
