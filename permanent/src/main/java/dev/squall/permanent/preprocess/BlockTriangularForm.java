package dev.squall.permanent.preprocess;

import dev.squall.permanent.matrix.SquareMatrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fine block-triangular (Dulmage–Mendelsohn) structure of a square matrix: a perfect matching
 * of rows to columns (augmenting paths), then the strongly connected components (Tarjan) of the
 * graph row i → row i' whenever {@code a[i][match(i')] != 0}. Each component is an irreducible
 * diagonal block; after permuting to block-triangular form every permutation with a nonzero product
 * stays inside the diagonal blocks, so {@code perm(A) = prod perm(block)}. No perfect matching
 * means the matrix is structurally singular and {@code perm(A) = 0}.
 *
 * <pre>{@code
 * List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(a);   // null when singular
 * }</pre>
 */
public final class BlockTriangularForm {
    /** A diagonal block: these rows with these columns (in matching order). */
    public record Block(int[] rows, int[] cols) {
        public int size() {
            return rows.length;
        }

        public SquareMatrix of(SquareMatrix a) {
            int k = rows.length;
            double[] v = new double[k * k];
            for (int i = 0; i < k; i++) for (int j = 0; j < k; j++) v[i * k + j] = a.get(rows[i], cols[j]);
            return SquareMatrix.of(k, v);
        }
    }

    private BlockTriangularForm() {
    }

    /** The irreducible diagonal blocks, or {@code null} when the matrix is structurally singular. */
    public static List<Block> blocks(SquareMatrix a) {
        int n = a.n();
        int[][] adj = new int[n][];
        for (int i = 0; i < n; i++) {
            int c = 0;
            int[] tmp = new int[n];
            for (int j = 0; j < n; j++) if (a.get(i, j) != 0) tmp[c++] = j;
            adj[i] = Arrays.copyOf(tmp, c);
        }
        int[] rowOfCol = new int[n], colOfRow = new int[n];
        Arrays.fill(rowOfCol, -1);
        Arrays.fill(colOfRow, -1);
        // the diagonal first: where it is nonzero the blocks keep rows and columns paired as given, so a symmetric pattern
        // stays symmetric inside its blocks (the frontier program's bandwidth-reducing order works on A + A^T)
        for (int i = 0; i < n; i++) {
            if (a.get(i, i) != 0) {
                rowOfCol[i] = i;
                colOfRow[i] = i;
            }
        }
        for (int i = 0; i < n; i++) {
            if (colOfRow[i] < 0 && !augment(i, adj, rowOfCol, colOfRow, new boolean[n])) return null;
        }
        // row graph: i -> rowOfCol[j] for each nonzero (i, j)
        List<int[]> comps = new Tarjan(n, adj, rowOfCol).run();
        List<Block> out = new ArrayList<>();
        for (int[] rows : comps) {
            Arrays.sort(rows);
            int[] cols = new int[rows.length];
            for (int k = 0; k < rows.length; k++) cols[k] = colOfRow[rows[k]];
            out.add(new Block(rows, cols));
        }
        return out;
    }

    private static boolean augment(int i, int[][] adj, int[] rowOfCol, int[] colOfRow, boolean[] seen) {
        for (int j : adj[i]) {
            if (seen[j]) continue;
            seen[j] = true;
            if (rowOfCol[j] < 0 || augment(rowOfCol[j], adj, rowOfCol, colOfRow, seen)) {
                rowOfCol[j] = i;
                colOfRow[i] = j;
                return true;
            }
        }
        return false;
    }

    /** Tarjan's strongly connected components (recursive: n is small here). */
    private static final class Tarjan {
        private final int[][] adj;
        private final int[] rowOfCol, index, low;
        private final boolean[] onStack;
        private final int[] stack;
        private int sp, counter;
        private final List<int[]> comps = new ArrayList<>();

        Tarjan(int n, int[][] adj, int[] rowOfCol) {
            this.adj = adj;
            this.rowOfCol = rowOfCol;
            index = new int[n];
            low = new int[n];
            onStack = new boolean[n];
            stack = new int[n];
            Arrays.fill(index, -1);
        }

        List<int[]> run() {
            for (int v = 0; v < index.length; v++) if (index[v] < 0) visit(v);
            return comps;
        }

        private void visit(int v) {
            index[v] = low[v] = counter++;
            stack[sp++] = v;
            onStack[v] = true;
            for (int j : adj[v]) {
                int w = rowOfCol[j];
                if (index[w] < 0) {
                    visit(w);
                    low[v] = Math.min(low[v], low[w]);
                } else if (onStack[w]) {
                    low[v] = Math.min(low[v], index[w]);
                }
            }
            if (low[v] == index[v]) {
                List<Integer> c = new ArrayList<>();
                int w;
                do {
                    w = stack[--sp];
                    onStack[w] = false;
                    c.add(w);
                } while (w != v);
                comps.add(c.stream().mapToInt(Integer::intValue).toArray());
            }
        }
    }
}
