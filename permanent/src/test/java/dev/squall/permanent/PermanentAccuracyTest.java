package dev.squall.permanent;

import dev.squall.permanent.exact.ExpandingReduction;
import dev.squall.permanent.exact.ExpansionTree;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.exact.RationalPermanent;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.tasks.runtime.Devices;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

import static org.junit.jupiter.api.Assertions.*;

/** The solver's printed error bound against exact values on matrices where Ryser's sum cancels. */
class PermanentAccuracyTest {
    private static final MathContext MC = new MathContext(40);

    private static BigDecimal big(ScaledValue v) {
        BigDecimal two = BigDecimal.valueOf(2);
        BigDecimal p = v.exponent() >= 0 ? two.pow((int) v.exponent()) : BigDecimal.ONE.divide(two.pow((int) -v.exponent()), MC);
        return new BigDecimal(v.mantissa()).multiply(p, MC);
    }

    private static BigDecimal big(Fraction f) {
        return new BigDecimal(f.numerator()).divide(new BigDecimal(f.denominator()), MC);
    }

    /** Within the printed bound of the exact value; returns whether the result was within the tolerance too. */
    private static void assertWithinBound(SquareMatrix a, PermanentResult r, String what) {
        assertWithinBound(RationalPermanent.of(a, false, true, 2).value(), r, what);
    }

    private static void assertWithinBound(Fraction exact, PermanentResult r, String what) {
        BigDecimal err = big(r.scaled()).subtract(big(exact)).abs();
        assertTrue(err.compareTo(big(r.errorBound())) <= 0, what + ": |" + r.scaled().toText() + " - exact " + exact.toText() + "| = " + err
                + " exceeds the printed bound " + r.errorBound().toText() + " (" + r.errorKind() + ", " + r.methodsUsed() + ")");
    }

    @Test
    void defaultResultOnRandomSparseMixedSignMatricesIsWithinItsBoundOrAnError() {
        int within = 0;
        for (int n = 20; n <= 40; n += 5) {
            for (long seed = 1; seed <= 3; seed++) {
                SquareMatrix a = RegressionMatrices.sparse(n, seed);
                String what = "sparse n=" + n + " seed=" + seed;
                try {
                    PermanentResult r = new PermanentSolver().device(Devices.jvm()).threads(2).solve(a);
                    assertWithinBound(a, r, what);
                    BigDecimal exact = big(RationalPermanent.of(a, false, true, 2).value());
                    if (exact.signum() != 0) {
                        BigDecimal rel = big(r.scaled()).subtract(exact).abs().divide(exact.abs(), MC);
                        assertTrue(rel.doubleValue() <= 1e-8, what + ": relative error " + rel + " above the default tolerance");
                    }
                    within++;
                } catch (ToleranceNotMetException e) {
                    assertTrue(e.getMessage().contains("tolerance"), e.getMessage());
                }
            }
        }
        assertTrue(within >= 10, "most of these matrices are solvable within the tolerance, got " + within);
    }

    /**
     * Exact value through a different expansion tree (expanding eagerly, leaves by the exact rational path); the tree's
     * exactness itself is proven against BigInteger Ryser in ExpandingReductionTest.
     */
    private static Fraction exactByEagerExpansion(SquareMatrix a) {
        IntegerScaling s = IntegerScaling.ofBinary(a);
        ExpansionTree t = new ExpandingReduction(p -> Math.pow(8, p.n())).leafOverheadSeconds(0).minExpandSeconds(0).reduce(s.rows());
        return Fraction.of(t.evaluate(b -> RationalPermanent.block(b, 2).value()).multiply(s.numerator()), s.denominator());
    }

    /**
     * Rows of 3-4 nonzeros (magnitudes over 8 orders, mixed signs): preprocessing expands rows/columns, and the sums of
     * the expansion terms may cancel; the result is within its bound of the exact value or an error.
     */
    @Test
    void expandedMatricesAreWithinTheirBoundOrAnError() {
        int expanded = 0, within = 0;
        for (int n : new int[] {30, 34}) {
            for (long seed = 1; seed <= 3; seed++) {
                SquareMatrix a = RegressionMatrices.dense34(n, seed);
                String what = "dense34 n=" + n + " seed=" + seed;
                try {
                    // Gray-code Ryser for every block, and a cost model under which expansion pays (8^n per block: four
                    // minors of order n-1 cost half as much), so the sums of expansion terms are exercised
                    PermanentResult r = new PermanentSolver().device(Devices.jvm()).threads(2).method(Method.SPARSE)
                            .expansionCost(p -> Math.pow(8, p.n()) * 1e-20).solve(a);
                    Fraction exact = exactByEagerExpansion(a);
                    assertWithinBound(exact, r, what);
                    if (exact.numerator().signum() != 0) {
                        BigDecimal rel = big(r.scaled()).subtract(big(exact)).abs().divide(big(exact).abs(), MC);
                        assertTrue(rel.doubleValue() <= 1e-8, what + ": relative error " + rel + " above the default tolerance");
                    }
                    if (r.expansions() > 0) expanded++;
                    within++;
                } catch (ToleranceNotMetException e) {
                    assertTrue(e.getMessage().contains("tolerance"), e.getMessage());
                }
                PermanentResult raw = new PermanentSolver().device(Devices.jvm()).threads(2).method(Method.SPARSE)
                        .expansionCost(p -> Math.pow(8, p.n()) * 1e-20).escalate(false).solve(a);
                assertWithinBound(exactByEagerExpansion(a), raw, what + " without escalation");
                PermanentResult auto = new PermanentSolver().device(Devices.jvm()).threads(2).solve(a);
                assertWithinBound(exactByEagerExpansion(a), auto, what + " by the cheapest methods");
            }
        }
        assertTrue(expanded >= 2, "expansion was taken on some of these matrices, got " + expanded);
        assertTrue(within >= 4, "most are solvable within the tolerance, got " + within);
    }

