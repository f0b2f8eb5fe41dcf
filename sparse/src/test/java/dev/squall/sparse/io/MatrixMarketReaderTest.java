package dev.squall.sparse.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MatrixMarketReaderTest {

    static CsrMatrix parse(String text) throws IOException {
        return MatrixMarketReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), "t.mtx");
    }

    /** Independent slow reader: String.split and a dense map, mirroring symmetric entries. */
    static double[] denseBySplitting(Path p) throws IOException {
        List<String> lines = Files.readAllLines(p);
        String[] banner = lines.get(0).toLowerCase().split("\\s+");
        int at = 1;
        while (lines.get(at).startsWith("%") || lines.get(at).isBlank()) at++;
        String[] size = lines.get(at).trim().split("\\s+");
        int rows = Integer.parseInt(size[0]);
        int cols = Integer.parseInt(size[1]);
        double[] d = new double[rows * cols];
        for (int l = at + 1; l < lines.size(); l++) {
            String[] t = lines.get(l).trim().split("\\s+");
            if (t.length < 2) continue;
            int i = Integer.parseInt(t[0]) - 1;
            int j = Integer.parseInt(t[1]) - 1;
            double v = banner[3].equals("pattern") ? 1 : Double.parseDouble(t[2]);
            d[i * cols + j] += v;
            if (!banner[4].equals("general") && i != j) d[j * cols + i] += v;
        }
        return d;
    }

    @Test
    void readsEverySharedMatrixLikeAnIndependentParser() throws IOException {
        for (String name : TestData.MATRICES) {
            Path p = TestData.file(name);
            CsrMatrix a = MatrixMarketReader.read(p);
            assertArrayEquals(denseBySplitting(p), a.toDense(), 0.0, name);
        }
        CsrMatrix bus = MatrixMarketReader.read(TestData.file("1138_bus.mtx"));
        assertEquals(1138, bus.rows());
        assertEquals(2 * 2596 - 1138, bus.nnz()); // 1138_bus stores the full diagonal and the lower triangle
    }

    @Test
    void sumsDuplicatesAndKeepsExplicitZeros() throws IOException {
        CsrMatrix a = parse("""
                %%MatrixMarket matrix coordinate real general
                % a comment
                2 3 5
                1 1 1.5
                1 1 2.5
                2 3 0
                2 2 -1e2
                1 3 0.25
                """);
        assertArrayEquals(new int[] {0, 2, 4}, a.rowPtr());
        assertArrayEquals(new int[] {0, 2, 1, 2}, a.colIdx());
        assertArrayEquals(new double[] {4, 0.25, -100, 0}, a.values(), 0.0);
    }

    @Test
    void fieldsAndSymmetries() throws IOException {
        CsrMatrix pattern = parse("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n");
        assertArrayEquals(new double[] {0, 1, 0, 1, 0, 0, 0, 0, 1}, pattern.toDense(), 0.0);
        CsrMatrix skew = parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 -7\n");
        assertArrayEquals(new double[] {0, 7, -7, 0}, skew.toDense(), 0.0);
        CsrMatrix array = parse("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n0\n6\n");
        assertArrayEquals(new double[] {1, 3, 0, 2, 4, 6}, array.toDense(), 0.0);
        assertEquals(6, array.nnz(), "array files keep every value, zeros included");
        CsrMatrix symArray = parse("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
        assertArrayEquals(new double[] {1, 2, 2, 3}, symArray.toDense(), 0.0);
        CsrMatrix empty = parse("%%MatrixMarket matrix coordinate real general\n0 0 0\n");
        assertEquals(0, empty.rows());
        CsrMatrix crlf = parse("%%MatrixMarket matrix coordinate real general\r\n1 4 1\r\n1 4 3.0\r\n");
        assertArrayEquals(new double[] {0, 0, 0, 3}, crlf.toDense(), 0.0);
    }

    @Test
    void parsesNumbersExactly() throws IOException {
        String[] values = {"0.1", "-2.5e-3", "1.7976931348623157E308", "4.9e-324", "123456789012345678901234", "3", ".5", "1e22", "9007199254740993"};
        StringBuilder sb = new StringBuilder("%%MatrixMarket matrix coordinate real general\n1 " + values.length + " " + values.length + "\n");
        for (int j = 0; j < values.length; j++) sb.append("1 ").append(j + 1).append(' ').append(values[j]).append('\n');
        CsrMatrix a = parse(sb.toString());
        for (int j = 0; j < values.length; j++) assertEquals(Double.parseDouble(values[j]), a.value(j), 0.0, values[j]);
    }

    static void assertFails(String text, int line, String fragment) {
        MatrixMarketException e = assertThrows(MatrixMarketException.class, () -> parse(text));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("t.mtx:" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    @Test
    void badFilesNameFileAndLine() {
        String h = "%%MatrixMarket matrix coordinate real general\n";
        assertFails(h + "3 3 3\n1 1 1\n2 2 2\n", 4, "ends after 2 of the 3");
        assertFails(h + "3 3 1\n1 1 1\n2 2 2\n", 4, "has more");
        assertFails(h + "3 3 2\n1 1 1\n4 2 2\n", 4, "row index 4 is outside 1..3");
        assertFails(h + "3 3 2\n1 1 1\n2 0 2\n", 4, "column index 0");
        assertFails(h + "3 3 2\n1 1 1\n2 2 NaN\n", 4, "'NaN'");
        assertFails(h + "3 3 1\n1 1 Infinity\n", 3, "'Infinity'");
        assertFails(h + "3 3 1\n1 1 1e999\n", 3, "not a finite number");
        assertFails(h + "3 3 1\n1 1 abc\n", 3, "'abc'");
        assertFails(h + "3 3 1\n1 1\n", 3, "missing value");
        assertFails(h + "3 3 1\n1 1 1 1\n", 3, "unexpected '1'");
        assertFails(h + "3 x 1\n", 2, "column count 'x'");
        assertFails(h, 1, "before the size line");
        assertFails("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1, "complex matrices are not supported");
        assertFails("%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian");
        assertFails("%MatrixMarket matrix\n", 1, "expected '%%MatrixMarket");
        assertFails("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 5\n", 3, "above the diagonal");
        assertFails("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 5\n", 3, "diagonal entry");
        assertFails("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 5, "ends after 3 of the 4");
    }
}
