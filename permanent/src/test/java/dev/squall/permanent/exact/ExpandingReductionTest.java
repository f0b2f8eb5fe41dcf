package dev.squall.permanent.exact;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static dev.squall.permanent.testing.ExactPermanents.ryserBig;
import static org.junit.jupiter.api.Assertions.*;

/** The expansion tree's exact value against BigInteger Ryser on the whole matrix. */
class ExpandingReductionTest {
    /** Always expands where it can (cost 8^n per block: four minors of order n-1 cost half of it; no overhead). */
    private static ExpandingReduction eager() {
        return new ExpandingReduction(p -> Math.pow(8, p.n())).leafOverheadSeconds(0).minExpandSeconds(0);
    }

    private static BigInteger[][] integers(SquareMatrix a) {
        int n = a.n();
        BigInteger[][] b = new BigInteger[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) b[i][j] = BigInteger.valueOf((long) a.get(i, j));
        return b;
    }

    private static BigInteger leafRyser(BigInteger[][] b) {
        int n = b.length;
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = b[i][j].doubleValue();
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) assertEquals(b[i][j], BigInteger.valueOf((long) v[i * n + j]), "leaf entry fits a long");
        return ryserBig(SquareMatrix.of(n, v));
    }

    /** Sparse mixed-sign integer matrices: mostly 3..5 nonzeros per row, some with 1..2, a random perfect matching. */
    private static SquareMatrix sparseInteger(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) {
            v[i * n + (i * 7 + (int) seed) % n] = (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(9));
            int extra = r.nextInt(5) == 0 ? r.nextInt(2) : 2 + r.nextInt(3); // mostly 3..5 nonzeros, some rows with 1..2
            for (int k = 0; k < extra; k++) v[i * n + r.nextInt(n)] = (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(9));
        }
        return SquareMatrix.of(n, v);
    }

    @Test
    void expansionTreeEqualsRyserOnSparseMixedSignIntegerMatrices() {
        int expanded = 0;
        for (int n = 8; n <= 16; n += 2) {
            for (long seed = 1; seed <= 6; seed++) {
                SquareMatrix a = sparseInteger(n, seed);
                ExpandingReduction r = eager();
                ExpansionTree t = r.reduce(integers(a));
                assertEquals(ryserBig(a), t.evaluate(ExpandingReductionTest::leafRyser), "n=" + n + " seed=" + seed);
                for (ExpansionTree.Leaf l : t.leaves()) assertTrue(l.order() >= 3, "leaves have no line with fewer than 3 nonzeros");
                if (t.expansions() > 0) expanded++;
            }
        }
        assertTrue(expanded >= 10, "expansion was exercised on most matrices, got " + expanded);
    }

    @Test
    void withoutExpansionTheTreeIsAProductOfLeavesWithTheSameValue() {
        for (long seed = 1; seed <= 5; seed++) {
            SquareMatrix a = sparseInteger(14, seed);
            ExpansionTree t = eager().expand(false).reduce(integers(a));
            assertEquals(0, t.expansions());
            assertEquals(ryserBig(a), t.evaluate(ExpandingReductionTest::leafRyser), "seed " + seed);
        }
    }

    @Test
    void zeroOneMatricesCountMatchingsAndSingularOnesAreZero() {
        for (long seed = 1; seed <= 6; seed++) {
            SquareMatrix a = RandomSquareMatrices.erdosRenyi(16, 0.2, seed).pattern();
            ExpansionTree t = eager().reduce(integers(a));
            assertEquals(ryserBig(a), t.evaluate(ExpandingReductionTest::leafRyser), "ER 16 p=0.2 seed " + seed);
        }
        // two identical rows with two nonzeros over the same columns, the rest dense: perm 2 * perm(rest)... singular when three rows share two columns
        double[] v = new double[36];
        for (int i = 0; i < 3; i++) { v[i * 6] = 1; v[i * 6 + 1] = 1; }
        for (int i = 3; i < 6; i++) for (int j = 0; j < 6; j++) v[i * 6 + j] = 1;
        ExpansionTree t = eager().reduce(integers(SquareMatrix.of(6, v)));
        assertEquals(BigInteger.ZERO, t.evaluate(ExpandingReductionTest::leafRyser));
    }

    @Test
    void costDecidesWhetherToExpand() {
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(24, 0.16, 3).pattern();
        ExpansionTree never = new ExpandingReduction(p -> Math.scalb(1.0, p.n())).leafOverheadSeconds(1e12).minExpandSeconds(0).reduce(integers(a));
        assertEquals(0, never.expansions(), "a huge per-block overhead makes every expansion too expensive");
        ExpansionTree eager = eager().reduce(integers(a));
        assertEquals(never.evaluate(ExpandingReductionTest::leafRyser), eager.evaluate(ExpandingReductionTest::leafRyser));
    }
}
