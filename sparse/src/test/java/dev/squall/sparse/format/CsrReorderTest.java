package dev.squall.sparse.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.testing.SolverChecks;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CsrReorderTest {
    private static double[][] dense(CsrMatrix a) {
        double[][] d = new double[a.rows()][a.cols()];
        for (int i = 0; i < a.rows(); i++) {
            for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) d[i][a.colIndex(q)] += a.value(q);
        }
        return d;
    }

    @Test
    void trianglesOfThePermutedMatrixMatchTheDenseOnes() {
        for (CsrMatrix a : new CsrMatrix[] {Stencils.of(27, 5, 4, 3), SolverChecks.nonsymmetric(97, 3), Stencils.of(7, 1, 1, 1)}) {
            int n = a.rows();
            int[] order = new int[n];
            for (int i = 0; i < n; i++) order[i] = i;
            SplittableRandom rnd = new SplittableRandom(n);
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            double[][] d = dense(a);
            for (int[] o : new int[][] {null, order}) {
                for (int side = -1; side <= 1; side++) {
                    CsrMatrix b = side == 0 ? CsrReorder.permuted(a, o) : CsrReorder.triangle(a, o, side < 0);
                    double[][] got = dense(b);
                    for (int k = 0; k < n; k++) {
                        for (int q = b.rowStart(k) + 1; q < b.rowStart(k + 1); q++) assertTrue(b.colIndex(q - 1) < b.colIndex(q), "sorted row " + k);
                        for (int l = 0; l < n; l++) {
                            int i = o == null ? k : o[k], j = o == null ? l : o[l];
                            boolean keep = side < 0 ? l <= k : side > 0 ? l >= k : true;
                            assertEquals(keep ? d[i][j] : 0, got[k][l], "side " + side + " (" + k + ", " + l + ")");
                        }
                    }
                }
            }
        }
    }

    @Test
    void aNonPermutationIsRejectedNamingTheRow() {
        CsrMatrix a = Stencils.of(7, 3, 1, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsrReorder.triangle(a, new int[] {0, 0, 2}, true));
        assertTrue(e.getMessage().contains("row 0 at position 1"), e.getMessage());
        assertArrayEquals(new int[] {0, 1, 3, 5}, CsrReorder.triangle(a, null, true).rowPtr());
    }
}
