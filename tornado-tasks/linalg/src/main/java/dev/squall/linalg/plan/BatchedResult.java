package dev.squall.linalg.plan;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

/**
 * What the results of the batched factorisations share ({@code QrFactors}, {@code SvdResult}): a batch of
 * {@code m x n} inputs, the check of a matrix index, and slices of the device arrays read back on the host.
 */
public abstract class BatchedResult {
    /** Rows and columns of each input, and how many inputs. */
    protected final int m, n, batch;

    protected BatchedResult(int m, int n, int batch) {
        this.m = m;
        this.n = n;
        this.batch = batch;
    }

    public int rows() {
        return m;
    }

    public int columns() {
        return n;
    }

    public int batch() {
        return batch;
    }

    /** Throws {@link IndexOutOfBoundsException} unless {@code e} is a matrix of the batch. */
    protected final void check(int e) {
        if (e < 0 || e >= batch) throw new IndexOutOfBoundsException("matrix " + e + " of a batch of " + batch);
    }

    /** Entries {@code [from, from + len)} of {@code a}, as doubles. */
    protected static double[] slice(KernelArray a, long from, int len) {
        double[] r = new double[len];
        for (int i = 0; i < len; i++) r[i] = Precision.get(a, from + i);
        return r;
    }
}
