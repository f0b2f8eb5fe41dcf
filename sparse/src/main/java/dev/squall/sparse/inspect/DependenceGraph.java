package dev.squall.sparse.inspect;

import dev.squall.sparse.format.CsrMatrix;

/**
 * The dependences of a sweep over a square matrix's rows, from its sparsity pattern: rows {@code i} and {@code j}
 * depend on each other when {@code a_ij} or {@code a_ji} is stored ({@code i != j}). The pattern is symmetrised
 * because a Gauss-Seidel row reads both the new values of its earlier neighbours (flow) and the old values of its
 * later ones (anti-dependence), so the later row must wait either way; with a symmetric pattern this is the plain
 * lower/upper pattern. For each row the graph keeps its earlier neighbours ({@link #lowerPtr}/{@link #lower}) and its
 * later ones ({@link #upperPtr}/{@link #upper}), each once.
 *
 * <pre>{@code
 * DependenceGraph g = DependenceGraph.of(a);
 * for (int q = g.lowerPtr()[i]; q < g.lowerPtr()[i + 1]; q++) ... g.lower()[q] ...   // rows i waits for
 * }</pre>
 */
public record DependenceGraph(int rows, int[] lowerPtr, int[] lower, int[] upperPtr, int[] upper) {

    /**
     * The graph of {@code a}: one pass counting, one filling, one removing duplicates (a pair stored on both sides).
     *
     * @throws IllegalArgumentException if {@code a} is not square
     */
    public static DependenceGraph of(CsrMatrix a) {
        if (a.rows() != a.cols()) {
            throw new IllegalArgumentException("a sweep needs a square matrix, got " + a.rows() + " x " + a.cols());
        }
        int n = a.rows();
        int[] rowPtr = a.rowPtr();
        int[] col = a.colIdx();
        int[] lc = new int[n + 1];
        int[] uc = new int[n + 1];
        for (int i = 0; i < n; i++) {
            for (int k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
                int j = col[k];
                if (j == i) continue;
                int lo = Math.min(i, j);
                int hi = Math.max(i, j);
                lc[hi + 1]++;
                uc[lo + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            lc[i + 1] += lc[i];
            uc[i + 1] += uc[i];
        }
        int[] lower = new int[lc[n]];
        int[] upper = new int[uc[n]];
        int[] lf = java.util.Arrays.copyOf(lc, n);
        int[] uf = java.util.Arrays.copyOf(uc, n);
        for (int i = 0; i < n; i++) {
            for (int k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
                int j = col[k];
                if (j == i) continue;
                int lo = Math.min(i, j);
                int hi = Math.max(i, j);
                lower[lf[hi]++] = lo;
                upper[uf[lo]++] = hi;
            }
        }
        int[] stamp = new int[n];
        java.util.Arrays.fill(stamp, -1);
        int[][] l = dedupe(n, lc, lower, stamp);
        java.util.Arrays.fill(stamp, -1);
        int[][] u = dedupe(n, uc, upper, stamp);
        return new DependenceGraph(n, l[0], l[1], u[0], u[1]);
    }

    private static int[][] dedupe(int n, int[] ptr, int[] adj, int[] stamp) {
        int[] np = new int[n + 1];
        int w = 0;
        for (int i = 0; i < n; i++) {
            for (int q = ptr[i]; q < ptr[i + 1]; q++) {
                int j = adj[q];
                if (stamp[j] == i) continue;
                stamp[j] = i;
                adj[w++] = j;
            }
            np[i + 1] = w;
        }
        return new int[][] {np, java.util.Arrays.copyOf(adj, w)};
    }

    /** Dependence edges (pairs of rows), each counted once. */
    public int edges() {
        return lower.length;
    }

    /** Rows that {@code i} depends on and that come before it, in no particular order. */
    public int lowerCount(int i) {
        return lowerPtr[i + 1] - lowerPtr[i];
    }
}
