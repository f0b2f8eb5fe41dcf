package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saving, loading, predicting and top-N. */
class FactorsTest {
    @TempDir
    Path dir;

    @Test
    void saveAndLoadGiveTheSameFactors() throws Exception {
        Factors f = Factors.random(7, 5, 3, true, 3.25f, 4);
        f.userBias()[2] = 0.5f;
        Ratings ids = RatingsReader.text(new java.io.ByteArrayInputStream("a x 1\nb y 2\nc z 3\nd x 1\ne y 1\nf v 2\ng w 2\n".getBytes()), "t");
        f.save(dir, ids);
        Factors g = Factors.load(dir);
        assertArrayEquals(f.w(), g.w());
        assertArrayEquals(f.h(), g.h());
        assertArrayEquals(f.userBias(), g.userBias());
        assertArrayEquals(f.itemBias(), g.itemBias());
        assertEquals(3.25f, g.mean());
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), Files.readAllLines(dir.resolve("users.txt")));
        // header + W + H + biases, 4 bytes each
        assertEquals(28 + 4 * (7 * 3 + 5 * 3 + 7 + 5), Files.size(dir.resolve("factors.bin")));
        Factors nb = Factors.random(2, 3, 1, false, 0, 1);
        nb.save(dir.resolve("nb"), null);
        assertEquals(null, Factors.load(dir.resolve("nb")).userBias());
    }

    @Test
    void badFilesAreNamed() throws Exception {
        Files.write(dir.resolve("factors.bin"), "not factors at all, longer than 28 bytes".getBytes());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Factors.load(dir)).getMessage().contains("not a Squall factors file"));
        Factors.random(4, 4, 2, false, 0, 1).save(dir, null);
        byte[] b = Files.readAllBytes(dir.resolve("factors.bin"));
        Files.write(dir.resolve("factors.bin"), java.util.Arrays.copyOf(b, b.length - 4));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Factors.load(dir)).getMessage().contains("file ends before"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Factors.load(dir.resolve("none"))).getMessage().contains("no such file"));
    }

    @Test
    void topNIsTheBestUnseenItemsByBruteForce() {
        Factors f = Factors.random(4, 30, 5, true, 3f, 8);
        Ratings seen = Ratings.of(4, 30, new int[] {1, 1, 2}, new int[] {3, 7, 3}, new float[] {1, 1, 1});
        List<Factors.Scored> top = f.topN(1, 5, seen);
        assertEquals(5, top.size());
        // brute force: the scores of all unseen items, sorted
        java.util.List<float[]> all = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            if (i == 3 || i == 7) continue;
            double p = 3.0 + f.userBias()[1] + f.itemBias()[i];
            for (int q = 0; q < 5; q++) p += (double) f.w()[5 + q] * f.h()[i * 5 + q];
            all.add(new float[] {i, (float) p});
        }
        all.sort((a, b) -> Float.compare(b[1], a[1]));
        for (int t = 0; t < 5; t++) {
            assertEquals((int) all.get(t)[0], top.get(t).item());
            assertEquals(all.get(t)[1], top.get(t).score(), 1e-5);
        }
        assertEquals(28, f.topN(1, 100, seen).size());
        assertThrows(IllegalArgumentException.class, () -> f.topN(4, 1, null));
    }
}
