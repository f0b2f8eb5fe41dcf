package dev.squall.sparse.format;

import java.util.stream.IntStream;

/**
 * A square matrix symmetrically permuted ({@code B = P A P^T}: row and column {@code k} of B are row and column
 * {@code order[k]} of A) and cut to its lower or upper triangle, diagonal included, in one pass: the matrices of
 * triangular solves in natural or multicolour order. Columns stay sorted in each row.
 *
 * <pre>{@code
 * CsrMatrix l = CsrReorder.triangle(a, null, true);                                          // tril(A)
 * CsrMatrix lc = CsrReorder.triangle(a, Colouring.greedy(DependenceGraph.of(a)).order(), true); // tril(P A P^T)
 * }</pre>
 */
public final class CsrReorder {
    private CsrReorder() {
    }

    /** {@code P A P^T} whole ({@code order} as in {@link #triangle}). */
    public static CsrMatrix permuted(CsrMatrix a, int[] order) {
        return cut(a, order, 0);
    }

    /**
     * The lower ({@code lower}) or upper triangle of {@code P A P^T}; {@code order} null keeps A's order.
     *
     * @throws IllegalArgumentException if A is not square or {@code order} is not a permutation of its rows
     */
    public static CsrMatrix triangle(CsrMatrix a, int[] order, boolean lower) {
        return cut(a, order, lower ? -1 : 1);
    }

    /** Entries of P A P^T on and below (side -1), on and above (1) or on both sides of (0) the diagonal. */
    private static CsrMatrix cut(CsrMatrix a, int[] order, int side) {
        int n = a.rows();
        if (n != a.cols()) throw new IllegalArgumentException("a triangle needs a square matrix, got " + a.rows() + " x " + a.cols());
        int[] inv = new int[n];
        if (order == null) {
            for (int i = 0; i < n; i++) inv[i] = i;
        } else {
            if (order.length != n) throw new IllegalArgumentException("order has " + order.length + " entries, the matrix " + n + " rows");
            java.util.Arrays.fill(inv, -1);
            for (int k = 0; k < n; k++) {
                int i = order[k];
                if (i < 0 || i >= n || inv[i] >= 0) throw new IllegalArgumentException("order is not a permutation: row " + i + " at position " + k);
                inv[i] = k;
            }
        }
        int[] ptr = new int[n + 1];
        IntStream.range(0, n).parallel().forEach(k -> {
            int i = order == null ? k : order[k];
            int c = 0;
            for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
                int j = inv[a.colIndex(q)];
                if (side < 0 ? j <= k : side > 0 ? j >= k : true) c++;
            }
            ptr[k + 1] = c;
        });
        for (int k = 0; k < n; k++) ptr[k + 1] += ptr[k];
        int[] col = new int[ptr[n]];
        double[] val = new double[ptr[n]];
        IntStream.range(0, n).parallel().forEach(k -> {
            int i = order == null ? k : order[k];
            int at = ptr[k];
            for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) {
                int j = inv[a.colIndex(q)];
                if (side < 0 ? j > k : side > 0 && j < k) continue;
                // insertion into the row's sorted run: rows are short
                int t = at++;
                double v = a.value(q);
                while (t > ptr[k] && col[t - 1] > j) {
                    col[t] = col[t - 1];
                    val[t] = val[t - 1];
                    t--;
                }
                col[t] = j;
                val[t] = v;
            }
        });
        return CsrMatrix.of(n, n, ptr, col, val);
    }
}
