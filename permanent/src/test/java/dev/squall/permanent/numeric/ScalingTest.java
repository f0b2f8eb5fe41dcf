package dev.squall.permanent.numeric;

import dev.squall.permanent.matrix.SquareMatrix;
import org.junit.jupiter.api.Test;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class ScalingTest {
    @Test
    void rowScalingIsExactAndBoundsRows() {
        SquareMatrix a = random(7, 0.7, -1e40, 1e40, 4);
        RowScaling s = RowScaling.of(a);
        for (int i = 0; i < 7; i++) {
            double norm = 0;
            for (int j = 0; j < 7; j++) norm += Math.abs(s.scaled().get(i, j));
            assertTrue(norm == 0 || (norm >= 1 && norm < 2), "row " + i + " norm " + norm);
        }
        ScaledValue v = ScaledValue.of(bruteForce(s.scaled()), s.exponent());
        assertRelative(bruteForce(a), v.toDouble(), 1e-13, "perm(A) = 2^E perm(DA)");
    }

    @Test
    void scaledPermanentOfAHugeMatrixKeepsItsMagnitude() {
        SquareMatrix b = random(7, 0.8, 0.5, 1, 9);
        double[] v = b.rowMajor();
        for (int k = 0; k < v.length; k++) v[k] *= 1e100;   // perm(A) = 1e700 perm(B): beyond double
        RowScaling s = RowScaling.of(SquareMatrix.of(7, v));
        ScaledValue p = ScaledValue.of(bruteForce(s.scaled()), s.exponent());
        assertTrue(p.outsideDoubleRange());
        assertEquals(700 + Math.log10(bruteForce(b)), p.log10Abs(), 1e-12);
    }

    @Test
    void detectsResultsOutsideTheDoubleRange() {
        ScaledValue big = ScaledValue.of(1e300).times(ScaledValue.of(-1e300));
        assertTrue(big.outsideDoubleRange());
        assertEquals(Double.NEGATIVE_INFINITY, big.toDouble());
        assertEquals(600, big.log10Abs(), 1e-12);
        assertTrue(big.toText().startsWith("-1.0000000000000") && big.toText().endsWith("e+600"), big.toText());
        ScaledValue fine = ScaledValue.of(3.0, 10);
        assertFalse(fine.outsideDoubleRange());
        assertEquals(3072.0, fine.toDouble());
        ScaledValue tiny = ScaledValue.of(1e-300).times(ScaledValue.of(1e-300));
        assertTrue(tiny.outsideDoubleRange());
        assertEquals(-600, tiny.log10Abs(), 1e-12);
    }
}
