package dev.squall.permanent;

import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class PermanentSolverTest {
    static List<Device> devices() {
        return TestDevices.all();
    }

    /** A mesh block (frontier width ~16: 2^16-state tables, where the device beats the JVM program), within its bound of the exact value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void meshBlocksTakeTheFrontierProgramOnTheDeviceAndStayWithinTheirBound(Device d) {
        for (long seed = 1; seed <= 2; seed++) {
            SquareMatrix a = dev.squall.permanent.matrix.RegressionMatrices.mesh(48, seed);
            PermanentResult r = new PermanentSolver().device(d).threads(2).solve(a);
            String expected = "frontier@" + (d.info().type() == DeviceType.JVM ? "jvm" : d.id());
            assertEquals(List.of(expected), r.methodsUsed(), "mesh 48 seed " + seed + ": " + r.reasons());
            assertTrue(r.reasons().get(0).contains("frontier width"), r.reasons().get(0));
            dev.squall.permanent.exact.Fraction exact = dev.squall.permanent.exact.RationalPermanent.of(a, false, true, 2).value();
            java.math.MathContext mc = java.math.MathContext.DECIMAL128;
            java.math.BigDecimal want = new java.math.BigDecimal(exact.numerator()).divide(new java.math.BigDecimal(exact.denominator()), mc);
            java.math.BigDecimal got = new java.math.BigDecimal(r.scaled().mantissa()).multiply(new java.math.BigDecimal(2).pow((int) r.scaled().exponent(), mc), mc);
            java.math.BigDecimal bound = new java.math.BigDecimal(r.errorBound().mantissa()).multiply(new java.math.BigDecimal(2).pow((int) r.errorBound().exponent(), mc), mc);
            assertTrue(got.subtract(want).abs().compareTo(bound) <= 0, "mesh 48 seed " + seed + ": |" + got + " - " + want + "| > " + bound);
            assertEquals("rigorous", r.errorKind());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("devices")
    void everyMethodAgreesOnRandomRealMatrices(Device d) {
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(d.info().type() == DeviceType.JVM ? 18 : 17, 0.3, 5);
        double ref = new ChunkedJvmPermanent(2).dense(a);
        for (Method m : Method.values()) {
            if (d.info().type() == DeviceType.JVM && (m == Method.CODEGEN_REG || m == Method.CODEGEN_HYBRID)) continue;
            for (boolean decompose : new boolean[] {false, true}) {
                PermanentResult r = new PermanentSolver().device(d).method(m).decompose(decompose).solve(a);
                assertRelative(ref, r.value(), 1e-10, m + " decompose=" + decompose + " on " + d.id());
            }
        }
    }

    @Test
    void saysWhenRyserCancelsBeyondTheTolerance() {
        // [[0.3, 0.7 * 0.3 / 0.9], [0.9, -0.7]] (permanent 0 up to the rounding of its entries) beside a random 20x20
        // block: the permanent is ~1e-16 of the Gray-code terms
        SquareMatrix b = RandomSquareMatrices.erdosRenyi(20, 0.5, 4);
        double[] v = new double[22 * 22];
        v[0] = 0.3;
        v[1] = 0.7 * 0.3 / 0.9;
        v[22] = 0.9;
        v[23] = -0.7;
        for (int i = 0; i < 20; i++) for (int j = 0; j < 20; j++) v[(i + 2) * 22 + j + 2] = b.get(i, j);
        PermanentResult r = new PermanentSolver().method(Method.SPARSE).decompose(false).escalate(false).threads(2).solve(SquareMatrix.of(22, v));
        assertTrue(r.errorBound().toDouble() > 1e-8 * Math.abs(r.value()), "bound " + r.errorBound().toDouble() + " of " + r.value());
        assertTrue(r.reasons().get(0).contains("ill-conditioned for Ryser"), r.reasons().toString());
        // a well-conditioned block gives no such note
        PermanentResult ok = new PermanentSolver().method(Method.SPARSE).decompose(false).threads(2).solve(RandomSquareMatrices.erdosRenyi(22, 0.3, 4));
        assertFalse(ok.reasons().get(0).contains("Ryser's terms"), ok.reasons().toString());
    }

    @Test
    void jvmDenseAndSparseAgreeAtTwentySix() {
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(26, 0.3, 3);
        double dense = new PermanentSolver().method(Method.DENSE).decompose(false).solve(a).value();
        PermanentResult sparse = new PermanentSolver().method(Method.SPARSE).solve(a);
        assertRelative(dense, sparse.value(), 1e-10, "n=26 dense vs sparse with preprocessing");
    }

    /**
     * p = 0.2 cancels more: on this matrix the double-precision sweep without preprocessing is off by
     * ~1.1e-10 (x drift and product rounding; Kahan on the sum cannot help), so the raw sweep runs in
     * double-double and the preprocessed sparse path must agree with it to the issue's 1e-10.
     */
    @Test
    void sparsePathMatchesDoubleDoubleSweepAtDensityPointTwo() {
        SquareMatrix a = RandomSquareMatrices.erdosRenyi(26, 0.2, 3);
        double accurate = new ChunkedJvmPermanent(2).accurate(a);
        PermanentResult sparse = new PermanentSolver().method(Method.SPARSE).solve(a);
        assertRelative(accurate, sparse.value(), 1e-10, "n=26 p=0.2: sparse with preprocessing vs double-double sweep");
    }

    @Test
    void accurateSolveMatchesExactDyadicPermanentThroughPreprocessing() {
        SquareMatrix a = randomDyadic(15, 0.45, 808);
        PermanentResult r = new PermanentSolver().device(Devices.jvm()).accurate(true).threads(2).solve(a);
        assertRelative(exactDyadic(a), r.value(), 1e-13, "double-double solve, n=15");
        assertFalse(r.methodsUsed().isEmpty());
        for (String m : r.methodsUsed()) assertEquals("accurate@jvm", m);
    }

    @Test
    void blockDiagonalLargerThan63IsSolvedByDecomposition() {
        // 70x70 = J_5 repeated 14 times: perm = 120^14, beyond 63 only before the split
        int n = 70;
        double[] v = new double[n * n];
        for (int b = 0; b < 14; b++) for (int i = 0; i < 5; i++) for (int j = 0; j < 5; j++) v[(5 * b + i) * n + 5 * b + j] = 1;
        PermanentResult r = new PermanentSolver().solve(SquareMatrix.of(n, v));
        assertRelative(Math.pow(120, 14), r.value(), 1e-12, "perm = 120^14");
        assertEquals(14, r.reduction().btfBlockSizes().size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PermanentSolver().decompose(false).solve(SquareMatrix.of(n, v)));
        assertTrue(e.getMessage().contains("n = 70"), e.getMessage());
    }

    @Test
    void clearErrorsForEmptyAndTooLargeInputs() {
        assertThrows(IllegalArgumentException.class, () -> new PermanentSolver().solve(SquareMatrix.of(0, new double[0])));
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> new PermanentSolver().solve(ones(64)));
        assertTrue(big.getMessage().contains("64"), big.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PermanentSolver().device(Devices.jvm()).method(Method.CODEGEN_HYBRID).solve(ones(3)));
    }

    @Test
    void structurallySingularIsZeroAndClosedFormsHold() {
        SquareMatrix s = SquareMatrix.of(4, new double[] {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1});
        assertEquals(0.0, new PermanentSolver().solve(s).value());
        assertEquals(0.0, new PermanentSolver().decompose(false).method(Method.DENSE).solve(s).value(), 1e-12);
        assertRelative(factorial(14).doubleValue(), new PermanentSolver().solve(ones(14)).value(), 1e-11, "J_14");
        assertRelative(derangements(15).doubleValue(), new PermanentSolver().solve(onesMinusIdentity(15)).value(), 1e-11, "D_15");
        assertRelative(fibonacci(50), new PermanentSolver().solve(tridiagonalOnes(50)).value(), 1e-12, "tridiagonal 50 by elimination");
    }

    @Test
    void overflowingPermanentIsDetectedNotGarbage() {
        // J_20 scaled by 1e20: perm = 20! * 1e400
        double[] v = new double[400];
        java.util.Arrays.fill(v, 1e20);
        PermanentResult r = new PermanentSolver().method(Method.DENSE).decompose(false).solve(SquareMatrix.of(20, v));
        assertTrue(r.outsideDoubleRange());
        assertEquals(400 + Math.log10(factorial(20).doubleValue()), r.scaled().log10Abs(), 1e-9);
    }
}
