package dev.squall.permanent.preprocess;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.ScaledValue;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class ReductionTest {
    /** perm through the reduction, with brute force on what is left. */
    static double viaReduction(SquareMatrix a) {
        Reduction r = Reduction.of(a);
        ScaledValue v = r.factor();
        for (SquareMatrix b : r.blocks()) v = v.times(ScaledValue.of(bruteForce(b)));
        return v.toDouble();
    }

    /** A block-triangular matrix with random blocks, rows and columns shuffled. */
    static SquareMatrix hiddenBlocks(int[] sizes, double pOff, long seed) {
        Random r = new Random(seed);
        int n = java.util.Arrays.stream(sizes).sum();
        double[] v = new double[n * n];
        int off = 0;
        for (int s : sizes) {
            for (int i = 0; i < s; i++) for (int j = 0; j < s; j++) v[(off + i) * n + off + j] = 0.1 + r.nextDouble();
            for (int i = 0; i < s; i++) for (int j = off + s; j < n; j++) if (r.nextDouble() < pOff) v[(off + i) * n + j] = r.nextDouble();
            off += s;
        }
        int[] rows = shuffled(n, r), cols = shuffled(n, r);
        return SquareMatrix.of(n, v).permute(rows, cols);
    }

    static int[] shuffled(int n, Random r) {
        int[] p = java.util.stream.IntStream.range(0, n).toArray();
        for (int i = n - 1; i > 0; i--) {
            int k = r.nextInt(i + 1), t = p[i];
            p[i] = p[k];
            p[k] = t;
        }
        return p;
    }

    @Test
    void findsHiddenBlocksAndKeepsThePermanent() {
        SquareMatrix a = hiddenBlocks(new int[] {3, 4, 1, 3}, 0.5, 11);
        List<BlockTriangularForm.Block> blocks = BlockTriangularForm.blocks(a);
        assertNotNull(blocks);
        assertEquals(List.of(1, 3, 3, 4), blocks.stream().map(BlockTriangularForm.Block::size).sorted().toList());
        double want = bruteForce(a);
        double got = 1;
        for (BlockTriangularForm.Block b : blocks) got *= bruteForce(b.of(a));
        assertRelative(want, got, 1e-13, "product of block permanents");
        assertRelative(want, viaReduction(a), 1e-12, "reduction");
        assertEquals(List.of(1, 3, 3, 4), Reduction.of(a).btfBlockSizes().stream().sorted().toList());
    }

    @Test
    void structurallySingularGivesZero() {
        // rows 0 and 1 both only in column 0
        SquareMatrix a = SquareMatrix.of(3, new double[] {1, 0, 0, 2, 0, 0, 3, 4, 5});
        assertNull(BlockTriangularForm.blocks(a));
        Reduction r = Reduction.of(a);
        assertTrue(r.singular());
        assertEquals(0.0, r.factor().toDouble());
        assertEquals(0.0, bruteForce(a));
        assertEquals(0.0, viaReduction(randomWithEmptyColumn()));
    }

    static SquareMatrix randomWithEmptyColumn() {
        SquareMatrix a = random(7, 0.8, 0, 1, 3);
        double[] v = a.rowMajor();
        for (int i = 0; i < 7; i++) v[i * 7 + 4] = 0;
        return SquareMatrix.of(7, v);
    }

    @Test
    void eliminationOfLowDegreeRowsAndColumnsIsExactOnRandomSparseMatrices() {
        int checked = 0;
        for (int seed = 0; seed < 60; seed++) {
            SquareMatrix a = random(8, 0.3, -1, 1, seed);
            DegreeElimination.Result e = DegreeElimination.apply(a);
            double want = bruteForce(a);
            double got = e.factor() * (e.matrix().n() == 0 ? 1 : bruteForce(e.matrix()));
            assertEquals(want, got, 1e-12 * Math.max(1, Math.abs(want)), "seed " + seed);
            if (e.eliminated() > 0) checked++;
            assertEquals(want, viaReduction(a), 1e-12 * Math.max(1, Math.abs(want)), "reduction seed " + seed);
        }
        assertTrue(checked > 30, "most sparse matrices have low-degree rows");
    }

    @Test
    void tridiagonalAndDerangementsThroughReduction() {
        // tridiagonal reduces completely by elimination; J - I not at all
        Reduction t = Reduction.of(tridiagonalOnes(30));
        assertTrue(t.blocks().isEmpty());
        assertEquals(fibonacci(30), (long) t.factor().toDouble());
        Reduction d = Reduction.of(onesMinusIdentity(9));
        assertEquals(1, d.blocks().size());
        assertEquals(BigInteger.valueOf((long) bruteForce(onesMinusIdentity(9))), derangements(9));
    }
}
