package dev.squall.permanent.codegen;

import dev.squall.permanent.matrix.SquareMatrix;

import java.util.ArrayList;
import java.util.List;

/**
 * Cached partial products for the generated kernels: a Gray-code step that changes column
 * {@code j} changes only rows whose first nonzero column {@code f(i)} is {@code <= j}, and column
 * {@code j} changes in a fraction {@code 2^-(j+1)} of the steps. Register rows are grouped into
 * levels by {@code f(i)} with power-of-two boundaries (level 0: {@code f = 0}; level 1:
 * {@code f = 1}; level 2: {@code f in [2, 3]}; level 3: {@code [4, 7]}; ...), and the kernel keeps
 * the suffix products {@code D_l = gp * prod(rows of levels >= l)} in registers ({@code gp}: the
 * global and constant rows). A step on column {@code j} recomputes only {@code D_l} for the levels
 * {@code l <= level(j)}, each from its rows and {@code D_(l+1)}; the others are unchanged. The
 * expected number of multiplies per step drops from {@code n - 1} to
 * {@code sum_j 2^-(j+1) * |rows of levels <= level(j)|} (e.g. about 9 instead of 39 at n = 40,
 * p = 0.1).
 *
 * <pre>{@code
 * ProductLevels lv = ProductLevels.of(ordered, HybridPartition.choose(ordered));
 * double mulsPerStep = lv.expectedMultipliesPerStep();
 * }</pre>
 */
public final class ProductLevels {
    private final int[] levelOfRow;      // -1 for global/constant rows
    private final int[] levelOfColumn;   // for register columns; levels() for cold columns (everything)
    private final List<int[]> rowsOfLevel;
    private final int n;
    private final int registerColumns;

    private ProductLevels(int n, int registerColumns, int[] levelOfRow, int[] levelOfColumn, List<int[]> rowsOfLevel) {
        this.n = n;
        this.registerColumns = registerColumns;
        this.levelOfRow = levelOfRow;
        this.levelOfColumn = levelOfColumn;
        this.rowsOfLevel = rowsOfLevel;
    }

    /** Level of a first-column index: 0, 1, 2-3, 4-7, ... ({@code floor(log2(f)) + 1}, 0 for f = 0). */
    static int levelOf(int firstColumn) {
        return firstColumn == 0 ? 0 : 32 - Integer.numberOfLeadingZeros(firstColumn);
    }

    public static ProductLevels of(SquareMatrix a, HybridPartition part) {
        int n = a.n();
        int[] kind = part.rowKind();
        int[] levelOfRow = new int[n];
        int maxLevel = -1;
        for (int i = 0; i < n; i++) {
            levelOfRow[i] = -1;
            if (kind[i] != HybridPartition.REGISTER) continue;
            int f = 0;
            while (a.get(i, f) == 0) f++; // a register row has a nonzero in some column < registerColumns
            levelOfRow[i] = levelOf(f);
            maxLevel = Math.max(maxLevel, levelOfRow[i]);
        }
        List<int[]> rows = new ArrayList<>();
        for (int l = 0; l <= maxLevel; l++) {
            List<Integer> r = new ArrayList<>();
            for (int i = 0; i < n; i++) if (levelOfRow[i] == l) r.add(i);
            rows.add(r.stream().mapToInt(Integer::intValue).toArray());
        }
        int[] levelOfColumn = new int[Math.max(0, n - 1)];
        for (int j = 0; j < n - 1; j++) levelOfColumn[j] = j < part.registerColumns() ? Math.min(levelOf(j), maxLevel) : maxLevel;
        return new ProductLevels(n, part.registerColumns(), levelOfRow, levelOfColumn, rows);
    }

    /** Number of levels (0 when no row is in registers). */
    public int levels() {
        return rowsOfLevel.size();
    }

    /** Register rows of level {@code l}, ascending. */
    public int[] rows(int l) {
        return rowsOfLevel.get(l).clone();
    }

    /** The highest level whose product a step on column {@code j} must recompute (-1: none). */
    public int levelOfColumn(int j) {
        return levelOfColumn[j];
    }

    /** Level of register row {@code i}; -1 for global and constant rows. */
    public int levelOfRow(int i) {
        return levelOfRow[i];
    }

    /** Whether a step on column {@code j} changes global rows (then {@code gp} is recomputed too). */
    public boolean isColdColumn(int j) {
        return j >= registerColumns;
    }

    /** Modelled multiplies per Gray-code step: levels recomputed, weighted by how often each column changes. */
    public double expectedMultipliesPerStep() {
        double e = 0;
        for (int j = 0; j < n - 1; j++) {
            int rowsRecomputed = 0;
            for (int l = 0; l <= levelOfColumn[j]; l++) rowsRecomputed += rowsOfLevel.get(l).length;
            e += Math.pow(2, -(j + 1)) * rowsRecomputed;
        }
        return e;
    }
}
