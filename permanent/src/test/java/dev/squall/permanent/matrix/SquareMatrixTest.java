package dev.squall.permanent.matrix;

import static dev.squall.permanent.testing.ExactPermanents.bruteForce;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.io.MatrixMarketException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SquareMatrixTest {
    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        Path f = dir.resolve("a.mtx");
        Files.writeString(f, text);
        return f;
    }

    private MatrixMarketException fails(String text, long line, String fragment) throws IOException {
        Path f = file(text);
        MatrixMarketException e = assertThrows(MatrixMarketException.class, () -> SquareMatrix.read(f));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(f + (line > 0 ? ":" + line : "") + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        return e;
    }

    @Test
    void readsEveryFormTheSharedReaderReads() throws IOException {
        SquareMatrix sym = SquareMatrix.read(file("%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 4\n1 1 2\n2 1 -1\n3 2 0.5\n3 3 4\n"));
        assertArrayEquals(new double[] {2, -1, 0, -1, 0, 0.5, 0, 0.5, 4}, sym.rowMajor(), 0.0);
        // expanded along the first row: 2 (0 * 4 + 0.5 * 0.5) + (-1) (-1 * 4 + 0.5 * 0) = 4.5
        assertEquals(4.5, bruteForce(sym), 0.0);
        SquareMatrix array = SquareMatrix.read(file("%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n"));
        assertArrayEquals(new double[] {1, 3, 2, 4}, array.rowMajor(), 0.0);
        SquareMatrix pattern = SquareMatrix.read(file("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n"));
        assertArrayEquals(new double[] {0, 1, 1, 0}, pattern.rowMajor(), 0.0);
    }

    @Test
    void anEntryBeyondTheDeclaredCountIsAnErrorNotDropped() throws IOException {
        // diag(1, 2, 3) and one line more: a reader that stops at the count would give permanent 0 instead of 6
        String diag = "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n3 3 3\n";
        assertEquals(6, bruteForce(SquareMatrix.read(file(diag))), 0.0);
        fails(diag.replace("3 3 3\n1 1", "3 3 2\n1 1"), 5, "the file declares 2 entries but has more");
    }

    @Test
    void theSharedStrictRulesApply() throws IOException {
        // a few of the rules the permanent's former reader did not apply (MatrixMarketReaderTest has them all)
        fails("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n% comment\n2 2 1\n", 4, "row index '%'");
        fails("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", 3, "above the diagonal");
        fails("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3, "integer value '1.5' is not an integer");
    }

    @Test
    void sizesArePermanentSizesAndAreCheckedBeforeAnyEntry() throws IOException {
        String h = "%%MatrixMarket matrix coordinate real general\n";
        fails(h + "3 4 1\n1 1 x\n", 2, "the matrix is 3 x 4; a permanent needs a square matrix");
        fails(h + "0 0 0\n", 2, "the matrix is empty (0 x 0)");
        fails(h + "5000 5000 1\n1 1 x\n", 2, "order 5000 is larger than 4096");
        fails(h + "3 3 2000000000\n1 1 1\n", 2, "declares 2000000000 entries but its remaining 6 bytes hold at most 1");
        fails(h + "2147483646 2147483646 1\n1 1 1\n", 2, "out of range");
        fails("%%MatrixMarket matrix array real general\n40000 40000\n1\n", 2, "order 40000 is larger than 4096");
    }

    @Test
    void directoriesMissingAndBinaryFiles() throws IOException {
        MatrixMarketException e = assertThrows(MatrixMarketException.class, () -> SquareMatrix.read(dir));
        assertEquals(dir + ": is a directory, not a Matrix Market file", e.getMessage());
        e = assertThrows(MatrixMarketException.class, () -> SquareMatrix.read(dir.resolve("none.mtx")));
        assertEquals(dir.resolve("none.mtx") + ": no such file", e.getMessage());
        Path bin = dir.resolve("bin");
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 0, (byte) 0xff, '\n'});
        e = assertThrows(MatrixMarketException.class, () -> SquareMatrix.read(bin));
        assertTrue(e.getMessage().startsWith(bin + ":1: not a text file"), e.getMessage());
    }

    @Test
    void fromCsrIsTheDenseForm() {
        CsrMatrix c = CsrMatrix.fromCoo(2, 2, new int[] {1, 0}, new int[] {0, 1}, new double[] {3, 5});
        assertArrayEquals(new double[] {0, 5, 3, 0}, SquareMatrix.fromCsr(c).rowMajor(), 0.0);
        CsrMatrix rect = CsrMatrix.fromCoo(2, 3, new int[0], new int[0], new double[0]);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SquareMatrix.fromCsr(rect)).getMessage().contains("2 x 3"));
    }
}
