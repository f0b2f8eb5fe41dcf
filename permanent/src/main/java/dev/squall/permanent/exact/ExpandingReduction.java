package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.preprocess.BlockTriangularForm;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Exact preprocessing of an integer matrix into an {@link ExpansionTree}, stronger than elimination alone:
 * <ol>
 * <li>block-triangular (Dulmage–Mendelsohn) split, {@code perm(A) = prod perm(diagonal blocks)};</li>
 * <li>elimination of one row or column with one or two nonzeros (the two-nonzero case merges two columns into
 * {@code a[i][k] A[:,j] + a[i][j] A[:,k]}, an integer column), then the split again — after <em>every</em>
 * elimination, since removing one line can make the block reducible;</li>
 * <li>on an irreducible block with no such line: Laplace expansion {@code perm(A) = sum_j a[i][j] perm(A_ij)} along
 * the row or column with 3..{@link #MAX_EXPANDED_DEGREE} nonzeros whose minors, after their own elimination and split,
 * have the lowest estimated total cost — taken only when that cost is below the block's own (the minors often shed
 * several more lines each and fall apart, as on sparse random matrices).</li>
 * </ol>
 * All of it is integer arithmetic: no rounding. The cost of a block is given by the caller (seconds of the sweep it
 * would get: Gray-code Ryser or the frontier program on the chosen device), plus {@link #leafOverheadSeconds} per block.
 *
 * <pre>{@code
 * ExpandingReduction r = new ExpandingReduction(pattern -> Math.scalb(1.0, pattern.n()) * 1e-9);
 * ExpansionTree t = r.reduce(IntegerScaling.ofBinary(a).rows());
 * System.out.println(r.eliminated() + " eliminated, " + t.expansions() + " expansions, " + t.leaves().size() + " blocks");
 * }</pre>
 */
public final class ExpandingReduction {
    /** Rows and columns with up to this many nonzeros are candidates for expansion (as in SUPerman). */
    public static final int MAX_EXPANDED_DEGREE = 4;
    /** Expansion is taken when the minors cost less than this fraction of the block. */
    static final double GAIN = 0.8;

    private final ToDoubleFunction<SquareMatrix> leafSeconds;
    private double leafOverheadSeconds = 2e-4;
    private double minExpandSeconds = 2e-3;
    private boolean expand = true;
    private java.util.function.Predicate<SquareMatrix> worthSearching = p -> true;
    private int eliminated;

    /** Candidate lines tried per block, lowest degree first (each costs a look-ahead of its minors). */
    static final int MAX_CANDIDATES = 24;

    /**
     * Which blocks (0/1 pattern) the expansion search runs on: the solver skips blocks the frontier program takes, whose
     * cost follows the frontier width, which one expansion lowers by at most one while multiplying the blocks.
     */
    public ExpandingReduction searchOnly(java.util.function.Predicate<SquareMatrix> p) {
        this.worthSearching = p;
        return this;
    }

    /** @param leafSeconds estimated seconds of the sweep of an irreducible block, given its 0/1 pattern */
    public ExpandingReduction(ToDoubleFunction<SquareMatrix> leafSeconds) {
        this.leafSeconds = leafSeconds;
    }

    /** Off: split and eliminate only (the form of {@link ExactReduction}). */
    public ExpandingReduction expand(boolean on) {
        this.expand = on;
        return this;
    }

    /** Fixed cost per block (setup, error estimate, launch) that keeps expansion from shattering a block needlessly. */
    public ExpandingReduction leafOverheadSeconds(double s) {
        this.leafOverheadSeconds = s;
        return this;
    }

    /** Blocks estimated below this are never expanded (their sweep is cheaper than the search). */
    public ExpandingReduction minExpandSeconds(double s) {
        this.minExpandSeconds = s;
        return this;
    }

    /** Rows and columns removed by elimination in the last {@link #reduce} (summed over all expansion terms). */
    public int eliminated() {
        return eliminated;
    }

    public ExpansionTree reduce(BigInteger[][] a) {
        eliminated = 0;
        return split(a);
    }

    /** The block-triangular split, each diagonal block reduced on its own; products flattened. */
    private ExpansionTree split(BigInteger[][] a) {
        if (a.length == 0) return new ExpansionTree.Product(BigInteger.ONE, List.of());
        List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(ExactReduction.pattern(a));
        if (blocks == null) return ExpansionTree.ZERO;
        BigInteger f = BigInteger.ONE;
        List<ExpansionTree> kids = new ArrayList<>();
        for (BlockTriangularForm.Block b : blocks) {
            int k = b.size();
            BigInteger[][] m = new BigInteger[k][k];
            for (int i = 0; i < k; i++) for (int j = 0; j < k; j++) m[i][j] = a[b.rows()[i]][b.cols()[j]];
            ExpansionTree t = irreducible(m);
            if (t instanceof ExpansionTree.Product p) {
                f = f.multiply(p.factor());
                kids.addAll(p.factors());
            } else {
                kids.add(t);
            }
            if (f.signum() == 0) return ExpansionTree.ZERO;
        }
        return new ExpansionTree.Product(f, List.copyOf(kids));
    }

    /** An irreducible block: one elimination then the split again, else expansion, else a leaf. */
    private ExpansionTree irreducible(BigInteger[][] m) {
        int n = m.length;
        if (n == 1) return new ExpansionTree.Product(m[0][0], List.of());
        for (int pass = 0; pass < 2; pass++) {
            BigInteger[][] t = pass == 0 ? m : ExactReduction.transpose(m);
            for (int i = 0; i < n; i++) {
                int nz = 0, j1 = -1, j2 = -1;
                for (int j = 0; j < n && nz <= 2; j++) {
                    if (t[i][j].signum() != 0) {
                        if (nz == 0) j1 = j; else j2 = j;
                        nz++;
                    }
                }
                if (nz == 0) return ExpansionTree.ZERO;
                if (nz > 2) continue;
                eliminated++;
                if (nz == 1) {
                    ExpansionTree rest = split(ExactReduction.drop(t, i, j1, -1, null));
                    return times(t[i][j1], rest);
                }
                BigInteger[] merged = new BigInteger[n];
                for (int r = 0; r < n; r++) merged[r] = t[i][j2].multiply(t[r][j1]).add(t[i][j1].multiply(t[r][j2]));
                return split(ExactReduction.drop(t, i, j1, j2, merged));
            }
        }
        if (expand) {
            Line best = bestExpansion(m);
            if (best != null) {
                BigInteger[][] t = best.column ? ExactReduction.transpose(m) : m;
                List<ExpansionTree> terms = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    if (t[best.index][j].signum() == 0) continue;
                    ExpansionTree minor = times(t[best.index][j], split(ExactReduction.drop(t, best.index, j, -1, null)));
                    if (!isZero(minor)) terms.add(minor);
                }
                if (terms.isEmpty()) return ExpansionTree.ZERO;
                String along = (best.column ? "column " : "row ") + best.index + " of a " + n + "x" + n + " block (" + best.degree + " nonzeros)";
                return terms.size() == 1 ? terms.get(0) : new ExpansionTree.Sum(along, List.copyOf(terms));
            }
        }
        return new ExpansionTree.Leaf(m);
    }

    private static boolean isZero(ExpansionTree t) {
        return t instanceof ExpansionTree.Product p && p.factor().signum() == 0;
    }

    private static ExpansionTree times(BigInteger f, ExpansionTree t) {
        if (t instanceof ExpansionTree.Product p) {
            BigInteger g = f.multiply(p.factor());
            return g.signum() == 0 ? ExpansionTree.ZERO : new ExpansionTree.Product(g, p.factors());
        }
        return new ExpansionTree.Product(f, List.of(t));
    }

    private record Line(boolean column, int index, int degree, double cost) {
    }

    /** The row or column whose expansion has the lowest estimated cost, if below GAIN times the block's own. */
    private Line bestExpansion(BigInteger[][] m) {
        int n = m.length;
        boolean[][] p = new boolean[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) p[i][j] = m[i][j].signum() != 0;
        double own = leafCost(p);
        if (own < minExpandSeconds || !worthSearching.test(toMatrix(p))) return null;
        // candidates: rows and columns of degree 3..4, fewest nonzeros first, then those whose nonzeros sit in the sparsest
        // crossing lines (their minors shed the most by elimination)
        int[] rowDeg = new int[n], colDeg = new int[n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (p[i][j]) { rowDeg[i]++; colDeg[j]++; }
        List<long[]> candidates = new ArrayList<>(); // {score, pass, index, degree}
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < n; i++) {
                int deg = pass == 0 ? rowDeg[i] : colDeg[i];
                if (deg < 3 || deg > MAX_EXPANDED_DEGREE) continue;
                long crossing = 0;
                for (int j = 0; j < n; j++) if (pass == 0 ? p[i][j] : p[j][i]) crossing += pass == 0 ? colDeg[j] : rowDeg[j];
                candidates.add(new long[] {deg * 1000L + crossing, pass, i, deg});
            }
        }
        candidates.sort(java.util.Comparator.comparingLong(c -> c[0]));
        boolean[][] pt = transpose(p);
        Line best = null;
        for (long[] c : candidates.subList(0, Math.min(MAX_CANDIDATES, candidates.size()))) {
            int pass = (int) c[1], i = (int) c[2], deg = (int) c[3];
            boolean[][] t = pass == 0 ? p : pt;
            double cost = 0;
            for (int j = 0; j < n && (best == null || cost < best.cost); j++) {
                if (t[i][j]) cost += structuralCost(drop(t, i, j));
            }
            if (cost < GAIN * own && (best == null || cost < best.cost)) best = new Line(pass == 1, i, deg, cost);
        }
        return best;
    }

    /** Estimated cost of a pattern after elimination and splitting (no expansion): a cheap look-ahead. */
    private double structuralCost(boolean[][] p) {
        int n = p.length;
        if (n == 0) return 0;
        boolean changed = true;
        while (changed && p.length > 1) {
            changed = false;
            n = p.length;
            for (int pass = 0; pass < 2 && !changed; pass++) {
                boolean[][] t = pass == 0 ? p : transpose(p);
                for (int i = 0; i < n && !changed; i++) {
                    int nz = 0, j1 = -1, j2 = -1;
                    for (int j = 0; j < n && nz <= 2; j++) {
                        if (t[i][j]) {
                            if (nz == 0) j1 = j; else j2 = j;
                            nz++;
                        }
                    }
                    if (nz == 0) return 0; // singular minor: no term
                    if (nz > 2) continue;
                    if (nz == 1) {
                        p = drop(t, i, j1);
                    } else {
                        boolean[][] d = drop(t, i, j2);
                        int jj = j1; // merged column: the union of the two patterns
                        for (int r = 0, rr = 0; r < n; r++) {
                            if (r == i) continue;
                            d[rr][jj] |= t[r][j2];
                            rr++;
                        }
                        p = d;
                    }
                    changed = true;
                }
            }
        }
        n = p.length;
        if (n <= 1) return 0;
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = p[i][j] ? 1 : 0;
        SquareMatrix s = SquareMatrix.of(n, v);
        List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(s);
        if (blocks == null) return 0;
        if (blocks.size() == 1) return leafCost(p);
        double cost = 0;
        for (BlockTriangularForm.Block b : blocks) {
            int k = b.size();
            boolean[][] q = new boolean[k][k];
            for (int i = 0; i < k; i++) for (int j = 0; j < k; j++) q[i][j] = p[b.rows()[i]][b.cols()[j]];
            cost += structuralCost(q);
        }
        return cost;
    }

    private double leafCost(boolean[][] p) {
        if (p.length <= 1) return 0;
        return leafSeconds.applyAsDouble(toMatrix(p)) + leafOverheadSeconds;
    }

    private static SquareMatrix toMatrix(boolean[][] p) {
        int n = p.length;
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = p[i][j] ? 1 : 0;
        return SquareMatrix.of(n, v);
    }

    private static boolean[][] drop(boolean[][] m, int i, int j) {
        int n = m.length;
        boolean[][] out = new boolean[n - 1][n - 1];
        for (int r = 0, rr = 0; r < n; r++) {
            if (r == i) continue;
            for (int c = 0, cc = 0; c < n; c++) if (c != j) out[rr][cc++] = m[r][c];
            rr++;
        }
        return out;
    }

    private static boolean[][] transpose(boolean[][] m) {
        int n = m.length;
        boolean[][] t = new boolean[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) t[j][i] = m[i][j];
        return t;
    }
}
