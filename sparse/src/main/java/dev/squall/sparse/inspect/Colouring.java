package dev.squall.sparse.inspect;

/**
 * A multicolour ordering of a sweep: every row gets the smallest colour none of its earlier neighbours (in the
 * symmetrised {@link DependenceGraph}) has, in one pass in row order (greedy colouring; at most one more colour than
 * the largest number of neighbours, and 8 for a 27-point stencil). Rows of one colour share no entry, so a colour
 * runs in parallel; running the colours in order gives the sequential sweep over the rows in colour order.
 *
 * <pre>{@code
 * Schedule c = Colouring.greedy(DependenceGraph.of(a));
 * c.groups();                // colours
 * }</pre>
 */
public final class Colouring {
    private Colouring() {
    }

    /** Greedy colours in natural row order; rows ascend within a colour. */
    public static Schedule greedy(DependenceGraph g) {
        long t0 = System.nanoTime();
        int n = g.rows();
        int[] colour = new int[n];
        int[] ptr = g.lowerPtr();
        int[] adj = g.lower();
        int maxDeg = 0;
        for (int i = 0; i < n; i++) maxDeg = Math.max(maxDeg, ptr[i + 1] - ptr[i]);
        int[] seen = new int[maxDeg + 2];
        java.util.Arrays.fill(seen, -1);
        int colours = n == 0 ? 0 : 1;
        for (int i = 0; i < n; i++) {
            for (int q = ptr[i]; q < ptr[i + 1]; q++) seen[colour[adj[q]]] = i;
            int c = 0;
            while (seen[c] == i) c++;
            colour[i] = c;
            colours = Math.max(colours, c + 1);
        }
        return LevelSets.bucket(Schedule.Kind.COLOURS, colour, colours, false, t0);
    }
}
