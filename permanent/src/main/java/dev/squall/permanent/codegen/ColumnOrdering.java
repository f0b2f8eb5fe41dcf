package dev.squall.permanent.codegen;

import dev.squall.permanent.matrix.SquareMatrix;

/**
 * Greedy column ordering for the register/global hybrid (Elbek and Kaya, Algorithm 3): repeatedly
 * take the column with the fewest nonzeros in rows not yet covered (ties: fewer nonzeros overall,
 * then lower index) and cover its rows. The first columns — changed in most Gray-code steps —
 * then touch as few distinct rows as possible, so those rows fit in registers.
 *
 * <pre>{@code
 * int[] order = ColumnOrdering.greedy(a);
 * SquareMatrix ordered = ColumnOrdering.apply(a, order);   // same permanent
 * }</pre>
 */
public final class ColumnOrdering {
    private ColumnOrdering() {
    }

    public static int[] greedy(SquareMatrix a) {
        int n = a.n();
        boolean[] covered = new boolean[n], taken = new boolean[n];
        int[] degree = new int[n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (a.get(i, j) != 0) degree[j]++;
        int[] order = new int[n];
        for (int k = 0; k < n; k++) {
            int best = -1, bestNew = Integer.MAX_VALUE;
            for (int j = 0; j < n; j++) {
                if (taken[j]) continue;
                int fresh = 0;
                for (int i = 0; i < n; i++) if (!covered[i] && a.get(i, j) != 0) fresh++;
                if (fresh < bestNew || (fresh == bestNew && degree[j] < degree[best])) {
                    best = j;
                    bestNew = fresh;
                }
            }
            taken[best] = true;
            order[k] = best;
            for (int i = 0; i < n; i++) if (a.get(i, best) != 0) covered[i] = true;
        }
        return order;
    }

    /** The matrix with its columns in {@code order}. */
    public static SquareMatrix apply(SquareMatrix a, int[] order) {
        int[] rows = new int[a.n()];
        for (int i = 0; i < rows.length; i++) rows[i] = i;
        return a.permute(rows, order);
    }
}
