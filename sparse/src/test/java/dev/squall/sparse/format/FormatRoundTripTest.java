package dev.squall.sparse.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.generate.RandomMatrices;
import dev.squall.sparse.testing.TestMatrices;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every format converts back to exactly the CSR it was built from (pattern, explicit zeros, values bit for bit). */
class FormatRoundTripTest {

    @Test
    void everyFormatRoundTripsExactly() {
        for (Map.Entry<String, CsrMatrix> e : TestMatrices.all().entrySet()) {
            CsrMatrix a = e.getValue();
            String n = e.getKey();
            assertTrue(a.sameAs(CooFormat.from(a).toCsr()), "coo " + n);
            try {
                assertTrue(a.sameAs(EllFormat.from(a).toCsr()), "ell " + n);
            } catch (IllegalArgumentException ex) {
                assertTrue(ex.getMessage().contains("ELL would pad"), ex.getMessage());
            }
            assertTrue(a.sameAs(HybFormat.from(a).toCsr()), "hyb " + n);
            for (int w : new int[] {0, 1, 3}) assertTrue(a.sameAs(HybFormat.from(a, w).toCsr()), "hyb width " + w + " " + n);
            for (int[] cs : new int[][] {{32, 512}, {4, 1}, {8, 24}, {1, 1}}) {
                assertTrue(a.sameAs(SellFormat.from(a, cs[0], cs[1]).toCsr()), "sell " + cs[0] + "-" + cs[1] + " " + n);
            }
            for (int[] rc : new int[][] {{1, 1}, {2, 3}, {4, 4}, {3, 1}}) {
                assertTrue(a.sameAs(BcsrFormat.from(a, rc[0], rc[1]).toCsr()), "bcsr " + rc[0] + "x" + rc[1] + " " + n);
            }
            assertTrue(a.sameAs(BcsrFormat.from(a, 8).toCsr()), "bcsr chosen " + n);
            for (int beta : new int[] {1, 4, 64}) assertTrue(a.sameAs(CsbFormat.from(a, beta).toCsr()), "csb " + beta + " " + n);
            assertTrue(a.sameAs(CsbFormat.from(a).toCsr()), "csb chosen " + n);
            try {
                assertTrue(a.sameAs(DiaFormat.from(a).toCsr()), "dia " + n);
            } catch (IllegalArgumentException ex) {
                assertTrue(ex.getMessage().contains("DIA would store"), ex.getMessage());
            }
        }
    }

    @Test
    void explicitZerosSurviveEveryFormat() {
        CsrMatrix a = CsrMatrix.fromCoo(3, 3, new int[] {0, 1, 2, 2}, new int[] {1, 1, 0, 2}, new double[] {0, 5, 0, -0.0});
        assertEquals(4, DiaFormat.from(a).toCsr().nnz());
        assertEquals(4, EllFormat.from(a).toCsr().nnz());
        assertEquals(4, SellFormat.from(a, 2, 2).toCsr().nnz());
        assertEquals(4, BcsrFormat.from(a, 2, 2).toCsr().nnz());
        assertTrue(a.sameAs(BcsrFormat.from(a, 3, 3).toCsr()));
        assertTrue(a.sameAs(DiaFormat.from(a).toCsr()));
        assertEquals(4, CsbFormat.from(a, 2).toCsr().nnz());
    }

