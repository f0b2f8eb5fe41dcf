package dev.squall.permanent.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RyserPermanentTest {

    /** Sum over all permutations p of prod_i a[i][p(i)], by recursion over rows. */
    static double bruteForce(int n, double[] a) {
        return expand(n, a, 0, new boolean[n]);
    }

    private static double expand(int n, double[] a, int row, boolean[] used) {
        if (row == n) {
            return 1.0;
        }
        double s = 0;
        for (int j = 0; j < n; j++) {
            if (!used[j]) {
                used[j] = true;
                s += a[row * n + j] * expand(n, a, row + 1, used);
                used[j] = false;
            }
        }
        return s;
    }

    @Test
    void matchesBruteForceOnRandomMatrices() {
        Random rnd = new Random(31337);
        for (int n = 1; n <= 8; n++) {
            for (int trial = 0; trial < 5; trial++) {
                double[] a = rnd.doubles((long) n * n, -1, 1).toArray();
                double want = bruteForce(n, a);
                double got = RyserPermanent.of(n, a);
                double scale = Math.max(1e-300, Math.abs(want));
                // cancellation in Ryser's alternating sum costs a few digits for signed entries
                assertEquals(want, got, 1e-10 * Math.max(1.0, scale), "n=" + n + " trial " + trial);
            }
        }
    }

    @Test
    void allOnesMatrixHasPermanentNFactorial() {
        double factorial = 1;
        // Ryser's alternating sum cancels heavily on J_n (terms up to C(n, n/2) (n/2)^n),
        // so the error grows with n: about 1e-12 relative at n = 12.
        for (int n = 1; n <= 12; n++) {
            factorial *= n;
            double[] ones = new double[n * n];
            Arrays.fill(ones, 1.0);
            double got = RyserPermanent.of(n, ones);
            assertEquals(factorial, got, 1e-10 * factorial, "perm(J_" + n + ")");
        }
    }

    @Test
    void smallClosedForms() {
        assertEquals(1.0, RyserPermanent.of(0, new double[0]));
        assertEquals(-3.5, RyserPermanent.of(1, new double[] {-3.5}));
        assertEquals(10.0, RyserPermanent.of(2, new double[] {1, 2, 3, 4}), 1e-15);
        // diagonal matrix: product of the diagonal
        assertEquals(2 * 3 * 5 * 7, RyserPermanent.of(4, new double[] {
            2, 0, 0, 0,
            0, 3, 0, 0,
            0, 0, 5, 0,
            0, 0, 0, 7}), 1e-12);
    }

    @Test
    void rejectsBadShapes() {
        assertThrows(IllegalArgumentException.class, () -> RyserPermanent.of(3, new double[8]));
        assertThrows(IllegalArgumentException.class, () -> RyserPermanent.of(-1, new double[0]));
    }
}
