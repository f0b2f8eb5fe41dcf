package dev.squall.permanent.cpu;

import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class ChunkedJvmPermanentTest {
    static double sequentialDense(SquareMatrix a) {
        KahanSum acc = new KahanSum();
        new DenseGraySweep(a).sum(0, NijenhuisWilf.steps(a.n()), acc);
        return NijenhuisWilf.finalFactor(a.n()) * acc.value();
    }

    @Test
    void sequentialAndChunkedMatchBruteForceUpToNine() {
        for (int n = 1; n <= 9; n++) {
            for (int t = 0; t < 3; t++) {
                SquareMatrix a = random(n, 0.6, -1, 1, 100 * n + t);
                double want = bruteForce(a);
                double tol = 1e-12 * Math.max(1, Math.abs(want)) / Math.max(Math.abs(want), 1e-300);
                // signed entries cancel: compare absolutely against the scale of the terms
                assertEquals(want, sequentialDense(a), 1e-12, "dense sequential n=" + n);
                assertEquals(want, new ChunkedJvmPermanent(3).dense(a), 1e-12, "dense chunked n=" + n);
                assertEquals(want, new ChunkedJvmPermanent(2).sparse(a), 1e-12, "sparse chunked n=" + n);
                assertEquals(want, new ChunkedJvmPermanent(2).sparse(ColumnDegreeSort.apply(a)), 1e-12, "sorted sparse n=" + n);
                assertTrue(tol > 0);
            }
        }
    }

    @Test
    void allOnesGivesFactorial() {
        for (int n = 1; n <= 16; n++) {
            double want = factorial(n).doubleValue();
            assertRelative(want, new ChunkedJvmPermanent(2).dense(ones(n)), 1e-11, "perm(J_" + n + ")");
        }
    }

    @Test
    void derangementsAndFibonacci() {
        for (int n = 2; n <= 16; n++) {
            assertRelative(derangements(n).doubleValue(), new ChunkedJvmPermanent(2).sparse(onesMinusIdentity(n)), 1e-11, "D_" + n);
            assertRelative(fibonacci(n), new ChunkedJvmPermanent(2).sparse(tridiagonalOnes(n)), 1e-12, "tridiagonal " + n);
        }
    }

    @Test
    void randomRealMatricesAgreeAcrossSweepsAndWithRyserReference() {
        // values in (0,1] as in the paper, dyadic so that the exact permanent is known
        for (int n : new int[] {13, 16, 18}) {
            SquareMatrix a = randomDyadic(n, 0.5, 7 + n);
            double ref = exactDyadic(a);
            double dense = new ChunkedJvmPermanent(2).dense(a);
            double sparse = new ChunkedJvmPermanent(2).sparse(ColumnDegreeSort.apply(a));
            assertRelative(ref, dense, 1e-10, "dense n=" + n);
            assertRelative(ref, sparse, 1e-10, "sparse n=" + n);
        }
    }

    @Test
    void doubleDoubleSweepMatchesExactDyadicPermanents() {
        for (int n : new int[] {1, 2, 7, 15}) {
            SquareMatrix a = randomDyadic(n, 0.4, 70 + n);
            double exact = exactDyadic(a);
            assertRelative(exact, new ChunkedJvmPermanent(2).accurate(a), 1e-15, "double-double n=" + n);
        }
    }

    @Test
    void largerRandomMatricesAgreeBetweenDenseAndSparse() {
        SquareMatrix a = random(24, 0.3, 0, 1, 2024);
        assertRelative(new ChunkedJvmPermanent(2).dense(a), new ChunkedJvmPermanent(2).sparse(ColumnDegreeSort.apply(a)), 1e-10, "n=24");
    }

    @Test
    void resultDoesNotDependOnThreadCount() {
        SquareMatrix a = random(17, 0.4, 0, 1, 99);
        double one = new ChunkedJvmPermanent(1).dense(a);
        assertEquals(one, new ChunkedJvmPermanent(2).dense(a));
        assertEquals(one, new ChunkedJvmPermanent(5).dense(a));
    }

    @Test
    void binaryExactMatchesIndependentCounts() {
        for (int n = 1; n <= 12; n++) {
            SquareMatrix a = randomBinary(n, 0.5, 300 + n);
            BinaryPermanent.Result r = new BinaryPermanent(2).of(a);
            assertTrue(r.exact());
            assertEquals(ryserBig(a), r.value(), "n=" + n);
        }
        SquareMatrix a = randomBinary(22, 0.3, 5);
        assertEquals(matchings(a), new BinaryPermanent(2).of(a).value());
        SquareMatrix b = randomBinary(18, 0.35, 6);
        assertEquals(ryserBig(b), new BinaryPermanent(2).of(b).value());
    }

    @Test
    void binaryExactClosedFormsBeyondDoublePrecision() {
        // 20! and D_21 exceed 2^53: the double path cannot represent them, the integer path must
        BinaryPermanent.Result f = new BinaryPermanent(2).of(ones(20));
        assertEquals(factorial(20), f.value());
        assertTrue(f.fitsLong());
        assertEquals(derangements(21), new BinaryPermanent(2).of(onesMinusIdentity(21)).value());
        assertEquals(BigInteger.valueOf(fibonacci(24)), new BinaryPermanent(2).of(tridiagonalOnes(24)).value());
    }

    @Test
    void bandDpAgreesWithBigIntegerRyser() {
        // the DP is the n = 24 reference below: check it against Ryser where Ryser is affordable
        for (int w = 1; w <= 4; w++) {
            SquareMatrix a = randomBanded(12, w, 0.85, 40 + w);
            assertEquals(ryserBig(a), bandedMatchings(a, w), "w=" + w);
        }
        assertEquals(BigInteger.valueOf(fibonacci(12)), bandedMatchings(tridiagonalOnes(12), 1));
    }

    @Test
    void binaryExactAtOrder24AgainstClosedFormAndBandDp() {
        // D_24 ~ 6.2e23 > 2^64: needs the 128-bit residue (exact below 2^(129-24))
        BinaryPermanent.Result d = new BinaryPermanent(2).of(onesMinusIdentity(24));
        assertTrue(d.exact());
        assertFalse(d.fitsLong());
        assertEquals(derangements(24), d.value());
        SquareMatrix b = randomBanded(24, 5, 0.75, 2425);
        assertEquals(bandedMatchings(b, 5), new BinaryPermanent(2).of(b).value());
    }

    @Test
    void binaryPathRejectsRealEntriesAndSaysWhenNotExact() {
        assertThrows(IllegalArgumentException.class, () -> new BinaryPermanent(1).of(SquareMatrix.of(1, new double[] {0.5})));
        // J_21: 21! > 2^64 but < 2^(129-21): still exact
        BinaryPermanent.Result r = new BinaryPermanent(2).of(ones(21));
        assertTrue(r.exact());
        assertFalse(r.fitsLong());
        assertEquals(factorial(21), r.value());
    }
}
