package dev.squall.sparse.inspect;

/**
 * Level sets (wavefronts) of a sweep, from a {@link DependenceGraph}: in the forward sweep a row's level is one more
 * than the highest level of the rows before it that it depends on, computed in one pass in row order; rows are then
 * counting-sorted by level (stable, so rows keep their natural order within a level). The backward sweep's levels
 * come the same way from the last row down. Rows of one level do not depend on each other, so they run in parallel,
 * and running the levels in order gives exactly the sequential sweep in natural (or reversed natural) order.
 *
 * <pre>{@code
 * DependenceGraph g = DependenceGraph.of(a);
 * Schedule fwd = LevelSets.forward(g), bwd = LevelSets.backward(g);
 * }</pre>
 */
public final class LevelSets {
    private LevelSets() {
    }

    /** Levels of the forward sweep (rows 0, 1, ... in sequence). */
    public static Schedule forward(DependenceGraph g) {
        long t0 = System.nanoTime();
        int n = g.rows();
        int[] level = new int[n];
        int[] ptr = g.lowerPtr();
        int[] adj = g.lower();
        int levels = 0;
        for (int i = 0; i < n; i++) {
            int l = 0;
            for (int q = ptr[i]; q < ptr[i + 1]; q++) l = Math.max(l, level[adj[q]] + 1);
            level[i] = l;
            levels = Math.max(levels, l + 1);
        }
        return bucket(Schedule.Kind.FORWARD_LEVELS, level, levels, false, t0);
    }

    /** Levels of the backward sweep (rows n-1, n-2, ... in sequence); group 0 runs first. */
    public static Schedule backward(DependenceGraph g) {
        long t0 = System.nanoTime();
        int n = g.rows();
        int[] level = new int[n];
        int[] ptr = g.upperPtr();
        int[] adj = g.upper();
        int levels = 0;
        for (int i = n - 1; i >= 0; i--) {
            int l = 0;
            for (int q = ptr[i]; q < ptr[i + 1]; q++) l = Math.max(l, level[adj[q]] + 1);
            level[i] = l;
            levels = Math.max(levels, l + 1);
        }
        return bucket(Schedule.Kind.BACKWARD_LEVELS, level, levels, true, t0);
    }

    /** Counting sort of rows by group; within a group rows ascend, or descend with {@code descending}. */
    static Schedule bucket(Schedule.Kind kind, int[] group, int groups, boolean descending, long t0) {
        int n = group.length;
        int[] ptr = new int[groups + 1];
        for (int v : group) ptr[v + 1]++;
        for (int l = 0; l < groups; l++) ptr[l + 1] += ptr[l];
        int[] fill = java.util.Arrays.copyOf(ptr, groups);
        int[] order = new int[n];
        if (descending) {
            for (int i = n - 1; i >= 0; i--) order[fill[group[i]]++] = i;
        } else {
            for (int i = 0; i < n; i++) order[fill[group[i]]++] = i;
        }
        return new Schedule(kind, order, ptr, (System.nanoTime() - t0) / 1e6);
    }
}
