package dev.squall.permanent.cpu;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.exact.BlockDoubles;
import dev.squall.permanent.exact.ExactReduction;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.exact.RationalPermanent;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.Balancing;
import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.*;

class RyserRoundingEstimateTest {
    /** The sum as a run computes it: thread chunks of d steps, each from a fresh x, in double. */
    static double run(SquareMatrix s, long d) {
        int n = s.n();
        int chunks = (int) (NijenhuisWilf.steps(n) / d);
        double[] hi = new double[chunks], lo = new double[chunks];
        IntStream.range(0, chunks).parallel().forEach(c -> {
            KahanSum k = new KahanSum();
            new SparseGraySweep(s).sum(c * d, (c + 1) * d, k);
            hi[c] = k.sum();
            lo[c] = k.compensation();
        });
        KahanSum t = new KahanSum();
        for (int c = 0; c < chunks; c++) t.add(hi[c], lo[c]);
        return NijenhuisWilf.finalFactor(n) * t.value();
    }

    /** The exact permanent of a as a double in the units of its balancing. */
    static double exactBalanced(SquareMatrix a, Balancing bal) {
        Fraction f = RationalPermanent.of(a, false, false, 2).value();
        return f.toScaled().times(ScaledValue.of(1, -bal.exponent())).toDouble();
    }

    /** The estimate covers the actual error (against exact arithmetic) of runs with short and long thread chunks, within 1000x. */
    static void assertCovers(String what, SquareMatrix s, double exact) {
        long steps = NijenhuisWilf.steps(s.n());
        for (long d : new long[]{Long.highestOneBit(steps / 4096), steps >>> 2, steps}) {
            double v = run(s, d), actual = Math.abs(v - exact), est = RyserRoundingEstimate.of(s, d).errorOf(v);
            assertTrue(est >= actual, what + ", run chunk " + d + ": estimate " + est + " below the actual error " + actual + " (value " + exact + ")");
            assertTrue(est <= 1000 * Math.max(actual, 0x1p-52 * Math.abs(exact)),
                    what + ", run chunk " + d + ": estimate " + est + " far above the actual error " + actual + " (value " + exact + ")");
        }
    }

    @Test
    void coversErdosRenyiMatrices() {
        // exact arithmetic: the frontier program for sparse matrices, multi-modular Ryser for the denser ones
        for (int n : new int[]{20, 22}) {
            for (double p : new double[]{0.15, 0.3}) {
                SquareMatrix a = RandomSquareMatrices.erdosRenyi(n, p, 11);
                Balancing bal = Balancing.of(a);
                assertCovers("ER " + n + ":" + p, ColumnDegreeSort.apply(bal.scaled()), exactBalanced(a, bal));
            }
        }
    }

    @Test
    void coversMixedSignRegressionMatrices() {
        for (String spec : new String[]{"banded:20:4", "sparse:22:5", "banded:24:6"}) {
            SquareMatrix a = RegressionMatrices.parse(spec);
            Balancing bal = Balancing.of(a);
            assertCovers(spec, ColumnDegreeSort.apply(bal.scaled()), exactBalanced(a, bal));
        }
    }

    @Test
    void coversABlockLeftByElimination() {
        ExactReduction ex = ExactReduction.of(IntegerScaling.ofBinary(RandomSquareMatrices.parse("44:0.08:5")).rows());
        BigInteger[][] block = ex.blocks().stream().filter(x -> x.length >= 20).findFirst().orElseThrow();
        BlockDoubles bd = BlockDoubles.of(block);
        Balancing bal = Balancing.of(bd.matrix());
        double exact = new Fraction(RationalPermanent.block(block, 2).value(), BigInteger.ONE).toScaled()
                .times(ScaledValue.of(1, -bd.exponent() - bal.exponent())).toDouble();
        assertCovers("block " + block.length + " of 44:0.08:5", ColumnDegreeSort.apply(bal.scaled()), exact);
    }

