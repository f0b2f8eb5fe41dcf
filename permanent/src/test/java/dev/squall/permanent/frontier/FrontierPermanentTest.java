package dev.squall.permanent.frontier;

import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.exact.ExactReduction;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.testing.ExactPermanents;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.*;

class FrontierPermanentTest {
    @Test
    void exactFrontierCountsMatchingsOfBandedAndRandomZeroOneMatrices() {
        SquareMatrix band = ExactPermanents.randomBanded(40, 3, 0.7, 5);
        BigInteger[][] rows = IntegerScaling.ofBinary(band).rows();
        assertEquals(ExactPermanents.bandedMatchings(band, 3), FrontierPermanent.exact(FrontierPlan.of(band), rows));
        SquareMatrix z = ExactPermanents.randomBinary(18, 0.3, 4);
        assertEquals(ExactPermanents.matchings(z), FrontierPermanent.exact(FrontierPlan.of(z), IntegerScaling.ofBinary(z).rows()));
    }

    @Test
    void doubleFrontierEqualsGrayCodeRyserAndTheExactValueWithinItsBound() {
        for (int n : new int[] {14, 20, 24}) {
            SquareMatrix a = RandomSquareMatrices.erdosRenyi(n, 0.25, n);
            FrontierPermanent.Result r = FrontierPermanent.inDouble(FrontierPlan.of(a));
            double ryser = new ChunkedJvmPermanent(2).accurate(a);
            ExactPermanents.assertRelative(ryser, r.value().toDouble(), 1e-12, "n=" + n + " frontier vs Gray-code Ryser");
            BigInteger[][] rows = IntegerScaling.ofBinary(a).rows();
            Fraction exact = scaled(FrontierPermanent.exact(FrontierPlan.of(a), rows), IntegerScaling.ofBinary(a));
            double err = Math.abs(new BigDecimal(exact.numerator()).divide(new BigDecimal(exact.denominator()), java.math.MathContext.DECIMAL128).doubleValue() - r.value().toDouble());
            assertTrue(err <= r.bound().toDouble(), "n=" + n + ": error " + err + " > bound " + r.bound().toDouble());
            assertTrue(r.bound().toDouble() < 1e-12 * Math.abs(r.value().toDouble()), "bound informative on a nonnegative matrix");
        }
    }

    @Test
    void frontierBoundHoldsOnMixedSignRegressionMatrices() {
        for (long seed = 1; seed <= 8; seed++) {
            SquareMatrix a = RegressionMatrices.banded(45, seed);
            FrontierPlan plan = FrontierPlan.of(a);
            assertTrue(plan.width() <= 12, "banded width " + plan.width());
            FrontierPermanent.Result r = FrontierPermanent.inDouble(plan);
            IntegerScaling s = IntegerScaling.ofBinary(a);
            Fraction exact = scaled(FrontierPermanent.exact(plan, s.rows()), s);
            BigDecimal want = new BigDecimal(exact.numerator()).divide(new BigDecimal(exact.denominator()), java.math.MathContext.DECIMAL128);
            BigDecimal got = new BigDecimal(r.value().mantissa()).multiply(new BigDecimal(BigInteger.TWO).pow((int) Math.abs(r.value().exponent()), java.math.MathContext.DECIMAL128)
                    .pow(r.value().exponent() < 0 ? -1 : 1, java.math.MathContext.DECIMAL128));
            BigDecimal bound = new BigDecimal(r.bound().mantissa()).multiply(new BigDecimal(BigInteger.TWO).pow((int) Math.abs(r.bound().exponent()), java.math.MathContext.DECIMAL128)
                    .pow(r.bound().exponent() < 0 ? -1 : 1, java.math.MathContext.DECIMAL128));
            assertTrue(want.subtract(got).abs().compareTo(bound) <= 0, "seed " + seed + ": |" + want + " - " + got + "| > " + bound);
        }
    }

    @Test
    void frontierWidthOfAPermutedBandIsRecoveredByCuthillMcKee() {
        SquareMatrix band = ExactPermanents.randomBanded(50, 2, 1.0, 3);
        int[] p = new int[50];
        for (int i = 0; i < 50; i++) p[i] = (i * 17) % 50;
        SquareMatrix shuffled = band.permute(p, p);
        assertTrue(FrontierPlan.of(shuffled).width() <= 5, "width " + FrontierPlan.of(shuffled).width());
    }

    static Fraction scaled(BigInteger perm, IntegerScaling s) {
        return Fraction.of(perm.multiply(s.numerator()), s.denominator());
    }
}
