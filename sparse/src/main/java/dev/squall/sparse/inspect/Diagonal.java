package dev.squall.sparse.inspect;

import dev.squall.sparse.format.CsrMatrix;

/**
 * Where each row's diagonal entry is stored, for sweeps and factorisations that divide by it.
 *
 * <pre>{@code
 * int[] at = Diagonal.positions(a);       // a.value(at[i]) is a_ii
 * }</pre>
 */
public final class Diagonal {
    private Diagonal() {
    }

    /**
     * The entry index of {@code a_ii} in each row.
     *
     * @throws IllegalArgumentException naming the first row whose diagonal is missing or zero
     */
    public static int[] positions(CsrMatrix a) {
        if (a.rows() != a.cols()) throw new IllegalArgumentException("a sweep needs a square matrix, got " + a.rows() + " x " + a.cols());
        int n = a.rows();
        int[] at = new int[n];
        for (int i = 0; i < n; i++) {
            int found = -1;
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                if (a.colIndex(k) == i) {
                    found = k;
                    break;
                }
            }
            if (found < 0) throw new IllegalArgumentException("row " + i + " has no diagonal entry (Gauss-Seidel, ILU(0) and Jacobi divide by it)");
            if (a.value(found) == 0) throw new IllegalArgumentException("row " + i + " has a zero diagonal entry (Gauss-Seidel, ILU(0) and Jacobi divide by it)");
            at[i] = found;
        }
        return at;
    }
}
