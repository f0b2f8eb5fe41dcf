package dev.squall.linalg.cholesky;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.plan.Precision;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;

/**
 * Cholesky factorisation of many small SPD matrices ({@code n <= 64}) at once: one work-group
 * per matrix, the matrix held in local memory. Matrices are packed column-major, {@code n x n}
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
     * Factors in place on {@code device} and copies the factors back into {@code a}.
     *
     * @throws IllegalArgumentException on wrong sizes, {@code n > 64}, or a non-finite input entry (naming it)
     */
    public static BatchStatus factor(Device device, KernelArray a, int n, int batch) {
        InputChecks.squareBatch("A", a, n, batch);
        InputChecks.finiteLower("A", a, n, batch);
        IntArray info = new IntArray(batch);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("potrf_batched").upload(DataTransferMode.EVERY_EXECUTION, a, info);
        append(seq, a, 0, n, n * n, n, batch, info, 0, 0);
        seq.download(DataTransferMode.EVERY_EXECUTION, a, info);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        return new BatchStatus(info.toHeapArray());
    }

    /**
     * Appends the factorisation of {@code batch} matrices of order {@code n} (matrix {@code e} at
     * {@code aOff + e * stride}, leading dimension {@code lda}); failing pivots go to
     * {@code info[infoOff + e]} as {@code pivotBase + j} (atomic minimum).
     */
    public static void append(LaunchSequence seq, KernelArray a, int aOff, int lda, int stride, int n, int batch,
                              IntArray info, int infoOff, int pivotBase) {
        if (n < 1 || n > CholeskyKernelsF64.MAX_N) {
            throw new IllegalArgumentException("batched Cholesky handles orders 1.." + CholeskyKernelsF64.MAX_N + ", got " + n);
        }
        Precision p = Precision.of(a);
        seq.launch("potrf_small", p.pick(CholeskyKernelsF64.class, CholeskyKernelsF32.class), "potrfSmall",
                WorkerGrid.of((long) batch * CholeskyKernelsF64.THREADS).withLocal(CholeskyKernelsF64.THREADS),
                a, aOff, lda, stride, n, info, infoOff, pivotBase);
    }
}
