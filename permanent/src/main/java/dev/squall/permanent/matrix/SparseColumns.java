package dev.squall.permanent.matrix;

/**
 * Compressed sparse columns (CSC) of a square matrix: the nonzeros of column {@code j} are
 * {@code rows[k], values[k]} for {@code k} in {@code [start[j], start[j+1])}. The Gray-code
 * sweep adds or removes one column per step, so it reads columns.
 *
 * <pre>{@code
 * SparseColumns c = SparseColumns.of(SquareMatrix.of(2, new double[] {1, 0, 3, 4}));
 * int nnzColumn0 = c.degree(0); // 2
 * }</pre>
 */
public record SparseColumns(int n, int[] start, int[] rows, double[] values) {
    public static SparseColumns of(SquareMatrix a) {
        int n = a.n();
        int[] start = new int[n + 1];
        int nnz = a.nonzeros();
        int[] rows = new int[nnz];
        double[] vals = new double[nnz];
        int k = 0;
        for (int j = 0; j < n; j++) {
            start[j] = k;
            for (int i = 0; i < n; i++) {
                double v = a.get(i, j);
                if (v != 0) {
                    rows[k] = i;
                    vals[k++] = v;
                }
            }
        }
        start[n] = k;
        return new SparseColumns(n, start, rows, vals);
    }

    /** Number of nonzeros in column {@code j}. */
    public int degree(int j) {
        return start[j + 1] - start[j];
    }
}
