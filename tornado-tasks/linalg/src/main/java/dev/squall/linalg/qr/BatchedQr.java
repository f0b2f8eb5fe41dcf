package dev.squall.linalg.qr;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

/**
 * Householder QR of many small matrices at once ({@code m x n}, {@code n <= 64}, any {@code m}):
 * one work-group per matrix. Matrices are packed column-major, {@code m x n} each; the input is
 * overwritten by {@code R} (on and above the diagonal) and the reflectors (below it).
 *
 * <pre>{@code
 * QrFactors f = BatchedQr.factor(Devices.select(null), a, 128, 64, 1000, true);
 * double[] r0 = f.r(0);   // 64 x 64 upper triangular
 * double[] q0 = f.q(0);   // 128 x 64, orthonormal columns
 * }</pre>
 */
public final class BatchedQr {
    private BatchedQr() {
    }

    /**
     * Factors {@code batch} matrices in place on {@code device}, copying {@code a} back; with
     * {@code wantQ} also forms each thin {@code Q} ({@code m x min(m, n)}).
     *
     * @throws IllegalArgumentException on wrong sizes, {@code n > 64} or a non-finite entry (naming it)
     */
    public static QrFactors factor(Device device, KernelArray a, int m, int n, int batch, boolean wantQ) {
        InputChecks.rectangularBatch("A", a, m, n, batch);
        checkColumns(n);
        InputChecks.finite("A", a, m, n, batch);
        Precision p = Precision.of(a);
        int k = Math.min(m, n);
        KernelArray tau = p.allocate((long) k * batch);
        KernelArray q = wantQ ? p.allocate((long) m * k * batch) : null;
        LaunchSequence seq = new LaunchSequence("geqrf");
        seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a);
        append(seq, a, m, n, batch, tau, q);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, a, tau);
        if (wantQ) seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, q);
        try (ExecutionPlan plan = seq.plan(device)) {
            plan.execute();
        }
        return new QrFactors(m, n, batch, a, tau, q);
    }

    /**
     * Appends the factorisation of the packed batch {@code a} (reflectors to {@code tau},
     * {@code min(m, n)} per matrix) and, when {@code q} is not null, the forming of thin Q into
     * {@code q} ({@code m x min(m, n)} per matrix, packed).
     */
    public static void append(LaunchSequence seq, KernelArray a, int m, int n, int batch, KernelArray tau, KernelArray q) {
        checkColumns(n);
        Precision p = Precision.of(a);
        WorkerGrid grid = WorkerGrid.of((long) batch * QrKernelsF64.THREADS).withLocal(QrKernelsF64.THREADS);
        seq.graph().task(seq.taskName("geqrf"), grid, QrKernels.geqrf.at(p), new KernelContext(), a, 0, m, m * n, m, n, tau);
        if (q != null) {
            int k = Math.min(m, n);
            seq.graph().task(seq.taskName("orgqr"), grid, QrKernels.orgqr.at(p), new KernelContext(), a, 0, m, m * n, m, n, tau, q, m, m * k);
        }
    }

    private static void checkColumns(int n) {
        if (n < 1 || n > QrKernelsF64.MAX_N) {
            throw new IllegalArgumentException("batched QR handles 1.." + QrKernelsF64.MAX_N + " columns, got " + n);
        }
    }
}