    @Test
    void everyRyserVariantEscalatesOnBandedCancellingMatricesWithoutPreprocessing() {
        for (long seed = 1; seed <= 3; seed++) {
            SquareMatrix a = RegressionMatrices.banded(18, seed);
            for (Method m : new Method[] {Method.DENSE, Method.SPARSE}) {
                String what = "banded n=18 seed=" + seed + " " + m;
                PermanentResult r = new PermanentSolver().device(Devices.jvm()).threads(2).method(m).decompose(false).solve(a);
                assertWithinBound(a, r, what);
                // the estimate without escalation must be honest too (a large bound, not a silent wrong value)
                PermanentResult raw = new PermanentSolver().device(Devices.jvm()).threads(2).method(m).decompose(false).escalate(false).solve(a);
                assertWithinBound(a, raw, what + " without escalation");
            }
        }
    }

    @Test
    void bandedRegressionMatricesUpToFiftyFiveAreWithinTolerance() {
        for (int n : new int[] {15, 30, 45, 55}) {
            SquareMatrix a = RegressionMatrices.banded(n, n);
            PermanentResult r = new PermanentSolver().device(Devices.jvm()).threads(2).solve(a);
            assertWithinBound(a, r, "banded n=" + n);
        }
    }

    @Test
    void exactPreprocessingGivesTheExactValueWhenNothingIsLeftToSweep() {
        // tridiagonal 0/1 of order 30: elimination closes it; the exact value is the Fibonacci number F_31
        SquareMatrix t = dev.squall.permanent.testing.ExactPermanents.tridiagonalOnes(30);
        PermanentResult r = new PermanentSolver().solve(t);
        assertEquals("exact", r.errorKind());
        assertEquals(BigInteger.valueOf(dev.squall.permanent.testing.ExactPermanents.fibonacci(30)), r.exactValue().numerator());
    }

    /**
     * Escalation from a device sweep to the double-double kernel on the same device: a tolerance below what the double
     * sweep and the frontier program's bound reach (positive and mixed-sign matrices, no preprocessing); the result is
     * within its bound of the exact value and within the tolerance.
     */
    @Test
    void deviceSweepsEscalateToDoubleDoubleOnTheDevice() {
        int escalated = 0;
        for (dev.squall.tasks.runtime.Device d : dev.squall.tasks.runtime.testing.TestDevices.all()) {
            if (d.info().type() == dev.squall.tasks.runtime.DeviceType.JVM) continue;
            for (SquareMatrix a : java.util.List.of(dev.squall.permanent.RandomSquareMatrices.erdosRenyi(22, 0.3, 1), RegressionMatrices.banded(22, 4))) {
                double tol = 1e-15;
                PermanentResult r = new PermanentSolver().device(d).method(Method.CODEGEN_HYBRID).threads(2).decompose(false).tolerance(tol).solve(a);
                String what = "n=22 on " + d.id() + " at tolerance " + tol + " (" + r.reasons() + ")";
                assertEquals(java.util.List.of("codegen-dd@" + d.id()), r.methodsUsed(), what);
                assertTrue(r.reasons().get(0).startsWith("escalated: codegen-hybrid@" + d.id()), what);
                assertWithinBound(a, r, what);
                BigDecimal exact = big(RationalPermanent.of(a, false, true, 2).value());
                assertTrue(big(r.scaled()).subtract(exact).abs().divide(exact.abs(), MC).doubleValue() <= tol, what);
                escalated++;
            }
        }
        assertTrue(escalated > 0 || System.getenv("SQUALL_REQUIRE_OPENCL") == null,
                "SQUALL_REQUIRE_OPENCL is set but no OpenCL device ran the test");
    }

