package dev.squall.permanent;

import static dev.squall.permanent.testing.ExactPermanents.matchings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.sparse.generate.RandomMatrices;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class RandomSquareMatricesTest {

    @Test
    void everyDrawHasAPerfectMatchingEvenWhereMostDrawsHaveNone() {
        // at n = 10, p = 0.15 most Erdős–Rényi draws have an empty row or column; the redraws must find matchable ones
        int firstDrawsSingular = 0;
        for (long seed = 1; seed <= 20; seed++) {
            SquareMatrix a = RandomSquareMatrices.erdosRenyi(10, 0.15, seed);
            assertTrue(matchings(a.pattern()).compareTo(BigInteger.ZERO) > 0, "seed " + seed + " has no perfect matching");
            SquareMatrix first = SquareMatrix.fromCsr(RandomMatrices.erdosRenyi(10, 10, 0.15, seed));
            if (matchings(first.pattern()).signum() == 0) firstDrawsSingular++;
            else assertEquals(first, a, "a matchable first draw is the shared generator's matrix for the same seed");
            for (int k = 0; k < 100; k++) assertTrue(a.rowMajor()[k] >= 0 && a.rowMajor()[k] < 1);
        }
        assertTrue(firstDrawsSingular > 5, firstDrawsSingular + " of 20 first draws singular: the redraw path is exercised");
        assertEquals(RandomSquareMatrices.erdosRenyi(12, 0.3, 4), RandomSquareMatrices.erdosRenyi(12, 0.3, 4));
        assertNotEquals(RandomSquareMatrices.erdosRenyi(12, 0.3, 4), RandomSquareMatrices.erdosRenyi(12, 0.3, 5));
    }

    @Test
    void specsNameTheirBadPart() {
        assertEquals(RandomSquareMatrices.erdosRenyi(9, 0.5, 1), RandomSquareMatrices.parse("9:0.5"));
        assertEquals(RandomSquareMatrices.erdosRenyi(9, 0.5, 7), RandomSquareMatrices.parse("9:0.5:7"));
        String[][] bad = {{"9", "must be N:DENSITY[:SEED]"}, {"x:0.5", "order 'x'"}, {"9:y", "density 'y'"},
            {"9:0.5:z", "seed 'z'"}, {"5000:0.1", "order 5000 is larger than 4096"}, {"9:0", "density must be in (0, 1]"},
            {"0:0.5", "order must be >= 1"}};
        for (String[] b : bad) {
            String m = assertThrows(IllegalArgumentException.class, () -> RandomSquareMatrices.parse(b[0])).getMessage();
            assertTrue(m.contains(b[1]), b[0] + ": " + m);
        }
    }
}
