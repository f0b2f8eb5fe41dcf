package dev.squall.linalg.svd;

import dev.squall.linalg.plan.BatchedResult;
import dev.squall.tasks.api.KernelArray;

/**
 * The result of {@link BatchedSvd#decompose}: per matrix the thin factors ({@code U} is
 * {@code m x k}, {@code V} is {@code n x k}, {@code k = min(m, n)}), singular values in
 * descending order, the truncation rank and the sweeps Jacobi needed.
 *
 * <pre>{@code
 * int r = result.rank(e);
 * double[] ur = result.u(e, r), sr = result.singularValues(e), vr = result.v(e, r);
 * }</pre>
 */
public final class SvdResult extends BatchedResult {
    private final int k;
    private final KernelArray u, s, v;
    private final int[] rank, sweeps;

    SvdResult(int m, int n, int batch, KernelArray u, KernelArray s, KernelArray v, int[] rank, int[] sweeps) {
        super(m, n, batch);
        this.k = Math.min(m, n);
        this.u = u;
        this.s = s;
        this.v = v;
        this.rank = rank;
        this.sweeps = sweeps;
    }

    /** Singular values of matrix {@code e} above {@code relTol} times its largest. */
    public int rank(int e) {
        check(e);
        return rank[e];
    }

    /** All {@code min(m, n)} singular values of matrix {@code e}, descending. */
    public double[] singularValues(int e) {
        check(e);
        return slice(s, (long) e * k, k);
    }

    /** The first {@code cols} left singular vectors of matrix {@code e}: {@code m x cols}, column-major. */
    public double[] u(int e, int cols) {
        check(e);
        checkCols(cols);
        return slice(u, (long) e * m * k, m * cols);
    }

    /** The first {@code cols} right singular vectors of matrix {@code e}: {@code n x cols}, column-major. */
    public double[] v(int e, int cols) {
        check(e);
        checkCols(cols);
        return slice(v, (long) e * n * k, n * cols);
    }

    /** Jacobi sweeps matrix {@code e} took (the last one finds every pair orthogonal). */
    public int sweeps(int e) {
        check(e);
        return sweeps[e];
    }

    /** Whether every matrix converged within {@link BatchedSvd#MAX_SWEEPS} sweeps. */
    public boolean converged() {
        for (int w : sweeps) if (w > BatchedSvd.MAX_SWEEPS) return false;
        return true;
    }

    private void checkCols(int cols) {
        if (cols < 0 || cols > k) throw new IndexOutOfBoundsException(cols + " singular vectors asked for, there are " + k);
    }
}
