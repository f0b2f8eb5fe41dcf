package dev.squall.permanent.exact;

import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.testing.TestDevices;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class BinaryKernelPermanentTest {
    static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** Every device with its generic kernel, and every CUDA/OpenCL device also with the per-matrix generated kernel. */
    static List<Arguments> kernels() {
        List<Arguments> out = new ArrayList<>();
        for (Device d : TestDevices.all()) {
            out.add(Arguments.of(Named.of(d.id() + " generic", d), false));
            if (d.info().type() != DeviceType.JVM) out.add(Arguments.of(Named.of(d.id() + " generated", d), true));
        }
        return out;
    }

    static BinaryKernelPermanent on(Device d, boolean generated) {
        return new BinaryKernelPermanent(d).withGeneratedKernel(generated);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void closedFormsWhoseProductsOverflow64Bits(Device d, boolean generated) {
        // 20^20 > 2^64: the row-sum products wrap, the sums must still come out exact
        BinaryPermanent.Result f = on(d, generated).compute(ones(20));
        assertTrue(f.exact(), "20! < 2^64 is certified");
        assertEquals(factorial(20), f.value(), "J_20 on " + d.id());
        // 37 work-items: several launches with shrinking power-of-two chunks
        assertEquals(derangements(19), on(d, generated).withMaxThreads(37).compute(onesMinusIdentity(19)).value(), "D_19 on " + d.id());
        assertEquals(BigInteger.valueOf(fibonacci(17)), on(d, generated).compute(tridiagonalOnes(17)).value(), "tridiagonal on " + d.id());
        assertEquals(BigInteger.ONE, on(d, generated).compute(SquareMatrix.of(1, new double[] {1})).value());
        assertEquals(BigInteger.ZERO, on(d, generated).compute(SquareMatrix.of(1, new double[] {0})).value());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void randomBinaryMatchBigIntegerRyserAndMatchingCounts(Device d, boolean generated) {
        for (int n : new int[] {2, 5, 9, 13}) {
            SquareMatrix a = randomBinary(n, 0.6, 900 + n);
            BinaryPermanent.Result r = on(d, generated).withMaxThreads(5).compute(a);
            assertTrue(r.exact());
            assertEquals(ryserBig(a), r.value(), "n=" + n + " on " + d.id());
        }
        SquareMatrix b = randomBinary(21, 0.4, 17);
        assertEquals(matchings(b), on(d, generated).compute(b).value(), "n=21 on " + d.id());
    }

    /** n = 24 (2^24 steps), against an independent DP over the band: the size for the exact path. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void bandedOrder24AgainstBandDp(Device d, boolean generated) {
        SquareMatrix a = randomBanded(24, 4, 0.8, 2424);
        BigInteger want = bandedMatchings(a, 4);
        assertTrue(want.bitLength() > 20, "a nontrivial count: " + want);
        BinaryPermanent.Result r = on(d, generated).compute(a);
        assertTrue(r.exact());
        assertEquals(want, r.value(), "n=24 on " + d.id());
    }

    @Test
    void beyond64BitsOnlyTheResidueIsClaimed() {
        Device jvm = Devices.jvm();
        // 21! > 2^64 (and Bregman's bound for J_21 is 21! itself): the value is 21! mod 2^64, flagged as not exact
        BinaryPermanent.Result r = new BinaryKernelPermanent(jvm).compute(ones(21));
        assertFalse(r.exact());
        assertEquals(64, r.modulusBits());
        assertEquals(factorial(21).mod(TWO_64), r.value());
    }

    @Test
    void rejectsRealEntriesAndOrdersOutOfRange() {
        Device jvm = Devices.jvm();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BinaryKernelPermanent(jvm).compute(SquareMatrix.of(2, new double[] {1, 0.5, 0, 1})));
        assertTrue(e.getMessage().contains("0/1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new BinaryKernelPermanent(jvm).compute(ones(63)));
        assertTrue(e.getMessage().contains("n=63"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new BinaryKernelPermanent(jvm).withGeneratedKernel(true));
        assertTrue(e.getMessage().contains("jvm"), e.getMessage());
    }
}
