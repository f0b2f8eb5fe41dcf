package dev.squall.linalg.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ReferenceCholeskyTest {

    /** A = B^T B + n I with B uniform in [-1, 1): symmetric positive definite. */
    static double[] randomSpd(int n, long seed) {
        Random rnd = new Random(seed);
        double[] b = new double[n * n];
        for (int i = 0; i < b.length; i++) {
            b[i] = 2 * rnd.nextDouble() - 1;
        }
        double[] a = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += b[k + i * n] * b[k + j * n];
                }
                a[i + j * n] = s + (i == j ? n : 0);
            }
        }
        return a;
    }

    /** L L^T, column-major. */
    static double[] llt(int n, double[] l) {
        double[] p = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += l[i + k * n] * l[j + k * n];
                }
                p[i + j * n] = s;
            }
        }
        return p;
    }

    static double frobenius(double[] m) {
        double s = 0;
        for (double v : m) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    @Test
    void reconstructsRandomSpdMatrix() {
        int n = 37;
        double[] a = randomSpd(n, 20240611L);
        double[] original = a.clone();
        double[] l = ReferenceCholesky.factor(n, a);

        assertArrayEquals(original, a, 0.0, "input must not be modified");
        for (int j = 0; j < n; j++) {
            assertTrue(l[j + j * n] > 0, "positive diagonal at " + j);
            for (int i = 0; i < j; i++) {
                assertEquals(0.0, l[i + j * n], 0.0, "upper triangle must be zero at (" + i + "," + j + ")");
            }
        }
        double[] r = llt(n, l);
        for (int i = 0; i < r.length; i++) {
            r[i] -= a[i];
        }
        double rel = frobenius(r) / frobenius(a);
        assertTrue(rel < 1e-13, "||LL^T - A|| / ||A|| = " + rel);
    }

    @Test
    void smallClosedForm() {
        double[] l = ReferenceCholesky.factor(2, new double[] {4, 2, 2, 3});
        assertArrayEquals(new double[] {2, 1, 0, Math.sqrt(2)}, l, 1e-15);
    }

    @Test
    void reportsTheFailingPivot() {
        int n = 9;
        int bad = 5;
        // A = L L^T from a known L, then make the pivot of column `bad` negative:
        // the pivots before it are untouched, so the factorisation must fail exactly there.
        Random rnd = new Random(7);
        double[] l = new double[n * n];
        for (int j = 0; j < n; j++) {
            l[j + j * n] = 1 + rnd.nextDouble();
            for (int i = j + 1; i < n; i++) {
                l[i + j * n] = rnd.nextDouble() - 0.5;
            }
        }
        double[] a = llt(n, l);
        double dBad = l[bad + bad * n];
        a[bad + bad * n] -= dBad * dBad + 0.25;

        NotPositiveDefiniteException e =
                assertThrows(NotPositiveDefiniteException.class, () -> ReferenceCholesky.factor(n, a));
        assertEquals(bad, e.pivot());
        assertEquals(-0.25, e.pivotValue(), 1e-12);
        assertTrue(e.getMessage().contains("pivot " + bad), e.getMessage());
    }

    @Test
    void indefiniteAtFirstPivot() {
        NotPositiveDefiniteException e = assertThrows(NotPositiveDefiniteException.class,
                () -> ReferenceCholesky.factor(2, new double[] {0, 1, 1, 2}));
        assertEquals(0, e.pivot());
    }

    @Test
    void rejectsWrongShape() {
        assertThrows(IllegalArgumentException.class, () -> ReferenceCholesky.factor(3, new double[8]));
    }
}