    /**
     * What the estimate re-computes, in closed form: at n = 40, 64 chunks of 2^12 steps in each precision and 32 whole
     * run chunks of drift; a generated kernel rebuilding x every 2^16 steps (D = 2^16) against one x per 2^21-step
     * chunk: 2^21 drift steps instead of 2^26; small blocks (n <= 15) sum every step.
     */
    @Test
    void reComputedStepsFollowTheRunChunk() {
        assertEquals(1L << 18, RyserRoundingEstimate.sampleSteps(40, 1L << 16));
        assertEquals(32L << 16, RyserRoundingEstimate.driftSteps(40, 1L << 16));
        assertEquals(32L << 21, RyserRoundingEstimate.driftSteps(40, 1L << 21));
        assertEquals((1L << 18) * 8.0 + (32L << 16) * 2.0, RyserRoundingEstimate.workInDoubleSteps(40, 1L << 16));
        assertTrue(RyserRoundingEstimate.workInDoubleSteps(40, 1L << 16) / Math.pow(2, 39) < 2e-5);
        // n = 22 (2^21 steps): 256 chunks of 2^7 steps; drift only when the run chunk is longer than a sampled chunk
        assertEquals(256L << 7, RyserRoundingEstimate.sampleSteps(22, 1L << 10));
        assertEquals(32L << 10, RyserRoundingEstimate.driftSteps(22, 1L << 10));
        assertEquals(0, RyserRoundingEstimate.driftSteps(22, 1L << 7));
        assertEquals(1L << 14, RyserRoundingEstimate.sampleSteps(15, 1L << 20));
        assertEquals(0, RyserRoundingEstimate.driftSteps(15, 1L << 20));
    }

    /** The generated kernels' factor scales the rounding part only: all of it without drift, less with it. */
    @Test
    void generatedKernelFactorScalesTheRoundingPart() {
        SquareMatrix s = Balancing.of(RandomSquareMatrices.erdosRenyi(24, 0.5, 6)).scaled();
        long len = RyserRoundingEstimate.chunkLength(24);
        RyserRoundingEstimate plain = RyserRoundingEstimate.of(s, len), scaled = RyserRoundingEstimate.of(s, len, 8);
        assertEquals(8 * plain.sampled(), scaled.sampled(), 1e-12 * scaled.sampled(), "no drift part at D = L");
        RyserRoundingEstimate drift = RyserRoundingEstimate.of(s, len * 16), driftScaled = RyserRoundingEstimate.of(s, len * 16, 8);
        assertTrue(driftScaled.sampled() > drift.sampled() && driftScaled.sampled() <= 8 * drift.sampled() * (1 + 1e-12));
        assertThrows(IllegalArgumentException.class, () -> RyserRoundingEstimate.of(s, len, 0.5));
    }

    @Test
    void sameMatrixSameEstimate() {
        SquareMatrix s = Balancing.of(RandomSquareMatrices.erdosRenyi(24, 0.4, 3)).scaled();
        long d = 1L << 16;
        RyserRoundingEstimate a = RyserRoundingEstimate.of(s, d), b = RyserRoundingEstimate.of(SquareMatrix.of(24, s.rowMajor()), d);
        assertEquals(a, b);
        assertTrue(a.sampled() > 0 && Double.isNaN(a.reference()));
        assertEquals(RyserRoundingEstimate.sampleSteps(24, d), a.sampleSteps());
    }

    @Test
    void doubleDoubleIsNotTrustedBeyondItsPrecision() {
        // rows scaled only, this 18x18 block's terms are ~1e16 times its permanent: the double-double sum is wrong too,
        // and the error estimate (from 1/64 of the steps) must say so
        ExactReduction ex = ExactReduction.of(IntegerScaling.ofBinary(RandomSquareMatrices.parse("40:0.1:1")).rows());
        BigInteger[][] block = ex.blocks().stream().filter(x -> x.length == 18).findFirst().orElseThrow();
        BlockDoubles bd = BlockDoubles.of(block);
        RowScaling rows = RowScaling.of(bd.matrix());
        SquareMatrix s = ColumnDegreeSort.apply(rows.scaled());
        double exact = new Fraction(RationalPermanent.block(block, 2).value(), BigInteger.ONE).toScaled()
                .times(ScaledValue.of(1, -bd.exponent() - rows.exponent())).toDouble();
        RyserRoundingEstimate e = RyserRoundingEstimate.of(s, 1L << 10);
        assertTrue(Double.isNaN(e.reference()), "n = 18: sampled, not the whole double-double sum");
        assertEquals(NijenhuisWilf.steps(18) / 64, e.sampleSteps());
        double dd = new ChunkedJvmPermanent(2).accurate(s), dbl = new ChunkedJvmPermanent(2).sparse(s);
        assertTrue(e.errorOfDoubleDouble(dd) >= Math.abs(dd - exact), "double-double " + dd + " against " + exact + ", estimate " + e.errorOfDoubleDouble(dd));
        assertTrue(e.errorOf(dbl) >= Math.abs(dbl - exact), "double " + dbl + " against " + exact + ", estimate " + e.errorOf(dbl));
        assertTrue(e.cancellation(dbl) > 1e12, "cancellation " + e.cancellation(dbl));
    }
}
