package dev.squall.hmatrix.points;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PointsCsvTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void readsPointsSkippingHeaderCommentsAndBlankLines() throws IOException {
        Path f = write("p.csv", "x, y, z\n# a comment\n0,1,2\n\n 3.5 , -4e-1, 5\n");
        PointCloud p = PointsCsv.read(f);
        assertEquals(3, p.dim());
        assertEquals(2, p.size());
        assertEquals(-0.4, p.coord(1, 1));
        assertEquals(2.0, p.coord(0, 2));
        PointCloud q = PointsCsv.read(write("q.csv", "1,2\n3,4\n5,6\n"));
        assertEquals(2, q.dim());
        assertEquals(3, q.size());
        assertEquals(6.0, q.coord(2, 1));
    }

    @Test
    void badLinesAreReportedWithFileAndLine() throws IOException {
        Path f = write("bad.csv", "0,0\n1,1\n2,x\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PointsCsv.read(f));
        assertTrue(e.getMessage().startsWith(f + ":3:") && e.getMessage().contains("'x'"), e.getMessage());
        Path g = write("short.csv", "0,0,0\n1,1\n");
        e = assertThrows(IllegalArgumentException.class, () -> PointsCsv.read(g));
        assertTrue(e.getMessage().startsWith(g + ":2:") && e.getMessage().contains("expected 3"), e.getMessage());
        Path h = write("four.csv", "# c\n1,2,3,4\n");
        e = assertThrows(IllegalArgumentException.class, () -> PointsCsv.read(h));
        assertTrue(e.getMessage().startsWith(h + ":2:"), e.getMessage());
        Path i = write("inf.csv", "1,2\n1,Infinity\n");
        e = assertThrows(IllegalArgumentException.class, () -> PointsCsv.read(i));
        assertTrue(e.getMessage().startsWith(i + ":2:") && e.getMessage().contains("not finite"), e.getMessage());
        Path empty = write("empty.csv", "# nothing\n");
        e = assertThrows(IllegalArgumentException.class, () -> PointsCsv.read(empty));
        assertTrue(e.getMessage().contains("no points"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PointsCsv.read(dir.resolve("missing.csv")));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }
}
