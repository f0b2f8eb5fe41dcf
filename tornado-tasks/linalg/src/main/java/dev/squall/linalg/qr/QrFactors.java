package dev.squall.linalg.qr;

import dev.squall.linalg.plan.BatchedResult;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

/**
 * The result of {@link BatchedQr#factor}: per matrix, {@code R} and (when asked for) the thin
 * {@code Q}, plus the raw compact form (reflectors below the diagonal, {@code tau}) that
 * LAPACK's {@code geqrf} also returns.
 *
 * <pre>{@code
 * double[] r = factors.r(e);   // min(m, n) x n, column-major, zeros below the diagonal
 * }</pre>
 */
public final class QrFactors extends BatchedResult {
    private final KernelArray compact, tau, q;

    QrFactors(int m, int n, int batch, KernelArray compact, KernelArray tau, KernelArray q) {
        super(m, n, batch);
        this.compact = compact;
        this.tau = tau;
        this.q = q;
    }

    /** {@code R} of matrix {@code e}: {@code min(m, n) x n}, column-major, zeros below the diagonal. */
    public double[] r(int e) {
        check(e);
        int k = Math.min(m, n);
        double[] r = new double[k * n];
        long base = (long) e * m * n;
        for (int c = 0; c < n; c++) {
            for (int i = 0; i <= Math.min(c, k - 1); i++) r[i + c * k] = Precision.get(compact, base + i + (long) c * m);
        }
        return r;
    }

    /** Thin {@code Q} of matrix {@code e}: {@code m x min(m, n)}, column-major. */
    public double[] q(int e) {
        check(e);
        if (q == null) throw new IllegalStateException("Q was not formed: factor with wantQ = true");
        int len = m * Math.min(m, n);
        return slice(q, (long) e * len, len);
    }

    public boolean hasQ() {
        return q != null;
    }

    /** The factored input: R on and above the diagonal, reflector tails below it (packed {@code m x n} per matrix). */
    public KernelArray compact() {
        return compact;
    }

    /** {@code tau}, {@code min(m, n)} per matrix. */
    public KernelArray tau() {
        return tau;
    }
}
