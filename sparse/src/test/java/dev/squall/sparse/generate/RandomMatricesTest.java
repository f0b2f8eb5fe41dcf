package dev.squall.sparse.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import org.junit.jupiter.api.Test;

class RandomMatricesTest {

    @Test
    void bandedHasExactlyTheBand() {
        CsrMatrix a = RandomMatrices.banded(50, 3, 1);
        assertEquals(50 * 7 - 2 * (1 + 2 + 3), a.nnz());
        for (int i = 0; i < 50; i++) {
            for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) assertTrue(Math.abs(a.colIndex(k) - i) <= 3);
        }
    }

    @Test
    void blocksAreDenseAndIncludeTheDiagonal() {
        CsrMatrix a = RandomMatrices.blocks(20, 3, 4, 7);
        assertEquals(20 * 3 * 4 * 3, a.nnz());
        double[] d = a.toDense();
        for (int i = 0; i < 60; i++) assertTrue(d[i * 60 + i] > 0, "diagonal block present");
    }

    @Test
    void skewedRowsHaveTheRequestedLengths() {
        CsrMatrix a = RandomMatrices.skewed(5000, 0.001, 700, 8, 3);
        int longRows = 0;
        for (int i = 0; i < a.rows(); i++) {
            int len = a.rowLength(i);
            assertTrue(len == 8 || len == 700, "row " + i + " has " + len);
            if (len == 700) longRows++;
        }
        assertEquals(5, longRows);
    }

    @Test
    void rmatIsSkewedAndReproducible() {
        CsrMatrix a = RandomMatrices.rmat(12, 8, 11);
        assertTrue(a.sameAs(RandomMatrices.rmat(12, 8, 11)));
        assertTrue(a.nnz() > 4096 * 8 / 2 && a.nnz() <= 4096 * 8, "nnz " + a.nnz());
        int max = 0;
        for (int i = 0; i < a.rows(); i++) max = Math.max(max, a.rowLength(i));
        assertTrue(max > 20 * 8, "power-law: the longest row (" + max + ") is far above the mean (8)");
    }
}
