package dev.squall.permanent.exact;

import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.testing.ExactPermanents;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

class RationalPermanentTest {
    /** Small integers in [-3, 3], about half zero: plain BigInteger Ryser over all subsets is the reference. */
    private static SquareMatrix smallIntegers(int n, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n * n];
        for (int k = 0; k < v.length; k++) if (r.nextBoolean()) v[k] = r.nextInt(7) - 3;
        return SquareMatrix.of(n, v);
    }

    @Test
    void modularRyserEqualsBigIntegerRyserOnZeroOneAndSmallIntegerMatrices() {
        for (long seed = 1; seed <= 4; seed++) {
            SquareMatrix z = ExactPermanents.randomBinary(13, 0.5, seed);
            assertEquals(ExactPermanents.ryserBig(z), new ModularRyser(2).permanent(IntegerScaling.ofBinary(z).rows()), "0/1 seed " + seed);
            SquareMatrix s = smallIntegers(12, seed);
            assertEquals(ExactPermanents.ryserBig(s), new ModularRyser(2).permanent(IntegerScaling.ofBinary(s).rows()), "integers seed " + seed);
        }
        // J_14: 14! needs more than one 31-bit prime, so the CRT is exercised
        assertEquals(ExactPermanents.factorial(14), new ModularRyser(2).permanent(IntegerScaling.ofBinary(ExactPermanents.ones(14)).rows()));
        assertTrue(ModularRyser.primesNeeded(IntegerScaling.ofBinary(ExactPermanents.ones(14)).rows()) > 1);
    }

    @Test
    void exactPathWithAndWithoutPreprocessingEqualsBigIntegerRyser() {
        for (long seed = 1; seed <= 4; seed++) {
            SquareMatrix s = smallIntegers(12, 10 + seed);
            BigInteger want = ExactPermanents.ryserBig(s);
            for (boolean decompose : new boolean[] {true, false}) {
                RationalPermanent.Outcome o = RationalPermanent.of(s, true, decompose, 2);
                assertEquals(Fraction.of(want, BigInteger.ONE), o.value(), "seed " + seed + " decompose " + decompose);
            }
        }
    }

    @Test
    void decimalsAreReadExactlyAndScaledPerRow() {
        // rows scaled by 10 and 100: perm = (0.1*0.02*... ) computed by hand below
        SquareMatrix a = SquareMatrix.of(2, new double[] {0.1, 0.3, 0.02, 1.5});
        // perm = 0.1*1.5 + 0.3*0.02 = 0.15 + 0.006 = 0.156 = 39/250
        assertEquals(Fraction.of(BigInteger.valueOf(39), BigInteger.valueOf(250)), RationalPermanent.of(a, true, false, 1).value());
        IntegerScaling s = IntegerScaling.ofDecimals(a);
        assertEquals(BigInteger.ONE, s.rows()[0][0]);
        assertEquals(BigInteger.valueOf(3), s.rows()[0][1]);
        // as binary values 0.1 is not 1/10: the exact binary permanent differs from 39/250
        assertNotEquals(Fraction.of(BigInteger.valueOf(39), BigInteger.valueOf(250)), RationalPermanent.of(a, false, false, 1).value());
    }

    @Test
    void exactEliminationAndColumnMergingKeepThePermanent() {
        // regression matrices: the exact reduction (integer elimination and merging) against the frontier program on the whole matrix
        for (long seed = 1; seed <= 6; seed++) {
            SquareMatrix a = seed % 2 == 0 ? RegressionMatrices.banded(30, seed) : RegressionMatrices.sparse(16, seed);
            BigInteger[][] rows = IntegerScaling.ofBinary(a).rows();
            ExactReduction r = ExactReduction.of(rows);
            BigInteger reduced = r.factor();
            for (BigInteger[][] b : r.blocks()) reduced = reduced.multiply(RationalPermanent.block(b, 2).value());
            BigInteger whole = dev.squall.permanent.frontier.FrontierPermanent.exact(dev.squall.permanent.frontier.FrontierPlan.of(ExactReduction.pattern(rows)), rows);
            assertEquals(whole, reduced, "seed " + seed);
            if (a.n() == 16) assertEquals(ExactPermanents.ryserBig(SquareMatrix.of(16, toDoubles(rows))), whole, "sparse seed " + seed + " against BigInteger Ryser");
        }
    }

    private static double[] toDoubles(BigInteger[][] rows) {
        int n = rows.length;
        double[] v = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) v[i * n + j] = rows[i][j].doubleValue();
        return v;
    }
}