    /** CSB: in-block coordinates packed as row << 16 | column, blocks by block row then column, the column walk by block column. */
    @Test
    void csbLayoutIsWhatThePaperDescribes() {
        // rows [1 5 0 0 0], [7 2 0 0 8], [0 0 3 6 0], [0 0 0 4 0], [9 0 0 0 0] with 2x2 blocks (3 x 3 block grid)
        CsrMatrix a = CsrMatrix.fromCoo(5, 5, new int[] {0, 0, 1, 1, 1, 2, 2, 3, 4}, new int[] {0, 1, 0, 1, 4, 2, 3, 3, 0},
                new double[] {1, 5, 7, 2, 8, 3, 6, 4, 9});
        CsbFormat c = CsbFormat.from(a, 2);
        assertEquals(java.util.List.of(0, 2, 3, 4), java.util.Arrays.stream(c.blockRowPtr()).boxed().toList());
        assertEquals(java.util.List.of(0, 2, 1, 0), java.util.Arrays.stream(c.blockCol()).boxed().toList());
        assertEquals(java.util.List.of(0, 4, 5, 8, 9), java.util.Arrays.stream(c.blockStart()).boxed().toList());
        // block (0, 0): (0,0)=1 (0,1)=5 (1,0)=7 (1,1)=2; block (0, 2): (1,0)=8
        assertEquals(java.util.List.of(0, 1, 1 << 16, 1 << 16 | 1, 1 << 16), java.util.Arrays.stream(c.packed()).boxed().toList().subList(0, 5));
        assertEquals(java.util.List.of(1.0, 5.0, 7.0, 2.0, 8.0, 3.0, 6.0, 4.0, 9.0), java.util.Arrays.stream(c.val()).boxed().toList());
        // by block column: column 0 holds blocks 0 (row 0) and 3 (row 2), column 1 block 2, column 2 block 1
        assertEquals(java.util.List.of(0, 3, 2, 1), java.util.Arrays.stream(c.colBlocks()).boxed().toList());
        assertEquals(java.util.List.of(0, 2, 3, 4), java.util.Arrays.stream(c.colBlockPtr()).boxed().toList());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CsbFormat.from(a, 3)).getMessage().contains("power of two"));
    }

    @Test
    void layoutsAreWhatTheFormatsPromise() {
        // rows [1 5 0 0], [7 2 0 0], [0 0 3 6], [0 0 0 4] (the example of Venkat's thesis)
        CsrMatrix a = CsrMatrix.fromCoo(4, 4, new int[] {0, 0, 1, 1, 2, 2, 3}, new int[] {0, 1, 0, 1, 2, 3, 3},
                new double[] {1, 5, 7, 2, 3, 6, 4});
        DiaFormat dia = DiaFormat.from(a);
        assertEquals(java.util.List.of(-1, 0, 1), java.util.Arrays.stream(dia.offsets()).boxed().toList());
        assertEquals(java.util.List.of(0.0, 7.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 6.0, 0.0),
                java.util.Arrays.stream(dia.val()).boxed().toList());
        EllFormat ell = EllFormat.from(a);
        assertEquals(2, ell.width());
        assertEquals(java.util.List.of(1.0, 7.0, 3.0, 4.0, 5.0, 2.0, 6.0, 0.0), java.util.Arrays.stream(ell.val()).boxed().toList());
        SellFormat sell = SellFormat.from(a, 2, 4); // sorted by length: rows 0, 1, 2 (len 2) then 3 (len 1)
        assertEquals(java.util.List.of(0, 1, 2, 3), java.util.Arrays.stream(sell.perm()).boxed().toList());
        assertEquals(java.util.List.of(0, 4, 8), java.util.Arrays.stream(sell.chunkPtr()).boxed().toList());
    }

    @Test
    void bcsrInspectorFindsTheBlockSize() {
        CsrMatrix a = dev.squall.sparse.generate.RandomMatrices.blocks(40, 3, 4, 5);
        BcsrFormat b = BcsrFormat.from(a, 8);
        assertEquals(3, b.r());
        assertEquals(3, b.c());
        assertEquals(a.nnz(), 9 * b.blocks(), "dense 3x3 blocks: no padding");
        // a scattered matrix gains nothing from blocks: 1x1
        BcsrFormat s = BcsrFormat.from(dev.squall.sparse.testing.TestMatrices.randomSparse(new java.util.Random(2), 300, 300, 0.01, 0), 8);
        assertEquals(1, s.r() * s.c());
        assertThrows(IllegalArgumentException.class, () -> BcsrFormat.from(a, 0, 2));
    }

    @Test
    void hybWidthFollowsBellAndGarland() {
        CsrMatrix s = RandomMatrices.skewed(9000, 0.001, 400, 6, 2);
        HybFormat h = HybFormat.from(s);
        assertEquals(6, h.ell().width());
        assertEquals(9 * (400 - 6), h.coo().nnz());
    }

    @Test
    void refusesHopelessPadding() {
        CsrMatrix scattered = RandomMatrices.rmat(11, 4, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiaFormat.from(scattered));
        assertTrue(e.getMessage().contains("use csr, sell or hyb"), e.getMessage());
        CsrMatrix skewed = RandomMatrices.skewed(5000, 0.001, 2000, 4, 1);
        IllegalArgumentException f = assertThrows(IllegalArgumentException.class, () -> EllFormat.from(skewed));
        assertTrue(f.getMessage().contains("longest row 2000"), f.getMessage());
    }
}
