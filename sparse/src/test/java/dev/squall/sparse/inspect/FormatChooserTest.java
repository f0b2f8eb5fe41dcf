package dev.squall.sparse.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.SellFormat;
import dev.squall.sparse.generate.RandomMatrices;
import dev.squall.sparse.generate.Stencils;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import org.junit.jupiter.api.Test;

class FormatChooserTest {

    @Test
    void statsMatchDirectCounts() {
        CsrMatrix a = Stencils.of(7, 10, 9, 8);
        RowStats s = RowStats.of(a);
        assertEquals(7, s.diagonals());
        assertEquals(7, s.max());
        assertEquals((double) a.nnz() / a.rows(), s.mean(), 1e-12);
        CsrMatrix k = RandomMatrices.skewed(3000, 0.001, 500, 7, 4);
        // the estimate must equal the fill of the format the inspector really builds
        assertEquals((double) k.nnz() / SellFormat.from(k, 32, 512).storedSlots(), RowStats.of(k).sellFill(), 1e-12);
    }

    @Test
    void picksByStructureAndSaysWhy() {
        var jvm = Devices.jvm();
        // CPUs stream CSR rows faster than they walk diagonals
        FormatChooser.Choice stencil = FormatChooser.choose(Stencils.of(27, 12, 11, 10), jvm);
        assertEquals(SpmvFormat.CSR, stencil.format());
        assertTrue(stencil.reason().startsWith("CPU device: CSR row blocks"), stencil.reason());
        assertEquals(SpmvFormat.DIA, FormatChooser.choose(Stencils.of(27, 12, 11, 10), true).format());
        assertTrue(FormatChooser.choose(Stencils.of(27, 12, 11, 10), true).reason().contains("27 diagonals"));
        FormatChooser.Choice skewed = FormatChooser.choose(RandomMatrices.skewed(4000, 0.001, 800, 8, 1), jvm);
        assertEquals(SpmvFormat.CSR_MERGE, skewed.format());
        assertTrue(skewed.reason().contains("longest 800"), skewed.reason());
        assertEquals(SpmvFormat.CSR, FormatChooser.choose(RandomMatrices.blocks(300, 3, 4, 1), jvm).format());
        // long rows that are each a small share of many entries: row blocks stay balanced on CPUs
        CsrMatrix many = RandomMatrices.skewed(60_000, 0.001, 800, 8, 1);
        assertTrue((long) RowStats.of(many).max() * FormatChooser.CPU_SHARE < many.nnz());
        FormatChooser.Choice wide = FormatChooser.choose(many, jvm);
        assertEquals(SpmvFormat.CSR, wide.format());
        assertTrue(wide.reason().contains("skewed rows (longest 800"), wide.reason());
    }

    /** The GPU rules (choose() reads only whether the device is a GPU). */
    @Test
    void gpuRulesPickBinnedCsrForSkewedAndPowerLaw() {
        boolean gpu = true;
        assertEquals(SpmvFormat.DIA, FormatChooser.choose(Stencils.of(27, 12, 11, 10), gpu).format());
        FormatChooser.Choice skewed = FormatChooser.choose(RandomMatrices.skewed(4000, 0.001, 800, 8, 1), gpu);
        assertEquals(SpmvFormat.CSR_BINNED, skewed.format());
        assertTrue(skewed.reason().startsWith("skewed rows (longest 800"), skewed.reason());
        assertEquals(SpmvFormat.CSR_BINNED, FormatChooser.choose(RandomMatrices.rmat(12, 16, 3), gpu).format());
        // equal row lengths, no diagonal or block structure: SELL
        assertEquals(SpmvFormat.SELL, FormatChooser.choose(RandomMatrices.skewed(3000, 0, 1, 9, 5), gpu).format());
        // dense 3x3 blocks: BCSR 3x3 moves 80 bytes per 9 entries against CSR's 108
        FormatChooser.Choice blocks = FormatChooser.choose(RandomMatrices.blocks(300, 3, 4, 1), gpu);
        assertEquals(SpmvFormat.BCSR, blocks.format());
        assertTrue(blocks.reason().startsWith("dense 3x3 blocks (100% full): BCSR moves 7"), blocks.reason());
        // 2x2 blocks half full save no bytes: not BCSR
        assertEquals(SpmvFormat.SELL, FormatChooser.choose(halfFullBlocks(), gpu).format());
    }

