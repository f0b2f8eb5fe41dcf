package dev.squall.sparse.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReferenceSpmvTest {

    /** Random rows x cols matrix with ~density nonzeros and every third row empty, row-major. */
    static double[] randomDense(Random rnd, int rows, int cols, double density) {
        double[] d = new double[rows * cols];
        for (int i = 0; i < rows; i++) {
            if (i % 3 == 1) {
                continue;
            }
            for (int j = 0; j < cols; j++) {
                if (rnd.nextDouble() < density) {
                    d[i * cols + j] = rnd.nextGaussian();
                }
            }
        }
        return d;
    }

    /** COO triplets of the nonzeros of d, in reverse order so the builder has to sort. */
    static CsrMatrix fromDense(double[] d, int rows, int cols) {
        int m = (int) Arrays.stream(d).filter(v -> v != 0).count();
        int[] ri = new int[m];
        int[] ci = new int[m];
        double[] vv = new double[m];
        int t = m;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                if (d[i * cols + j] != 0) {
                    t--;
                    ri[t] = i;
                    ci[t] = j;
                    vv[t] = d[i * cols + j];
                }
            }
        }
        return CsrMatrix.fromCoo(rows, cols, ri, ci, vv);
    }

    static double[] denseProduct(double[] d, int rows, int cols, double[] x) {
        double[] y = new double[rows];
        for (int i = 0; i < rows; i++) {
            double s = 0;
            for (int j = 0; j < cols; j++) {
                s += d[i * cols + j] * x[j];
            }
            y[i] = s;
        }
        return y;
    }

    static double relativeError(double[] got, double[] want) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < want.length; i++) {
            num += (got[i] - want[i]) * (got[i] - want[i]);
            den += want[i] * want[i];
        }
        return den == 0 ? Math.sqrt(num) : Math.sqrt(num / den);
    }

    @Test
    void matchesDenseProductOnRandomMatrices() {
        Random rnd = new Random(1234);
        int[][] shapes = {{1, 1}, {7, 3}, {3, 7}, {50, 50}, {200, 120}, {64, 500}};
        for (int[] shape : shapes) {
            int rows = shape[0];
            int cols = shape[1];
            double[] d = randomDense(rnd, rows, cols, 0.1);
            CsrMatrix a = fromDense(d, rows, cols);
            double[] x = rnd.doubles(cols, -1, 1).toArray();

            double[] want = denseProduct(d, rows, cols, x);
            double[] got = ReferenceSpmv.multiply(a, x);
            double err = relativeError(got, want);
            assertTrue(err < 1e-14, rows + "x" + cols + ": relative error " + err);
            for (int i = 1; i < rows; i += 3) {
                assertEquals(0.0, got[i], 0.0, "empty row " + i);
            }
        }
    }

    @Test
    void alphaBetaForm() {
        Random rnd = new Random(99);
        int rows = 30;
        int cols = 20;
        double[] d = randomDense(rnd, rows, cols, 0.3);
        CsrMatrix a = fromDense(d, rows, cols);
        double[] x = rnd.doubles(cols, -1, 1).toArray();
        double[] y0 = rnd.doubles(rows, -1, 1).toArray();

        double[] y = y0.clone();
        ReferenceSpmv.multiply(-2.0, a, x, 0.5, y);
        double[] ax = denseProduct(d, rows, cols, x);
        double[] want = new double[rows];
        for (int i = 0; i < rows; i++) {
            want[i] = -2.0 * ax[i] + 0.5 * y0[i];
        }
        assertArrayEquals(want, y, 1e-13);

        double[] poisoned = new double[rows];
        Arrays.fill(poisoned, Double.NaN);
        ReferenceSpmv.multiply(1.0, a, x, 0.0, poisoned);
        assertArrayEquals(ax, poisoned, 1e-13);
    }

    @Test
    void rejectsMismatchedVectors() {
        CsrMatrix a = CsrMatrix.fromCoo(2, 3, new int[] {0}, new int[] {2}, new double[] {1});
        assertThrows(IllegalArgumentException.class, () -> ReferenceSpmv.multiply(a, new double[2]));
        assertThrows(IllegalArgumentException.class,
                () -> ReferenceSpmv.multiply(1, a, new double[3], 0, new double[3]));
    }
}
