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

    /** With a stream bin: rows up to streamMax in blocks of at most 1024 entries and 1024 rows, in row order; other rows as before. */
    @Test
    void streamBinPacksShortRowsIntoBlocks() {
        for (int streamMax : new int[] {32, 64}) {
            for (Map.Entry<String, CsrMatrix> e : TestMatrices.all().entrySet()) {
                CsrMatrix a = e.getValue();
                String what = e.getKey() + " stream <= " + streamMax;
                BinnedCsrFormat b = BinnedCsrFormat.from(a, 256, 2048, streamMax);
                int[] seen = new int[a.rows()];
                for (int r : b.longRow()) seen[r]++;
                int streamRows = 0;
                for (int q = 0; q < b.bins(); q++) {
                    for (int t = b.binItem()[q]; t < b.binItem()[q + 1]; t++) {
                        int r = b.rowList()[t];
                        seen[r]++;
                        int len = a.rowLength(r);
                        assertEquals(len, b.listPtr()[t + 1] - b.listPtr()[t], what + " row " + r);
                        for (int u = 0; u < len; u++) assertEquals(a.colIndex(a.rowStart(r) + u), b.entryCol()[b.listPtr()[t] + u]);
                        if (b.binLanes()[q] == BinnedCsrFormat.STREAM) {
                            assertEquals(b.bins() - 1, q, what + ": the stream bin comes last");
                            assertTrue(len <= streamMax, what + " row " + r);
                            if (t > b.binItem()[q]) assertTrue(b.rowList()[t - 1] < r, what + ": stream rows in row order");
                            streamRows++;
                        } else if (b.binLanes()[q] < 256) {
                            assertTrue(len > streamMax, what + " row " + r + " of length " + len + " in lanes " + b.binLanes()[q]);
                        }
                    }
                }
                for (int i = 0; i < a.rows(); i++) assertEquals(1, seen[i], what + " row " + i + " scheduled once");
                assertEquals(a.nnz(), b.listPtr()[b.rowList().length], what);
                if (streamRows == 0) {
                    assertEquals(0, b.streamItem().length, what);
                    continue;
                }
                int q = b.bins() - 1;
                int[] blk = b.streamItem();
                assertEquals(b.binItem()[q], blk[0], what);
                assertEquals(b.binItem()[q + 1], blk[blk.length - 1], what);
                assertEquals(blk.length - 1, b.binGroup()[q + 1] - b.binGroup()[q], what + ": a group per block");
                for (int k = 0; k + 1 < blk.length; k++) {
                    int rowsIn = blk[k + 1] - blk[k];
                    int entries = b.listPtr()[blk[k + 1]] - b.listPtr()[blk[k]];
                    assertTrue(rowsIn >= 1 && rowsIn <= BinnedCsrFormat.STREAM_BLOCK, what + " block " + k + " rows " + rowsIn);
                    assertTrue(entries <= BinnedCsrFormat.STREAM_BLOCK, what + " block " + k + " entries " + entries);
                    // greedy: the next block's first row would not have fitted
                    if (k + 2 < blk.length && rowsIn < BinnedCsrFormat.STREAM_BLOCK) {
                        assertTrue(entries + a.rowLength(b.rowList()[blk[k + 1]]) > BinnedCsrFormat.STREAM_BLOCK, what + " block " + k + " closed early");
                    }
                }
            }
        }
        // 1333 rows of at most one entry: blocks close at 1024 rows
        BinnedCsrFormat n1 = BinnedCsrFormat.from(TestMatrices.all().get("Nx1"), 256, 2048, 32);
        assertEquals(3, n1.streamItem().length);
        assertEquals(1024, n1.streamItem()[1] - n1.streamItem()[0]);
        assertTrue(n1.describe().contains("stream (<= 32 entries): 1333 rows in 2 blocks of <= 1024"), n1.describe());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedCsrFormat.from(n1.csr(), 256, 2048, 65)).getMessage().contains("at most 64"));
    }

    @Test
    void rejectsBadGroupSizes() {
        CsrMatrix a = TestMatrices.all().get("skewed");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedCsrFormat.from(a, 100, 2048)).getMessage().contains("group size 100"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BinnedCsrFormat.from(a, 256, 128)).getMessage().contains("segment length 128"));
    }
}
