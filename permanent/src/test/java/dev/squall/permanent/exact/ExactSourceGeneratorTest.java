package dev.squall.permanent.exact;

import dev.squall.permanent.codegen.KernelSourceGenerator.Backend;
import dev.squall.permanent.matrix.SquareMatrix;
import org.junit.jupiter.api.Test;

import static dev.squall.permanent.testing.ExactPermanents.*;
import static org.junit.jupiter.api.Assertions.*;

/** Shape of the generated source; its results are checked on devices in {@link BinaryKernelPermanentTest}. */
class ExactSourceGeneratorTest {
    @Test
    void eachColumnCaseUpdatesExactlyItsRowsAndNoArrayHoldsRowSums() {
        SquareMatrix a = randomBinary(12, 0.3, 1212);
        String src = ExactSourceGenerator.generate(a, Backend.CUDA, 3);
        for (int j = 0; j < a.n(); j++) {
            String line = src.lines().filter(l -> l.startsWith("        case ")).toList().get(j);
            assertTrue(line.startsWith("        case " + j + ":"), line);
            for (int i = 0; i < a.n(); i++) {
                assertEquals(a.get(i, j) != 0, line.contains(" r" + i + " += s;"), "column " + j + " row " + i + ": " + line);
            }
        }
        // row sums are scalars: only plan and partials are indexed
        assertEquals("", src.replaceAll("(plan|partials)\\[", "").lines().filter(l -> l.contains("[")).findFirst().orElse(""));
        // 8-step blocks: 7 static steps, 4 of them odd
        assertEquals(4, src.split("odd \\+= P;", -1).length - 1);
        assertTrue(ExactSourceGenerator.generate(a, Backend.OPENCL, 0).contains("__kernel void perm_exact"));
    }

    @Test
    void rejectsRealEntriesAndBadUnroll() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExactSourceGenerator.generate(SquareMatrix.of(2, new double[] {1, 2, 0, 1}), Backend.CUDA, 0));
        assertTrue(e.getMessage().contains("0/1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ExactSourceGenerator.generate(ones(3), Backend.CUDA, 3));
        assertTrue(e.getMessage().contains("n=3"), e.getMessage());
    }
}
