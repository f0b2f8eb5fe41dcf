package dev.squall.permanent.frontier;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.testing.ExactPermanents;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The device frontier program on every device (jvm and PoCL here) against Gray-code Ryser and exact values. */
class DeviceFrontierPermanentTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    private static BigDecimal exact(SquareMatrix a) {
        IntegerScaling s = IntegerScaling.ofBinary(a);
        BigInteger p = FrontierPermanent.exact(FrontierPlan.of(a), s.rows());
        Fraction f = Fraction.of(p.multiply(s.numerator()), s.denominator());
        return new BigDecimal(f.numerator()).divide(new BigDecimal(f.denominator()), MathContext.DECIMAL128);
    }

    private static BigDecimal big(dev.squall.permanent.numeric.ScaledValue v) {
        return new BigDecimal(v.mantissa()).multiply(new BigDecimal(2).pow((int) v.exponent(), MathContext.DECIMAL128), MathContext.DECIMAL128);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void equalsGrayCodeRyserOnRandomMatrices(Device d) {
        for (int n : new int[] {9, 14, 18}) {
            SquareMatrix a = RandomSquareMatrices.erdosRenyi(n, 0.3, n);
            FrontierPlan plan = FrontierPlan.of(a);
            FrontierPermanent.Result r = DeviceFrontierPermanent.compute(d, plan);
            double ryser = new ChunkedJvmPermanent(2).accurate(a);
            ExactPermanents.assertRelative(ryser, r.value().toDouble(), 1e-12, "n=" + n + " width " + plan.width());
            assertTrue(big(r.value()).subtract(exact(a)).abs().compareTo(big(r.bound())) <= 0, "n=" + n + ": within the bound of the exact value");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void withinItsBoundOfTheExactValueOnMixedSignBandedAndMeshMatrices(Device d) {
        for (SquareMatrix a : new SquareMatrix[] {RegressionMatrices.banded(30, 3), RegressionMatrices.mesh(25, 2), RegressionMatrices.mesh(30, 5),
                RegressionMatrices.sparse(26, 4)}) {
            FrontierPlan plan = FrontierPlan.of(a);
            assertTrue(plan.width() <= 16, "test widths stay small: " + plan.width());
            FrontierPermanent.Result r = DeviceFrontierPermanent.compute(d, plan);
            FrontierPermanent.Result jvm = FrontierPermanent.inDouble(plan);
            BigDecimal want = exact(a);
            assertTrue(big(r.value()).subtract(want).abs().compareTo(big(r.bound())) <= 0,
                    "n=" + a.n() + ": |" + r.value().toText() + " - " + want + "| above the bound " + r.bound().toText());
            ExactPermanents.assertRelative(jvm.absPermanent().toDouble(), r.absPermanent().toDouble(), 1e-12, "perm(|A|) as on the JVM");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void countsMatchingsOfZeroOneMatricesAndZeroWhenNoneSurvives(Device d) {
        SquareMatrix band = ExactPermanents.randomBanded(30, 3, 0.7, 5);
        assertEquals(ExactPermanents.bandedMatchings(band, 3).doubleValue(), DeviceFrontierPermanent.compute(d, FrontierPlan.of(band)).value().toDouble(),
                1e-12 * ExactPermanents.bandedMatchings(band, 3).doubleValue());
        // three rows on the same two columns: no perfect matching
        double[] v = new double[36];
        for (int i = 0; i < 3; i++) { v[i * 6] = 1; v[i * 6 + 1] = 1; }
        for (int i = 3; i < 6; i++) for (int j = 0; j < 6; j++) v[i * 6 + j] = 1;
        assertEquals(0.0, DeviceFrontierPermanent.compute(d, FrontierPlan.of(SquareMatrix.of(6, v))).value().toDouble());
    }
}
