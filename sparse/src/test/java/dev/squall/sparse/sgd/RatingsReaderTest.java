package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Text, CSV and Matrix Market ratings: dense ids with the originals kept, bad lines named by file and line. */
class RatingsReaderTest {
    @TempDir
    Path dir;

    private static ByteArrayInputStream in(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void textRemapsIdsInOrderOfAppearance() throws Exception {
        Ratings r = RatingsReader.text(in("# comment\n196 242 3 881250949\n186\t302 3.5\n\n196 377 1\n22::377::5::0\n"), "u.data");
        assertEquals(3, r.users());
        assertEquals(3, r.items());
        assertEquals(4, r.size());
        assertEquals("196", r.userId(0));
        assertEquals("186", r.userId(1));
        assertEquals("22", r.userId(2));
        assertEquals("377", r.itemId(2));
        assertEquals(0, r.user(2));
        assertEquals(2, r.item(2));
        assertEquals(3.5f, r.value(1));
        assertEquals(1, r.userIndex("186"));
        assertEquals(-1, r.userIndex("999"));
    }

    @Test
    void csvSkipsItsHeader() throws Exception {
        Path f = dir.resolve("ratings.csv");
        Files.writeString(f, "userId,movieId,rating,timestamp\n1,31,2.5,1260759144\n1,1029,3.0,1260759179\n7,31,4,0\n");
        Ratings r = RatingsReader.read(f);
        assertEquals(2, r.users());
        assertEquals(2, r.items());
        assertEquals(3, r.size());
        assertEquals("1029", r.itemId(1));
        assertEquals(4f, r.value(2));
    }

    @Test
    void matrixMarketDropsEmptyRowsAndKeepsOneBasedIds() throws Exception {
        Path f = dir.resolve("r.mtx");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n4 5 3\n1 2 4.0\n4 2 3.0\n4 5 1.5\n");
        Ratings r = RatingsReader.read(f);
        assertEquals(2, r.users());
        assertEquals(2, r.items());
        assertEquals("4", r.userId(1));
        assertEquals("5", r.itemId(1));
        assertEquals(1.5f, r.value(2));
    }

    @Test
    void badLinesNameFileAndLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.text(in("1 2 3\n1 2\n"), "r.txt"));
        assertEquals("r.txt:2: expected 'user item rating [timestamp]', found 2 field(s): '1 2'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.text(in("1 2 3\n\n4 5 x\n"), "r.txt"));
        assertEquals("r.txt:3: rating 'x' is not a number", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.text(in("1 2 NaN\n"), "r.txt"));
        assertEquals("r.txt:1: rating 'NaN' is not a finite number", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.csv(in("u,i,r\n1,2,3\n1;2;3\n"), "r.csv"));
        assertTrue(e.getMessage().startsWith("r.csv:3: expected user,item,rating"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.csv(in(""), "r.csv"));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.text(in("# nothing\n"), "r.txt"));
        assertEquals("r.txt: no ratings in the file", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.read(dir.resolve("missing.txt")));
        assertTrue(e.getMessage().endsWith("missing.txt: no such file"), e.getMessage());
    }

    @Test
    void emptyMatrixMarketHasNoRatings() throws Exception {
        Path f = dir.resolve("e.mtx");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n4 5 0\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RatingsReader.read(f));
        assertTrue(e.getMessage().contains("no ratings"), e.getMessage());
    }
}
