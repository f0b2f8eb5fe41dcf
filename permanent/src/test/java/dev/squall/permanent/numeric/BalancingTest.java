package dev.squall.permanent.numeric;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.exact.BlockDoubles;
import dev.squall.permanent.exact.ExactReduction;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.exact.RationalPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class BalancingTest {
    @Test
    void scalesByPowersOfTwoAndBoundsRows() {
        SquareMatrix a = random(8, 0.7, -1e30, 1e30, 5);
        Balancing b = Balancing.of(a);
        for (int i = 0; i < 8; i++) {
            double norm = 0;
            for (int j = 0; j < 8; j++) {
                double x = a.get(i, j), y = b.scaled().get(i, j);
                norm += Math.abs(y);
                if (x == 0) {
                    assertEquals(0, y);
                } else { // y / x = 2^k exactly: y is x with its exponent moved
                    assertEquals(x, Math.scalb(y, Math.getExponent(x) - Math.getExponent(y)), 0, "entry (" + i + "," + j + ") scaled by a power of two");
                }
            }
            assertTrue(norm == 0 || (norm >= 1 && norm < 2), "row " + i + " norm " + norm);
        }
        assertRelative(bruteForce(a), ScaledValue.of(bruteForce(b.scaled()), b.exponent()).toDouble(), 1e-13, "perm(A) = 2^E perm(D1 A D2)");
    }

    @Test
    void makesAnEliminatedBlockWellConditionedForRyser() {
        // 40:0.1:1 leaves an 18x18 block whose entries span 1e-35..1 within rows and columns: row scaling alone gives
        // a double sweep (and a double-double one) with no correct digit; balanced, the double sweep is accurate
        ExactReduction ex = ExactReduction.of(IntegerScaling.ofBinary(RandomSquareMatrices.parse("40:0.1:1")).rows());
        BigInteger[][] block = ex.blocks().stream().filter(x -> x.length == 18).findFirst().orElseThrow();
        BlockDoubles bd = BlockDoubles.of(block);
        ScaledValue exact = new Fraction(RationalPermanent.block(block, 2).value(), BigInteger.ONE).toScaled().times(ScaledValue.of(1, -bd.exponent()));
        RowScaling rows = RowScaling.of(bd.matrix());
        double rowsOnly = new ChunkedJvmPermanent(2).sparse(ColumnDegreeSort.apply(rows.scaled()));
        double want = exact.times(ScaledValue.of(1, -rows.exponent())).toDouble();
        assertTrue(Math.abs(rowsOnly - want) > Math.abs(want), "row scaling only: " + rowsOnly + " against " + want);
        Balancing bal = Balancing.of(bd.matrix());
        double balanced = new ChunkedJvmPermanent(2).sparse(ColumnDegreeSort.apply(bal.scaled()));
        assertRelative(exact.times(ScaledValue.of(1, -bal.exponent())).toDouble(), balanced, 1e-13, "balanced block");
    }
}
