package dev.squall.sparse.inspect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.testing.TestData;
import dev.squall.sparse.testing.TestMatrices;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LevelSetsTest {
    static Map<String, CsrMatrix> square() throws Exception {
        Map<String, CsrMatrix> m = new LinkedHashMap<>();
        m.put("27pt 9x7x5", Stencils.of(27, 9, 7, 5));
        m.put("7pt 6x5x4", Stencils.of(7, 6, 5, 4));
        m.put("1138_bus", MatrixMarketReader.read(TestData.file("1138_bus.mtx")));
        m.put("ani4", MatrixMarketReader.read(TestData.file("ani4.mtx")));
        m.put("random nonsymmetric", TestMatrices.randomSparse(new Random(11), 300, 300, 0.01, 0));
        return m;
    }

    /** No stored entry joins two rows of one group: rows of a level or colour are independent. */
    static void assertIndependent(CsrMatrix a, Schedule s, String name) {
        int[] grp = s.groupOf();
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int j = a.colIndex(k);
                if (j != i) assertTrue(grp[i] != grp[j], name + ": rows " + i + " and " + j + " share group " + grp[i]);
            }
        }
    }

    /**
     * {@code s} is a permutation of the rows in independent groups, and every stored entry {@code (i, j)} puts the row
     * that must run first in a lower group: the lower-numbered row for a forward sweep, the higher-numbered for a backward one.
     */
    static void assertLevelled(CsrMatrix a, Schedule s, String name, boolean forward) {
        assertPermutation(s, a.rows());
        assertIndependent(a, s, name);
        int[] grp = s.groupOf();
        for (int i = 0; i < a.rows(); i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) {
                int j = a.colIndex(k);
                int first = forward ? Math.min(i, j) : Math.max(i, j);
                int last = forward ? Math.max(i, j) : Math.min(i, j);
                if (j != i) assertTrue(grp[first] < grp[last], name + ": entry (" + i + "," + j + ") not ordered by level");
            }
        }
    }

    static void assertPermutation(Schedule s, int n) {
        boolean[] seen = new boolean[n];
        for (int r : s.order()) {
            assertTrue(!seen[r], "row " + r + " twice");
            seen[r] = true;
        }
        assertEquals(n, s.order().length);
        assertEquals(0, s.groupPtr()[0]);
        assertEquals(n, s.groupPtr()[s.groups()]);
    }

    @Test
    void forwardLevelsRespectEveryDependenceAndAreMinimal() throws Exception {
        for (var e : square().entrySet()) {
            CsrMatrix a = e.getValue();
            Schedule s = LevelSets.forward(DependenceGraph.of(a));
            assertLevelled(a, s, e.getKey(), true);
            int[] grp = s.groupOf();
            for (int i = 0; i < a.rows(); i++) {
                // minimal: a row above level 0 has a dependence on the level just below
                if (grp[i] > 0) {
                    boolean tight = false;
                    for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) if (a.colIndex(k) < i && grp[a.colIndex(k)] == grp[i] - 1) tight = true;
                    for (int r = 0; r < i && !tight; r++) {
                        for (int k = a.rowStart(r); k < a.rowStart(r + 1); k++) if (a.colIndex(k) == i && grp[r] == grp[i] - 1) tight = true;
                    }
                    assertTrue(tight, e.getKey() + ": row " + i + " could sit in a lower level");
                }
            }
        }
    }

    @Test
    void backwardLevelsRunLaterRowsFirst() throws Exception {
        for (var e : square().entrySet()) {
            CsrMatrix a = e.getValue();
            Schedule s = LevelSets.backward(DependenceGraph.of(a));
            assertLevelled(a, s, e.getKey(), false);
        }
    }

    @Test
    void levelsOfTheTwentySevenPointStencilAreXPlusTwoYPlusFourZ() {
        int nx = 9, ny = 7, nz = 5;
        Schedule s = LevelSets.forward(DependenceGraph.of(Stencils.of(27, nx, ny, nz)));
        int[] grp = s.groupOf();
        for (int z = 0; z < nz; z++) for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) {
            assertEquals(x + 2 * y + 4 * z, grp[(z * ny + y) * nx + x], "level of " + x + "," + y + "," + z);
        }
        assertEquals((nx - 1) + 2 * (ny - 1) + 4 * (nz - 1) + 1, s.groups());
        // rows ascend within a level
        for (int g = 0; g < s.groups(); g++) for (int k = s.groupPtr()[g] + 1; k < s.groupPtr()[g + 1]; k++) assertTrue(s.order()[k - 1] < s.order()[k]);
    }

    @Test
    void tridiagonalMatrixIsOneRowPerLevel() {
        Schedule s = LevelSets.forward(DependenceGraph.of(Stencils.of(3, 50)));
        assertEquals(50, s.groups());
        assertArrayEquals(dev.squall.sparse.reference.ReferenceSolvers.natural(50), s.order());
        Schedule b = LevelSets.backward(DependenceGraph.of(Stencils.of(3, 50)));
        assertArrayEquals(dev.squall.sparse.reference.ReferenceSolvers.reversed(50), b.order());
    }
}
