package dev.squall.hmatrix.ksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PairKernelTest {
    @Test
    void builtInKernelsHaveTheirClosedForms() {
        double r = 0.07, l = 0.1, s = r / l;
        assertEquals(Math.exp(-0.5 * s * s), PairKernel.parse("gauss:0.1").evaluate(r), 1e-16);
        assertEquals(Math.exp(-s), PairKernel.parse("exp:0.1").evaluate(r), 1e-16);
        assertEquals(1 / (1 + s * s), PairKernel.parse("cauchy:0.1").evaluate(r), 1e-16);
        assertEquals(1 / Math.sqrt(1 + s * s), PairKernel.parse("imq:0.1").evaluate(r), 1e-16);
        assertEquals((1 + Math.sqrt(3) * s) * Math.exp(-Math.sqrt(3) * s), PairKernel.parse("matern32:0.1").evaluate(r), 1e-15);
    }

    @Test
    void deviceFormulasMatchTheHostKernelsAndTheirDerivatives() {
        for (String spec : new String[] {"gauss:0.3", "exp:0.3", "matern32:0.3", "matern52:0.3", "imq:0.3", "cauchy:0.3"}) {
            PairKernel k = PairKernel.parse(spec);
            for (double r : new double[] {0.01, 0.2, 0.9}) {
                assertEquals(k.evaluate(r), KernelSumKernelsF64.kernelOfSquared(k.code(), r * r, k.inverseSquaredLength()), 1e-15, spec);
                double h = 1e-4 * r * r;
                double fd = (k.evaluate(Math.sqrt(r * r + h)) - k.evaluate(Math.sqrt(r * r - h))) / (2 * h);
                assertEquals(fd, k.derivativeOfSquared(r), 1e-6 * Math.abs(fd), spec + " at " + r);
            }
        }
    }

    @Test
    void radiusBelowIsWhereTheKernelFallsToTheThreshold() {
        PairKernel g = PairKernel.parse("gauss:0.1");
        double r = g.radiusBelow(1e-6);
        assertEquals(0.1 * Math.sqrt(2 * Math.log(1e6)), r, 1e-10);
        assertTrue(g.evaluate(r) <= 1e-6 && g.evaluate(r * (1 - 1e-9)) > 1e-6);
    }

    @Test
    void badSpecsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PairKernel.parse("cauchy:x"));
        assertTrue(e.getMessage().contains("'x' is not a number"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PairKernel.parse("cauchy:-1"));
        assertTrue(e.getMessage().contains("positive"), e.getMessage());
    }
}
