package dev.squall.sparse.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.testing.TestData;
import org.junit.jupiter.api.Test;

class ColouringTest {
    @Test
    void coloursAreIndependentAndGreedyIsTight() throws Exception {
        for (var e : LevelSetsTest.square().entrySet()) {
            CsrMatrix a = e.getValue();
            DependenceGraph g = DependenceGraph.of(a);
            Schedule s = Colouring.greedy(g);
            LevelSetsTest.assertPermutation(s, a.rows());
            LevelSetsTest.assertIndependent(a, s, e.getKey());
            int maxDeg = 0;
            for (int i = 0; i < a.rows(); i++) maxDeg = Math.max(maxDeg, g.lowerCount(i) + g.upperPtr()[i + 1] - g.upperPtr()[i]);
            assertTrue(s.groups() <= maxDeg + 1, e.getKey() + ": " + s.groups() + " colours for degree " + maxDeg);
            // greedy: every row of colour c > 0 has an earlier neighbour of each colour below c
            int[] col = s.groupOf();
            for (int i = 0; i < a.rows(); i++) {
                boolean[] below = new boolean[col[i]];
                for (int q = g.lowerPtr()[i]; q < g.lowerPtr()[i + 1]; q++) if (col[g.lower()[q]] < col[i]) below[col[g.lower()[q]]] = true;
                for (boolean b : below) assertTrue(b, e.getKey() + ": row " + i + " could take a smaller colour");
            }
        }
    }

    @Test
    void twentySevenPointStencilTakesEightColours() {
        assertEquals(8, Colouring.greedy(DependenceGraph.of(Stencils.of(27, 10, 9, 8))).groups());
        assertEquals(2, Colouring.greedy(DependenceGraph.of(Stencils.of(7, 10, 9, 8))).groups());
    }

    @Test
    void chooserTakesLevelsWhenLevelsAreWideAndColoursOtherwise() {
        DependenceGraph g = DependenceGraph.of(Stencils.of(27, 9, 7, 5)); // 315 rows, 37 levels: 8.5 rows a level
        ScheduleChooser.Choice narrow = ScheduleChooser.choose(g, 64);
        assertEquals(Schedule.Kind.COLOURS, narrow.schedule().kind());
        assertTrue(narrow.reason().contains("37 levels"), narrow.reason());
        ScheduleChooser.Choice wide = ScheduleChooser.choose(g, 4);
        assertEquals(Schedule.Kind.FORWARD_LEVELS, wide.schedule().kind());
        assertTrue(wide.reason().startsWith("level sets"), wide.reason());
    }

    @Test
    void missingAndZeroDiagonalsNameTheRow() throws Exception {
        CsrMatrix myc = MatrixMarketReader.read(TestData.file("mycielskian6.mtx"));
        var e = assertThrows(IllegalArgumentException.class, () -> Diagonal.positions(myc));
        assertTrue(e.getMessage().startsWith("row 0 has no diagonal entry"), e.getMessage());
        CsrMatrix z = CsrMatrix.fromCoo(3, 3, new int[] {0, 1, 1, 2}, new int[] {0, 1, 0, 2}, new double[] {1, 0, 2, 3});
        var e2 = assertThrows(IllegalArgumentException.class, () -> Diagonal.positions(z));
        assertTrue(e2.getMessage().startsWith("row 1 has a zero diagonal entry"), e2.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DependenceGraph.of(CsrMatrix.fromCoo(2, 3, new int[0], new int[0], new double[0])));
    }
}
