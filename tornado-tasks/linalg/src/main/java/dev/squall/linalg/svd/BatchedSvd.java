package dev.squall.linalg.svd;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * Thin SVD {@code A = U diag(s) V^T} of many small matrices at once by one-sided Jacobi, with a
 * relative-threshold truncation rank: the number of singular values above {@code relTol * s_max},
 * which is what H2 compression keeps. {@code min(m, n) <= 64}; matrices are packed column-major,
 * {@code m x n} each, and are not modified. Wide matrices ({@code m < n}) are decomposed through
 * their transposes.
 *
 * <pre>{@code
 * SvdResult r = BatchedSvd.decompose(Devices.select(null), a, 128, 64, 1000, 1e-8);
 * int k = r.rank(0);             // singular values of matrix 0 above 1e-8 * s_max
 * double[] uk = r.u(0, k);       // 128 x k
 * }</pre>
 */
public final class BatchedSvd {
    /** Sweeps after which a matrix counts as not converged (Jacobi needs 6 to 12 in practice). */
    public static final int MAX_SWEEPS = 30;

    private BatchedSvd() {
    }

    /**
     * Decomposes {@code batch} matrices on {@code device}.
     *
     * @param relTol relative truncation threshold in {@code [0, 1)}
     * @throws IllegalArgumentException on wrong sizes, {@code min(m, n) > 64}, a bad {@code relTol}
     *                                  or a non-finite entry (naming it)
     */
    public static SvdResult decompose(Device device, KernelArray a, int m, int n, int batch, double relTol) {
        InputChecks.rectangularBatch("A", a, m, n, batch);
        if (Math.min(m, n) > SvdKernelsF64.MAX_N) {
            throw new IllegalArgumentException("batched SVD handles min(m, n) <= " + SvdKernelsF64.MAX_N + ", got " + m + " x " + n);
        }
        if (!(relTol >= 0 && relTol < 1)) throw new IllegalArgumentException("relTol must be in [0, 1), got " + relTol);
        InputChecks.finite("A", a, m, n, batch);
        boolean wide = m < n;
        KernelArray tall = wide ? transposed(a, m, n, batch) : a;
        int rows = Math.max(m, n), cols = Math.min(m, n);
        Precision p = Precision.of(a);
        KernelArray u = p.allocate((long) rows * cols * batch), s = p.allocate((long) cols * batch);
        KernelArray v = p.allocate((long) cols * cols * batch), work = p.allocate(workLength(rows, cols, batch));
        IntArray rank = new IntArray(batch), sweeps = new IntArray(batch);
        LaunchSequence seq = new LaunchSequence("gesvj");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, tall);
        append(seq, tall, rows, cols, batch, work, u, s, v, rank, sweeps, relTol);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, u, s, v, rank, sweeps);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        // A^T = U' S V'^T gives A = V' S U'^T
        return wide ? new SvdResult(m, n, batch, v, s, u, rank.toHeapArray(), sweeps.toHeapArray())
                : new SvdResult(m, n, batch, u, s, v, rank.toHeapArray(), sweeps.toHeapArray());
    }

    /** Workspace elements {@link #append} needs. */
    public static long workLength(int m, int n, int batch) {
        return ((long) m * n + (long) n * n) * batch;
    }

    /**
     * Appends the decomposition of the packed tall batch {@code a} ({@code m >= n}) into packed
     * {@code u} ({@code m x n}), {@code s} ({@code n}), {@code v} ({@code n x n}) per matrix.
     */
    public static void append(LaunchSequence seq, KernelArray a, int m, int n, int batch, KernelArray work,
                              KernelArray u, KernelArray s, KernelArray v, IntArray rank, IntArray sweeps, double relTol) {
        if (m < n) throw new IllegalArgumentException("append needs m >= n, got " + m + " x " + n + "; decompose the transpose");
        if (work.getSizeLong() < workLength(m, n, batch)) throw new IllegalArgumentException("work needs " + workLength(m, n, batch) + " elements");
        Precision p = Precision.of(a);
        // rotate while the pair's cosine exceeds m * eps (LAPACK's dgesvj uses sqrt(m) * eps)
        double tol = m * 2 * p.epsilon();
        seq.graph().task(seq.taskName("gesvj"), WorkerGrid.of((long) batch * SvdKernelsF64.THREADS).withLocal(SvdKernelsF64.THREADS),
                SvdKernels.gesvj.at(p), new KernelContext(), a, m, n, work, u, s, v, rank, sweeps, tol, relTol, MAX_SWEEPS);
    }

    private static KernelArray transposed(KernelArray a, int m, int n, int batch) {
        Precision p = Precision.of(a);
        KernelArray t = p.allocate((long) m * n * batch);
        for (int e = 0; e < batch; e++) {
            long base = (long) e * m * n;
            for (int c = 0; c < n; c++) {
                for (int r = 0; r < m; r++) set(t, base + c + (long) r * n, Precision.get(a, base + r + (long) c * m));
            }
        }
        return t;
    }

    private static void set(KernelArray a, long i, double v) {
        if (a instanceof dev.squall.tasks.api.DoubleArray d) d.set(i, v);
        else ((dev.squall.tasks.api.FloatArray) a).set(i, (float) v);
    }
}
