package dev.squall.sparse.spmv;

import dev.squall.sparse.format.CsrMatrix;

/**
 * The work and traffic of one SpMV counted from the matrix alone, the same for every format and
 * for peers, so GB/s figures compare: values and column indices once, row pointers once, x once,
 * y written once (beta = 0). Formats that read padding or extra indices move more than this.
 */
public final class SpmvCounts {
    private SpmvCounts() {
    }

    /** Counted bytes: nnz (v + 4) + (rows + 1) 4 + cols v + rows v, with v the value size. */
    public static long bytes(CsrMatrix a, int valueBytes) {
        return (long) a.nnz() * (valueBytes + 4) + 4L * (a.rows() + 1) + (long) valueBytes * (a.cols() + a.rows());
    }

    /** Flops: a multiply and an add per entry. */
    public static long flops(CsrMatrix a) {
        return 2L * a.nnz();
    }
}
