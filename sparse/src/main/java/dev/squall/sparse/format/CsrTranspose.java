package dev.squall.sparse.format;

/**
 * The inspector of {@code A^T x}: builds the CSR of {@code A^T} (the CSC of A) once with a counting
 * sort of the columns, so that every SpMV executor computes {@code A^T x} with the coalescing and
 * no-atomics properties it has for {@code A x}.
 *
 * <pre>{@code
 * CsrMatrix at = CsrTranspose.of(a);   // cols x rows; rows of at are columns of a, in ascending order
 * }</pre>
 */
public final class CsrTranspose {
    private CsrTranspose() {
    }

    /** {@code A^T} in CSR; its rows' columns come out ascending because A's rows are visited in order. */
    public static CsrMatrix of(CsrMatrix a) {
        int rows = a.rows();
        int cols = a.cols();
        int nnz = a.nnz();
        int[] ptr = new int[cols + 1];
        for (int k = 0; k < nnz; k++) ptr[a.colIndex(k) + 1]++;
        for (int j = 0; j < cols; j++) ptr[j + 1] += ptr[j];
        int[] next = ptr.clone();
        int[] col = new int[nnz];
        double[] val = new double[nnz];
        for (int i = 0; i < rows; i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int t = next[a.colIndex(k)]++;
                col[t] = i;
                val[t] = a.value(k);
            }
        }
        return CsrMatrix.of(cols, rows, ptr, col, val);
    }
}
