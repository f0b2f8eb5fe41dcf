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

    @Test
    void erdosRenyiHasTheRequestedDensityAndValueRange() {
        CsrMatrix a = RandomMatrices.erdosRenyi(300, 200, 0.05, 4);
        assertTrue(a.sameAs(RandomMatrices.erdosRenyi(300, 200, 0.05, 4)), "a seed gives one matrix");
        assertTrue(!a.sameAs(RandomMatrices.erdosRenyi(300, 200, 0.05, 5)), "another seed another");
        // 60,000 positions at p = 0.05: mean 3000, standard deviation ~53
        assertTrue(Math.abs(a.nnz() - 3000) < 5 * 53, "nnz " + a.nnz());
        int[] perColumn = new int[200];
        for (int k = 0; k < a.nnz(); k++) {
            assertTrue(a.value(k) >= 0 && a.value(k) < 1, "value " + a.value(k));
            perColumn[a.colIndex(k)]++;
        }
        // the gaps run across row ends: the first and last columns fill like the others (mean 15 of 300 rows each)
        int firstAndLastFive = 0;
        for (int c = 0; c < 5; c++) firstAndLastFive += perColumn[c] + perColumn[199 - c];
        assertTrue(Math.abs(firstAndLastFive - 150) < 5 * 12, "first and last columns hold " + firstAndLastFive);
        CsrMatrix full = RandomMatrices.erdosRenyi(7, 9, 1.0, 1);
        assertEquals(63, full.nnz(), "density 1 fills every position");
        assertEquals(0, RandomMatrices.erdosRenyi(0, 5, 0.5, 1).nnz());
        assertTrue(assertThrowsMessage(() -> RandomMatrices.erdosRenyi(5, 5, 0, 1)).contains("density must be in (0, 1]"));
        assertTrue(assertThrowsMessage(() -> RandomMatrices.erdosRenyi(100_000, 100_000, 0.5, 1)).contains("more than a CSR matrix holds"));
        assertTrue(assertThrowsMessage(() -> RandomMatrices.rmat(27, 16, 1)).contains("more than a CSR matrix holds"));
        // more rows than the heap holds row pointers for: refused before anything is allocated
        assertTrue(assertThrowsMessage(() -> RandomMatrices.banded(Integer.MAX_VALUE - 9, 0, 1)).contains("Java heap's limit"));
    }

    private static String assertThrowsMessage(org.junit.jupiter.api.function.Executable call) {
        return org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, call).getMessage();
    }
}
