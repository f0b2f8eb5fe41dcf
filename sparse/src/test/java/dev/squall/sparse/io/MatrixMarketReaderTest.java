package dev.squall.sparse.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.testing.AllocatedBytes;
import dev.squall.sparse.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** Reads {@code text} from a file in {@code dir} and returns the error, asserting the bytes allocated stay under 16 MiB. */
    static MatrixMarketException failsCheaply(Path dir, String text) throws IOException {
        Path f = dir.resolve("t.mtx");
        Files.writeString(f, text);
        long before = AllocatedBytes.ofCurrentThread();
        MatrixMarketException e = assertThrows(MatrixMarketException.class, () -> MatrixMarketReader.read(f));
        long allocated = AllocatedBytes.ofCurrentThread() - before;
        assertTrue(allocated < 16 << 20, allocated + " bytes allocated for: " + e.getMessage());
        assertTrue(e.getMessage().startsWith(f + ":"), e.getMessage());
        return e;
    }

    @Test
    void sizeLinesBeyondTheFileFailAtTheSizeLineWithoutAllocating(@TempDir Path dir) throws IOException {
        String h = "%%MatrixMarket matrix coordinate real general\n";
        MatrixMarketException e = failsCheaply(dir, h + "3 3 2000000000\n1 1 1\n");
        assertEquals(2, e.line());
        assertTrue(e.getMessage().contains("declares 2000000000 entries but its remaining 6 bytes hold at most 1"), e.getMessage());
        e = failsCheaply(dir, "%%MatrixMarket matrix array real general\n40000 40000\n1\n");
        assertEquals(2, e.line());
        assertTrue(e.getMessage().contains("1600000000 array values"), e.getMessage());
        e = failsCheaply(dir, h + "10 10 100000000\n1 1 1\n2 2 2\n");
        assertTrue(e.getMessage().contains("at most 2 "), e.getMessage());
        e = failsCheaply(dir, "%%MatrixMarket matrix coordinate pattern symmetric\n10 10 9999999999\n");
        assertTrue(e.getMessage().contains("entry count 9999999999 is out of range"), e.getMessage());
        e = failsCheaply(dir, h + "2147483646 2147483646 1\n1 1 1\n");
        assertTrue(e.getMessage().contains("dimensions 2147483646 x 2147483646 are out of range (0 .. 2147483638)"),
                e.getMessage());
    }

    @Test
    void aFalseCountOnAStreamGrowsOnlyWithTheEntriesPresent() {
        // a stream has no known length: the count cannot be checked up front, and storage follows the entries read
        long before = AllocatedBytes.ofCurrentThread();
        assertFails("%%MatrixMarket matrix coordinate real general\n10 10 100000000\n1 1 1\n2 2 2\n", 4,
                "file ends after 2 of the 100000000 declared entries");
        long allocated = AllocatedBytes.ofCurrentThread() - before;
        assertTrue(allocated < 16 << 20, allocated + " bytes allocated");
    }

    @Test
    void dimensionsBeyondTheHeapFailAtTheSizeLine() throws IOException {
        String text = "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n";
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        MatrixMarketException e = assertThrows(MatrixMarketException.class, () -> MatrixMarketReader.read(
                new ByteArrayInputStream(bytes), "t.mtx", bytes.length, 1L << 30, MatrixMarketReader.SizeCheck.ANY));
        assertEquals(2, e.line());
        assertTrue(e.getMessage().contains("needs at least 22889 MiB to read, more than the Java heap's limit of 1024 MiB"),
                e.getMessage());
        // the same file within a heap that holds its row pointers is a valid, almost empty matrix
        CsrMatrix a = MatrixMarketReader.read(new ByteArrayInputStream(
                "%%MatrixMarket matrix coordinate real general\n3000000 5 1\n2999999 5 7\n".getBytes(StandardCharsets.US_ASCII)), "t");
        assertEquals(3_000_000, a.rows());
        assertEquals(1, a.nnz());
        assertEquals(7, a.value(0), 0.0);
        assertEquals(4, a.colIndex(0));
        assertEquals(0, a.rowStart(2999998));
        assertEquals(1, a.rowStart(2999999));
    }

    @Test
    void directoriesMissingAndBinaryFilesAreReaderErrors(@TempDir Path dir) throws IOException {
        MatrixMarketException e = assertThrows(MatrixMarketException.class, () -> MatrixMarketReader.read(dir));
        assertEquals(dir + ": is a directory, not a Matrix Market file", e.getMessage());
        assertEquals(0, e.line());
        e = assertThrows(MatrixMarketException.class, () -> MatrixMarketReader.read(dir.resolve("none.mtx")));
        assertEquals(dir.resolve("none.mtx") + ": no such file", e.getMessage());
        byte[] elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, (byte) 0xc3, (byte) 0x28, '\n', 0, 0};
        Path bin = dir.resolve("a.out");
        Files.write(bin, elf);
        e = assertThrows(MatrixMarketException.class, () -> MatrixMarketReader.read(bin));
        assertEquals(1, e.line());
        assertTrue(e.getMessage().contains("not a text file") && e.getMessage().contains("'\\x7fELF\\x02\\x01\\x01\\x00\\xc3('"),
                e.getMessage());
        byte[] noNewline = new byte[200_000];
        java.util.Arrays.fill(noNewline, (byte) 'x');
        Files.write(bin, noNewline);
        e = failsCheaply(dir, new String(noNewline, StandardCharsets.US_ASCII));
        assertEquals(1, e.line());
        assertTrue(e.getMessage().contains("longer than 65536 bytes"), e.getMessage());
        // bytes outside ASCII in an entry are quoted as escapes, not decoded
        byte[] utf8 = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 \u00e9\n".getBytes(StandardCharsets.UTF_8);
        e = assertThrows(MatrixMarketException.class, () -> MatrixMarketReader.read(new ByteArrayInputStream(utf8), "u.mtx"));
        assertEquals("u.mtx:3: value '\\xc3\\xa9' is not a decimal number", e.getMessage());
    }

    @Test
    void duplicatesThatOverflowFailAtTheLineThatOverflows() {
        assertFails("%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1e308\n2 2 1\n1 1 1e308\n1 1 -1\n", 5,
                "duplicate entries at (1, 1) sum to Infinity");
        // comments and blank lines before the entries, a symmetric file (entries mirrored), a blank line among them
        assertFails("%%MatrixMarket matrix coordinate real symmetric\n% c\n\n3 3 4\n3 3 1\n2 1 -1.5e308\n\n3 1 2\n2 1 -1.5e308\n",
                9, "duplicate entries at (2, 1) sum to -Infinity");
    }

    @Test
    void sizeChecksRunAtTheSizeLineBeforeAnyEntry() {
        MatrixMarketReader.SizeCheck square = (r, c) -> {
            if (r != c) throw new IllegalArgumentException("a square matrix is needed, this one is " + r + " x " + c);
        };
        byte[] rect = "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 x\n".getBytes(StandardCharsets.US_ASCII);
        MatrixMarketException e = assertThrows(MatrixMarketException.class,
                () -> MatrixMarketReader.read(new ByteArrayInputStream(rect), "r.mtx", square));
        assertEquals("r.mtx:2: a square matrix is needed, this one is 2 x 3", e.getMessage());
    }

    @Test
    void rejectsWhatALenientReaderAccepts() {
        String h = "%%MatrixMarket matrix coordinate real general\n";
        assertFails(h + "3 3 3\n1 1 1\n2 2 2\n3 3 3\n1 2 4\n", 6, "declares 3 entries but has more");
        assertFails(h + "3 3 2\n1 1 1\n% a comment among the entries\n2 2 2\n", 4, "row index '%'");
        assertFails("%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1, "expected '%%MatrixMarket matrix FORMAT");
        assertFails(h + "1 1 1\n1 1 1f\n", 3, "value '1f' is not a decimal number");
        assertFails(h + "1 1 1\n1 1 1.0d\n", 3, "value '1.0d' is not a decimal number");
        assertFails(h + "1 1 1\n1 1 0x1p3\n", 3, "value '0x1p3' is not a decimal number");
        assertFails("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1.5\n", 3, "integer value '1.5' is not an integer");
        assertFails("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", 3, "above the diagonal");
        assertFails("%%MatrixMarket\fmatrix coordinate real general\n1 1 0\n", 1, "not a text file");
    }
}
