package dev.squall.spark.sparse;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.Stencils;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

class RowBlocksTest {
    @Test
    void blocksReproduceTheProductAndTheirHalosAgree() {
        CsrMatrix a = Stencils.hpcg(6, 5, 4);
        double[] x = new Random(3).ints(a.rows(), -8, 9).asDoubleStream().toArray();
        double[] want = new double[a.rows()];
        for (int i = 0; i < a.rows(); i++) for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) want[i] += a.value(k) * x[a.colIndex(k)];
        for (int parts : new int[] {1, 3, 7}) {
            List<RowBlock> blocks = RowBlocks.split(a, parts);
            double[][] sent = new double[parts][];
            for (RowBlock b : blocks) sent[b.id()] = b.sendValues(slice(x, b));
            int covered = 0;
            for (RowBlock b : blocks) {
                assertEquals(covered, b.firstRow());
                covered += b.rows();
                double[] ext = b.extend(slice(x, b), sent);
                assertArrayEquals(b.extendFromGlobal(x), ext, 0.0, "halo from send lists, block " + b.id() + " of " + parts);
                CsrMatrix local = b.local();
                for (int i = 0; i < b.rows(); i++) {
                    double s = 0; // integers: exact in any order
                    for (int k = local.rowStart(i); k < local.rowStart(i + 1); k++) s += local.value(k) * ext[local.colIndex(k)];
                    assertEquals(want[b.firstRow() + i], s, 0.0, "row " + (b.firstRow() + i));
                }
                for (int h = 0; h < b.halo().length; h++) {
                    assertTrue(b.halo()[h] < b.firstRow() || b.halo()[h] >= b.firstRow() + b.rows(), "halo column inside its block");
                }
            }
            assertEquals(a.rows(), covered);
            if (parts == 1) assertEquals(0, blocks.get(0).halo().length, "a single block has no halo");
            else assertTrue(blocks.get(1).halo().length > 0, "an inner block of a stencil has a halo");
        }
    }

    @Test
    void badCutsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> RowBlocks.split(Stencils.hpcg(2, 2, 2), 9));
        assertThrows(IllegalArgumentException.class, () -> RowBlocks.split(CsrMatrix.of(2, 3, new int[] {0, 0, 0}, new int[0], new double[0]), 1));
    }

    private static double[] slice(double[] x, RowBlock b) {
        double[] s = new double[b.rows()];
        System.arraycopy(x, b.firstRow(), s, 0, b.rows());
        return s;
    }
}