    /**
     * Generated kernels whose work-items rebuild x every 2^6 or 2^8 steps (many segments per work-item, so the estimate
     * follows segments shorter than the work-item's chunk) and once per work-item: on random sparse mixed-sign
     * matrices (magnitudes over 8 orders) and ER matrices, without preprocessing or escalation, the double sweep's
     * value is within its printed estimate of the exact value.
     */
    @Test
    void restartedGeneratedSweepsAreWithinTheirEstimate() {
        int ran = 0;
        for (dev.squall.tasks.runtime.Device d : dev.squall.tasks.runtime.testing.TestDevices.all()) {
            if (d.info().type() == dev.squall.tasks.runtime.DeviceType.JVM) continue;
            for (SquareMatrix a : java.util.List.of(RegressionMatrices.sparse(22, 2), RegressionMatrices.sparse(24, 3),
                    dev.squall.permanent.RandomSquareMatrices.erdosRenyi(23, 0.5, 4))) {
                Fraction exact = RationalPermanent.of(a, false, true, 2).value();
                for (int restart : new int[] {6, 8, 0}) {
                    PermanentResult r = new PermanentSolver().device(d).method(Method.CODEGEN_HYBRID).threads(2).decompose(false)
                            .escalate(false).restartLog2(restart).estimateOnDevice(restart > 0).solve(a);
                    long chunk = r.generated().get(0).runChunk();
                    String what = "n=" + a.n() + " on " + d.id() + ", restart 2^" + restart + ", run chunk " + chunk;
                    if (restart > 0) assertEquals(1L << restart, chunk, what);
                    assertWithinBound(exact, r, what);
                    ran++;
                }
            }
        }
        assertTrue(ran > 0 || System.getenv("SQUALL_REQUIRE_OPENCL") == null, "SQUALL_REQUIRE_OPENCL is set but no OpenCL device ran the test");
    }

    /**
     * Double sweeps without escalation, on every device: their printed estimate (re-computed on the device the sweep ran
     * on, as on a GPU, or on the JVM after a JVM sweep) bounds the actual error against the exact value. Mixed-sign regression
     * matrices (entries over 8 orders of magnitude, thinned rows) and ER matrices at p = 0.3 and 0.5, whole (no
     * preprocessing), by the generic sparse and dense kernels.
     */
    @Test
    void deviceSweepsAreWithinTheirDeviceEstimate() {
        int ran = 0, onDevice = 0;
        java.util.List<dev.squall.tasks.runtime.Device> devices = dev.squall.tasks.runtime.testing.TestDevices.all();
        for (dev.squall.tasks.runtime.Device d : devices) {
            boolean jvm = d.info().type() == dev.squall.tasks.runtime.DeviceType.JVM;
            for (SquareMatrix a : java.util.List.of(RegressionMatrices.sparse(21, 4), RegressionMatrices.banded(20, 3),
                    dev.squall.permanent.RandomSquareMatrices.erdosRenyi(22, 0.5, 6), dev.squall.permanent.RandomSquareMatrices.erdosRenyi(21, 0.3, 2))) {
                Fraction exact = RationalPermanent.of(a, false, true, 2).value();
                for (Method m : new Method[] {Method.SPARSE, Method.DENSE}) {
                    PermanentResult r = new PermanentSolver().device(d).method(m).threads(2).decompose(false).escalate(false)
                            .estimateOnDevice(true).solve(a);
                    String what = "n=" + a.n() + " " + m + " on " + d.id() + ": " + r.reasons();
                    assertWithinBound(exact, r, what);
                    assertEquals(!jvm, r.reasons().get(0).contains("re-computed steps on " + d.id()), what);
                    ran++;
                    if (!jvm) onDevice++;
                }
            }
        }
        assertEquals(8 * devices.size(), ran, "four matrices by two methods on each of " + devices.size() + " devices");
        assertTrue(onDevice > 0 || System.getenv("SQUALL_REQUIRE_OPENCL") == null, "SQUALL_REQUIRE_OPENCL is set but no OpenCL device ran the test");
    }

    /**
     * The case the H100 midpoint missed (ER p = 0.5, run chunks as long as a sampled chunk, so the rounding part with the
     * generated kernels' factor is the whole estimate), over many seeds: generated hybrid sweeps on PoCL, restarted every
     * 2^7 steps (= L at n = 22), within their device estimate of the exact value.
     */
    @Test
    void generatedSweepsWithoutDriftPartAreWithinTheirEstimateOverManySeeds() {
        int ran = 0;
        for (dev.squall.tasks.runtime.Device d : dev.squall.tasks.runtime.testing.TestDevices.all()) {
            if (d.info().type() == dev.squall.tasks.runtime.DeviceType.JVM) continue;
            for (long seed = 1; seed <= 6; seed++) {
                SquareMatrix a = dev.squall.permanent.RandomSquareMatrices.erdosRenyi(22, 0.5, seed);
                Fraction exact = RationalPermanent.of(a, false, true, 2).value();
                PermanentResult r = new PermanentSolver().device(d).method(Method.CODEGEN_HYBRID).threads(2).decompose(false)
                        .escalate(false).restartLog2(7).estimateOnDevice(true).solve(a);
                assertEquals(0, dev.squall.permanent.cpu.RyserRoundingEstimate.driftSteps(22, r.generated().get(0).runChunk()), "no drift part");
                assertWithinBound(exact, r, "ER 22:0.5:" + seed + " on " + d.id());
                ran++;
            }
        }
        assertTrue(ran > 0 || System.getenv("SQUALL_REQUIRE_OPENCL") == null, "SQUALL_REQUIRE_OPENCL is set but no OpenCL device ran the test");
    }
}
