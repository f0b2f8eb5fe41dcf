package dev.squall.permanent.frontier;

import dev.squall.permanent.matrix.SquareMatrix;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The row order and column slots of the frontier program ({@link FrontierPermanent}). Rows are
 * taken in a bandwidth-reducing order — reverse Cuthill–McKee on the symmetrised pattern
 * {@code A + A^T} (rows and columns of a block share an index: the block-triangular split puts a
 * matching on the diagonal), the Cuthill–McKee order itself, or the natural order, whichever gives
 * the cheapest program, on the matrix or its transpose (same permanent). A column is <em>open</em>
 * from the first row in the order that has a nonzero in it to the last; the program's states are
 * the subsets of open columns already matched, so its cost is about {@code sum_i C(open_i, used_i) deg_i}
 * and at most {@code n 2^w deg} for the frontier width {@code w = max open_i}.
 *
 * <pre>{@code
 * FrontierPlan plan = FrontierPlan.of(a);
 * System.out.println(plan.width() + " open columns at most, ~" + plan.cost() + " state updates");
 * }</pre>
 *
 * @param matrix     the matrix the program runs on (the input or its transpose, rows in program order)
 * @param transposed whether {@code matrix} is built from the transpose
 * @param rowOrder   row {@code k} of {@code matrix} is row {@code rowOrder[k]} of the (transposed) input
 * @param order      a description: "rcm", "cm" or "natural", with "transposed" where it applies
 * @param width  the largest number of simultaneously open columns
 * @param cost   the estimated number of state updates
 */
public record FrontierPlan(SquareMatrix matrix, boolean transposed, int[] rowOrder, String order, int width, double cost) {
    /** Widths above this are refused: the state masks are longs and the state tables would not fit memory anyway. */
    public static final int MAX_WIDTH = 40;

    public static FrontierPlan of(SquareMatrix a) {
        FrontierPlan best = null;
        for (boolean transposed : new boolean[] {false, true}) {
            SquareMatrix m = transposed ? transpose(a) : a;
            int[] cm = cuthillMcKee(m);
            int[] rcm = reverse(cm);
            int[] natural = new int[a.n()];
            for (int i = 0; i < natural.length; i++) natural[i] = i;
            String t = transposed ? ", transposed" : "";
            for (FrontierPlan p : List.of(plan(m, transposed, rcm, "rcm" + t), plan(m, transposed, cm, "cm" + t), plan(m, transposed, natural, "natural" + t))) {
                if (best == null || p.cost < best.cost) best = p;
            }
        }
        return best;
    }

    /** The plan that takes the rows of {@code a} in the given order (columns stay as they are). */
    static FrontierPlan plan(SquareMatrix a, boolean transposed, int[] rowOrder, String name) {
        int n = a.n();
        int[] cols = new int[n];
        for (int j = 0; j < n; j++) cols[j] = j;
        SquareMatrix m = a.permute(rowOrder, cols);
        ColumnSpans spans = ColumnSpans.of(m);
        int[] first = spans.first(), last = spans.last();
        int width = 0;
        double cost = 0;
        int closedBefore = 0;
        for (int i = 0; i < n; i++) {
            int open = 0, deg = 0;
            for (int j = 0; j < n; j++) {
                if (first[j] >= 0 && first[j] <= i && last[j] >= i) open++;
                if (m.get(i, j) != 0) deg++;
            }
            width = Math.max(width, open);
            int used = i - closedBefore; // open columns already matched before row i
            cost += binomial(open, Math.max(0, Math.min(used, open))) * Math.max(1, deg);
            for (int j = 0; j < n; j++) if (last[j] == i) closedBefore++;
        }
        return new FrontierPlan(m, transposed, rowOrder, name, width, cost);
    }

    /**
     * For each column {@code j} of {@code m}, the first and last rows holding a nonzero entry: the rows between them
     * are those during which the column is open. {@code first[j]} is -1 for an empty column.
     */
    record ColumnSpans(int[] first, int[] last) {
        static ColumnSpans of(SquareMatrix m) {
            int n = m.n();
            int[] first = new int[n], last = new int[n];
            Arrays.fill(first, -1);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (m.get(i, j) == 0) continue;
                    if (first[j] < 0) first[j] = i;
                    last[j] = i;
                }
            }
            return new ColumnSpans(first, last);
        }
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
        return r;
    }

    /** {@code a} (same shape as the planned input) transposed and its rows reordered as this plan does. */
    public <T> T[][] arrange(T[][] a, java.util.function.IntFunction<T[][]> newArray) {
        int n = a.length;
        T[][] out = newArray.apply(n);
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < n; j++) out[k][j] = transposed ? a[j][rowOrder[k]] : a[rowOrder[k]][j];
        }
        return out;
    }

    /** Cuthill–McKee on A + A^T: breadth-first from a minimum-degree vertex of each component, neighbours by ascending degree. */
    static int[] cuthillMcKee(SquareMatrix a) {
        int n = a.n();
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (a.get(i, j) != 0 || a.get(j, i) != 0) {
                    adj.get(i).add(j);
                    adj.get(j).add(i);
                }
            }
        }
        int[] order = new int[n];
        boolean[] seen = new boolean[n];
        int k = 0;
        while (k < n) {
            int startV = -1;
            for (int v = 0; v < n; v++) if (!seen[v] && (startV < 0 || adj.get(v).size() < adj.get(startV).size())) startV = v;
            ArrayDeque<Integer> q = new ArrayDeque<>();
            q.add(startV);
            seen[startV] = true;
            while (!q.isEmpty()) {
                int v = q.poll();
                order[k++] = v;
                List<Integer> nb = new ArrayList<>();
                for (int w : adj.get(v)) if (!seen[w]) nb.add(w);
                nb.sort((x, y) -> Integer.compare(adj.get(x).size(), adj.get(y).size()));
                for (int w : nb) {
                    seen[w] = true;
                    q.add(w);
                }
            }
        }
        return order;
    }

    private static int[] reverse(int[] o) {
        int[] r = new int[o.length];
        for (int i = 0; i < o.length; i++) r[i] = o[o.length - 1 - i];
        return r;
    }

    static SquareMatrix transpose(SquareMatrix a) {
        int n = a.n();
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[j * n + i] = a.get(i, j);
        return SquareMatrix.of(n, v);
    }
}