    /**
     * One launch or two for csr-binned: segments of rows cut in two or more are counted against the fence
     * budget (rows of one segment are stored directly and cost nothing).
     */
    @Test
    void binnedOneOrTwoLaunchesByFencedSegments() {
        // rows of 3000 entries: two segments of <= 2048 each; rows of 900: one segment, no fence
        CsrMatrix a = RandomMatrices.skewed(20_000, 0.001, 3000, 4, 2);
        CsrMatrix b = RandomMatrices.skewed(20_000, 0.001, 900, 4, 2);
        long fenced = BinnedCsrFormat.fencedSegments(a, BinnedCsrFormat.GPU_SEGMENT);
        long rowsOver = 0;
        for (int i = 0; i < a.rows(); i++) if (a.rowLength(i) > BinnedCsrFormat.GPU_SEGMENT) rowsOver++;
        assertEquals(2 * rowsOver, fenced);
        assertTrue(fenced > 0);
        assertEquals(0, BinnedCsrFormat.fencedSegments(b, BinnedCsrFormat.GPU_SEGMENT));
        FormatChooser.Choice one = FormatChooser.choose(a, true);
        assertEquals(SpmvFormat.CSR_BINNED, one.format());
        assertTrue(one.reason().endsWith(fenced + " long-row segments pay a fence and an atomic (<= 3072, one-segment rows none): one launch"), one.reason());
        FormatChooser.Choice two = FormatChooser.binned(a, RowStats.of(a), true, fenced - 1);
        assertEquals(SpmvFormat.CSR_BINNED_TWO_LAUNCH, two.format());
        assertTrue(two.reason().contains("their sums in a second launch"), two.reason());
        assertEquals(SpmvFormat.CSR_BINNED, FormatChooser.binned(b, RowStats.of(b), true, 0).format());
        assertTrue(FormatChooser.choose(b, true).reason().endsWith("no row needs more than one work-group, one launch"));
    }

    /** 2x2 blocks with the diagonal pair set (2 of 4 slots), 3 blocks per block row at random block columns. */
    static CsrMatrix halfFullBlocks() {
        java.util.Random rnd = new java.util.Random(11);
        int nb = 500;
        java.util.List<int[]> e = new java.util.ArrayList<>();
        for (int br = 0; br < nb; br++) {
            java.util.Set<Integer> cols = new java.util.TreeSet<>(java.util.List.of(br));
            while (cols.size() < 3) cols.add(rnd.nextInt(nb));
            for (int bc : cols) for (int d = 0; d < 2; d++) e.add(new int[] {2 * br + d, 2 * bc + d});
        }
        int[] ri = e.stream().mapToInt(t -> t[0]).toArray();
        int[] ci = e.stream().mapToInt(t -> t[1]).toArray();
        double[] v = rnd.doubles(ri.length, 0.5, 1.5).toArray();
        return CsrMatrix.fromCoo(2 * nb, 2 * nb, ri, ci, v);
    }

    @Test
    void trialsPickARunnableFormatAndAreCached() {
        CsrMatrix a = RandomMatrices.rmat(9, 4, 2);
        FormatChooser.Choice c = FormatChooser.tuned(a, Precision.FP64, Devices.jvm(), 2);
        assertTrue(c.reason().startsWith("fastest in timed trials"), c.reason());
        assertTrue(c.reason().contains("dia unfit"), c.reason());
        assertTrue(c.reason().contains("csr-binned"), c.reason());
        assertSame(c, FormatChooser.tuned(a, Precision.FP64, Devices.jvm(), 2));
    }
}
