package dev.squall.permanent.preprocess;

import dev.squall.permanent.matrix.SquareMatrix;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Reorders columns by ascending number of nonzeros. The permanent is invariant under column
 * permutations, and Gray-code step g changes column ctz(g), so column 0 changes in half the steps:
 * putting the sparsest columns first minimises the updates of the sparse sweep, and leaves the
 * densest column last, where Nijenhuis–Wilf folds it into the start vector.
 *
 * <pre>{@code
 * SquareMatrix sorted = ColumnDegreeSort.apply(a);   // perm(sorted) == perm(a)
 * }</pre>
 */
public final class ColumnDegreeSort {
    private ColumnDegreeSort() {
    }

    public static SquareMatrix apply(SquareMatrix a) {
        int n = a.n();
        int[] degree = new int[n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (a.get(i, j) != 0) degree[j]++;
        Integer[] order = new Integer[n];
        for (int j = 0; j < n; j++) order[j] = j;
        Arrays.sort(order, Comparator.comparingInt((Integer j) -> degree[j]).thenComparingInt(j -> j));
        int[] rows = new int[n], cols = new int[n];
        for (int k = 0; k < n; k++) {
            rows[k] = k;
            cols[k] = order[k];
        }
        return a.permute(rows, cols);
    }
}
