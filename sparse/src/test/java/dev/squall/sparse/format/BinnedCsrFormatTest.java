package dev.squall.sparse.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.testing.TestMatrices;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BinnedCsrFormatTest {
    /** The schedule covers every row once and every entry of a long row once, and each row sits in the bin of its length. */
    @Test
    void scheduleIsAPermutationOfTheRows() {
        for (Map.Entry<String, CsrMatrix> e : TestMatrices.all().entrySet()) {
            CsrMatrix a = e.getValue();
            BinnedCsrFormat b = BinnedCsrFormat.from(a, 256, 1024);
            assertSame(a, b.toCsr());
            int[] seen = new int[a.rows()];
            for (int q = 0; q < b.bins(); q++) {
                int lanes = b.binLanes()[q];
                if (lanes == 256) continue;
                int rowsInBin = b.binItem()[q + 1] - b.binItem()[q];
                assertEquals((rowsInBin + 256 / lanes - 1) / (256 / lanes), b.binGroup()[q + 1] - b.binGroup()[q], e.getKey() + " groups of bin " + q);
                for (int t = b.binItem()[q]; t < b.binItem()[q + 1]; t++) {
                    int r = b.rowList()[t];
                    seen[r]++;
                    int len = a.rowLength(r);
                    assertTrue(len <= BinnedCsrFormat.WARP_MAX, e.getKey() + " row " + r);
                    // lanes: the smallest power of two (<= 32) with 2 lanes >= len
                    int want = 1;
                    while (want < 32 && want * 2 < len) want *= 2;
                    assertEquals(want, lanes, e.getKey() + " row " + r + " of length " + len);
                    // the row's entries, copied in schedule order
                    assertEquals(len, b.listPtr()[t + 1] - b.listPtr()[t], e.getKey() + " row " + r + " range");
                    for (int u = 0; u < len; u++) {
                        assertEquals(a.colIndex(a.rowStart(r) + u), b.entryCol()[b.listPtr()[t] + u]);
                        assertEquals(a.value(a.rowStart(r) + u), b.entryVal()[b.listPtr()[t] + u]);
                    }
                }
            }
            int segs = 0;
            for (int j = 0; j < b.longRow().length; j++) {
                int r = b.longRow()[j];
                seen[r]++;
                assertTrue(a.rowLength(r) > BinnedCsrFormat.WARP_MAX);
                // the segments cover the row's entries in order, each at most 1024 long, with nothing between them
                int next = a.rowStart(r);
                for (int s = b.longSeg()[j]; s < b.longSeg()[j + 1]; s++) {
                    assertEquals(r, b.segRow()[s]);
                    int len = b.segEnd()[s] - b.segStart()[s];
                    assertTrue(len > 0 && len <= 1024, e.getKey() + " segment " + s + " length " + len);
                    if (s > b.longSeg()[j]) assertEquals(b.segEnd()[s - 1], b.segStart()[s]);
                    for (int q = 0; q < len; q++) {
                        assertEquals(a.colIndex(next + q), b.entryCol()[b.segStart()[s] + q]);
                        assertEquals(a.value(next + q), b.entryVal()[b.segStart()[s] + q]);
                    }
                    next += len;
                    segs++;
                }
                assertEquals(a.rowStart(r + 1), next, e.getKey() + " row " + r + " fully covered");
            }
            assertEquals(segs, b.segRow().length);
            assertEquals(a.nnz(), b.listPtr()[b.rowList().length], e.getKey() + " every entry copied once");
            for (int i = 0; i < a.rows(); i++) assertEquals(1, seen[i], e.getKey() + " row " + i + " scheduled once");
        }
        BinnedCsrFormat lr = BinnedCsrFormat.from(TestMatrices.all().get("long rows"), 256, 1024);
        assertEquals(3, lr.longRow().length);
        assertEquals(15, lr.segRow().length); // 4500 entries in segments of 1024: 5 each
        assertEquals(256, lr.binLanes()[0], "segments come first");
        for (int q = 1; q < lr.bins(); q++) assertTrue(lr.binLanes()[q] < lr.binLanes()[q - 1], "lanes descend");
    }

    @Test
    void rejectsBadGroupSizes() {
        CsrMatrix a = TestMatrices.all().get("skewed");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedCsrFormat.from(a, 100, 2048)).getMessage().contains("group size 100"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedCsrFormat.from(a, 256, 128)).getMessage().contains("segment length 128"));
    }
}
