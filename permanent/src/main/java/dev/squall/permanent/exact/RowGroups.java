package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Groups the rows of a 0/1 matrix so that the product of each group's row sums fits an unsigned
 * 32-bit integer: a row sum never exceeds the row's number of ones d_i, so a group is closed while
 * {@code prod d_i <= 2^32 - 1}. The generated exact kernel multiplies within a group in 32-bit
 * (one IMAD each, exact) and only the group products in 64-bit wrapping arithmetic (several
 * instructions each), and keeps each group's product across steps: a step recomputes only the
 * groups that hold a row of its column. Rows are taken in order of their first nonzero column, so
 * the rows of the low columns (changed in most Gray-code steps) share few groups.
 *
 * <pre>{@code
 * RowGroups g = RowGroups.of(a);
 * for (int[] rows : g.groups()) ...            // row indices, product of degrees < 2^32
 * int[] touched = g.groupsOfColumn(a, 0);      // groups a step on column 0 recomputes
 * }</pre>
 */
public final class RowGroups {
    /** Largest value a group's product of row sums may reach: it is kept in an unsigned 32-bit integer. */
    public static final long MAX_GROUP_PRODUCT = 0xFFFF_FFFFL;

    private final List<int[]> groups;
    private final int[] groupOfRow;

    private RowGroups(List<int[]> groups, int n) {
        this.groups = groups;
        this.groupOfRow = new int[n];
        for (int g = 0; g < groups.size(); g++) for (int i : groups.get(g)) groupOfRow[i] = g;
    }

    public static RowGroups of(SquareMatrix a) {
        int n = a.n();
        int[] degree = new int[n];
        int[] first = new int[n];
        Arrays.fill(first, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (a.get(i, j) == 0) continue;
                degree[i]++;
                first[i] = Math.min(first[i], j);
            }
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (p, q) -> first[p] != first[q] ? Integer.compare(first[p], first[q]) : Integer.compare(p, q));
        List<int[]> groups = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        long bound = 1;
        for (int i : order) {
            long d = Math.max(1, degree[i]);
            if (!current.isEmpty() && bound * d > MAX_GROUP_PRODUCT) {
                groups.add(current.stream().mapToInt(Integer::intValue).toArray());
                current.clear();
                bound = 1;
            }
            current.add(i);
            bound *= d;
        }
        if (!current.isEmpty()) groups.add(current.stream().mapToInt(Integer::intValue).toArray());
        return new RowGroups(groups, n);
    }

    public List<int[]> groups() {
        return groups;
    }

    public int groupOf(int row) {
        return groupOfRow[row];
    }

    /** The groups holding a row with a one in column j, ascending. */
    public int[] groupsOfColumn(SquareMatrix a, int j) {
        boolean[] hit = new boolean[groups.size()];
        for (int i = 0; i < a.n(); i++) if (a.get(i, j) != 0) hit[groupOfRow[i]] = true;
        int[] out = new int[groups.size()];
        int c = 0;
        for (int g = 0; g < hit.length; g++) if (hit[g]) out[c++] = g;
        return Arrays.copyOf(out, c);
    }
}
