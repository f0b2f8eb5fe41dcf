package dev.squall.permanent.codegen;

import dev.squall.permanent.matrix.SquareMatrix;
import org.junit.jupiter.api.Test;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

class KernelSourceGeneratorTest {
    @Test
    void literalsRoundTrip() {
        java.util.Random r = new java.util.Random(3);
        for (int k = 0; k < 1000; k++) {
            double v = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20);
            String lit = KernelSourceGenerator.lit(v).replace("(", "").replace(")", "");
            assertEquals(v, Double.parseDouble(lit));
        }
    }

    @Test
    void pureRegKeepsEveryChangingRowInNamedRegisters() {
        SquareMatrix a = random(10, 0.4, 0, 1, 12);
        HybridPartition p = HybridPartition.allRegisters(a);
        String cl = KernelSourceGenerator.generate(a, p, KernelSourceGenerator.Backend.OPENCL);
        String cu = KernelSourceGenerator.generate(a, p, KernelSourceGenerator.Backend.CUDA);
        assertTrue(cl.contains("__kernel void perm_gen"));
        assertTrue(cu.contains("extern \"C\" __global__ void perm_gen"));
        assertFalse(cl.contains("xg[(i64)"), "no global rows in PureReg");
        for (int i = 0; i < 10; i++) {
            // declared once, set from the matrix at the start of every segment
            if (p.rowKind()[i] == HybridPartition.REGISTER) assertTrue(cl.matches("(?s).*  double [r0-9, ]*\\br" + i + "\\b.*") && cl.contains("    r" + i + " = "), "row " + i);
        }
    }

    @Test
    void partitionRowsAreConsistentWithColumns() {
        SquareMatrix a = ColumnOrdering.apply(random(30, 0.1, 0, 1, 5), ColumnOrdering.greedy(random(30, 0.1, 0, 1, 5)));
        for (int c = 0; c < 29; c++) {
            HybridPartition p = HybridPartition.withRegisterColumns(a, c);
            for (int i = 0; i < 30; i++) {
                boolean inRegCol = false, inOther = false;
                for (int j = 0; j < 29; j++) {
                    if (a.get(i, j) == 0) continue;
                    if (j < c) inRegCol = true; else inOther = true;
                }
                int want = inRegCol ? HybridPartition.REGISTER : inOther ? HybridPartition.GLOBAL : HybridPartition.CONSTANT;
                assertEquals(want, p.rowKind()[i], "c=" + c + " row " + i);
            }
        }
        assertTrue(HybridPartition.modelledThroughput(a, HybridPartition.choose(a)) >= HybridPartition.modelledThroughput(a, HybridPartition.allRegisters(a)));
    }

    @Test
    void greedyOrderingIsAPermutationStartingWithTheSparsestColumn() {
        SquareMatrix a = random(25, 0.2, 0, 1, 8);
        int[] order = ColumnOrdering.greedy(a);
        assertArrayEquals(java.util.stream.IntStream.range(0, 25).toArray(), java.util.Arrays.stream(order).sorted().toArray());
        int minDeg = Integer.MAX_VALUE;
        for (int j = 0; j < 25; j++) {
            int d = 0;
            for (int i = 0; i < 25; i++) if (a.get(i, j) != 0) d++;
            minDeg = Math.min(minDeg, d);
        }
        int first = 0;
        for (int i = 0; i < 25; i++) if (a.get(i, order[0]) != 0) first++;
        assertEquals(minDeg, first);
    }
}
