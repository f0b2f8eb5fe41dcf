package dev.squall.sparse.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CsrMatrixTest {

    @Test
    void sortsColumnsAndSumsDuplicates() {
        // [ 1 0 2 ]
        // [ 0 0 0 ]
        // [ 0 3 0 ]   the 3 arrives as 1 + 2, the 2 as 5 + (-3)
        CsrMatrix a = CsrMatrix.fromCoo(3, 3,
                new int[] {2, 0, 0, 2, 0},
                new int[] {1, 2, 0, 1, 2},
                new double[] {1, 5, 1, 2, -3});
        assertEquals(3, a.nnz());
        assertArrayEquals(new int[] {0, 2, 2, 3}, a.rowPtr());
        assertArrayEquals(new int[] {0, 2, 1}, a.colIdx());
        assertArrayEquals(new double[] {1, 2, 3}, a.values(), 0.0);
        assertArrayEquals(new double[] {1, 0, 2, 0, 0, 0, 0, 3, 0}, a.toDense(), 0.0);
    }

    @Test
    void matchesDenseMatrixBuiltFromShuffledSplitTriplets() {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 20; trial++) {
            int rows = 1 + rnd.nextInt(40);
            int cols = 1 + rnd.nextInt(40);
            double[] dense = new double[rows * cols];
            List<double[]> triplets = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                if (rnd.nextInt(4) == 0) {
                    continue; // empty row
                }
                for (int j = 0; j < cols; j++) {
                    if (rnd.nextDouble() < 0.2) {
                        double v = rnd.nextDouble() * 2 - 1;
                        dense[i * cols + j] = v;
                        if (rnd.nextBoolean()) {
                            double part = rnd.nextDouble();
                            triplets.add(new double[] {i, j, part});
                            triplets.add(new double[] {i, j, v - part});
                        } else {
                            triplets.add(new double[] {i, j, v});
                        }
                    }
                }
            }
            Collections.shuffle(triplets, rnd);
            int m = triplets.size();
            int[] ri = new int[m];
            int[] ci = new int[m];
            double[] vv = new double[m];
            for (int t = 0; t < m; t++) {
                ri[t] = (int) triplets.get(t)[0];
                ci[t] = (int) triplets.get(t)[1];
                vv[t] = triplets.get(t)[2];
            }
            CsrMatrix a = CsrMatrix.fromCoo(rows, cols, ri, ci, vv);

            assertArrayEquals(dense, a.toDense(), 1e-15);
            int[] ptr = a.rowPtr();
            int[] col = a.colIdx();
            assertEquals(0, ptr[0]);
            assertEquals(a.nnz(), ptr[rows]);
            for (int i = 0; i < rows; i++) {
                assertTrue(ptr[i] <= ptr[i + 1]);
                for (int k = ptr[i] + 1; k < ptr[i + 1]; k++) {
                    assertTrue(col[k - 1] < col[k], "columns strictly increasing in row " + i);
                }
            }
        }
    }

    @Test
    void isImmutable() {
        int[] ri = {0, 1};
        int[] ci = {1, 0};
        double[] v = {5, 6};
        CsrMatrix a = CsrMatrix.fromCoo(2, 2, ri, ci, v);
        ri[0] = 1;
        v[0] = 99;
        a.values()[0] = -1;
        a.rowPtr()[1] = 7;
        assertArrayEquals(new double[] {0, 5, 6, 0}, a.toDense(), 0.0);
    }

    @Test
    void emptyMatrices() {
        CsrMatrix a = CsrMatrix.fromCoo(4, 3, new int[0], new int[0], new double[0]);
        assertEquals(0, a.nnz());
        assertArrayEquals(new int[] {0, 0, 0, 0, 0}, a.rowPtr());
        CsrMatrix z = CsrMatrix.fromCoo(0, 0, new int[0], new int[0], new double[0]);
        assertArrayEquals(new int[] {0}, z.rowPtr());
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class,
                () -> CsrMatrix.fromCoo(2, 2, new int[] {2}, new int[] {0}, new double[] {1}));
        assertThrows(IllegalArgumentException.class,
                () -> CsrMatrix.fromCoo(2, 2, new int[] {0}, new int[] {-1}, new double[] {1}));
        assertThrows(IllegalArgumentException.class,
                () -> CsrMatrix.fromCoo(2, 2, new int[] {0, 1}, new int[] {0}, new double[] {1}));
    }

    @Test
    void fromCooTakesTheFirstTripletsOfLongerArrays() {
        // a growing buffer: five slots, three triplets in use, garbage after them
        int[] r = {1, 0, 1, 7, -3};
        int[] c = {2, 0, 2, 9, 99};
        double[] v = {1.5, 2, 0.25, Double.NaN, 5};
        CsrMatrix a = CsrMatrix.fromCoo(2, 3, r, c, v, 3);
        assertTrue(a.sameAs(CsrMatrix.fromCoo(2, 3, new int[] {1, 0, 1}, new int[] {2, 0, 2}, new double[] {1.5, 2, 0.25})));
        assertArrayEquals(new double[] {2, 0, 0, 0, 0, 1.75}, a.toDense(), 0.0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CsrMatrix.fromCoo(2, 3, r, c, v, 6)).getMessage()
                .contains("fewer than the 6 triplets"));
    }
}
