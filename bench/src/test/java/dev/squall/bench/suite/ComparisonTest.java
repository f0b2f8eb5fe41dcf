package dev.squall.bench.suite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** --compare's rule: slower by more than the larger measured spread is a regression; within it, the same. */
class ComparisonTest {
    private static Comparison.Entry e(String device, double ms, double spread) {
        return new Comparison.Entry("pcg", "hpcg 16x16x16", device, ms, spread);
    }

    @Test
    void slowerBeyondTheSpreadIsFlaggedAndWithinItIsNot() {
        List<Comparison.Entry> old = List.of(e("jvm", 10, 0.10), e("opencl:0:0", 2, 0.02), e("cuda:0", 1, 0.01));
        List<Comparison.Delta> d = Comparison.compare(old, List.of(e("jvm", 11.5, 0.05), e("opencl:0:0", 2.03, 0.01), e("cuda:0", 0.9, 0.01),
                e("absent-before", 5, 0.1)));
        assertEquals(3, d.size(), "only timings both runs hold: " + d);
        assertEquals("regression", d.get(0).verdict(), "15% slower, 10% spread: " + d.get(0));
        assertTrue(d.get(0).regression());
        assertEquals(1.15, d.get(0).ratio(), 1e-12);
        assertEquals(0.10, d.get(0).allowedSpread());
        assertEquals("same", d.get(1).verdict(), "1.5% slower, 2% spread: " + d.get(1));
        assertFalse(d.get(1).regression());
        assertEquals("faster", d.get(2).verdict(), "10% faster, 1% spread: " + d.get(2));
        // the new run's spread counts too: a noisy new run does not flag a slowdown within its own noise
        assertEquals("same", Comparison.compare(List.of(e("jvm", 10, 0.01)), List.of(e("jvm", 11.5, 0.2))).getFirst().verdict());
        assertEquals("regression", Comparison.compare(List.of(e("jvm", 10, 0.01)), List.of(e("jvm", 10.2, 0.01))).getFirst().verdict());
        // a speedup is measured as old / new, so a noisy timing (spread above 100%) can still be faster
        assertEquals("faster", Comparison.compare(List.of(e("jvm", 10, 1.5)), List.of(e("jvm", 2, 0.2))).getFirst().verdict());
        assertEquals("same", Comparison.compare(List.of(e("jvm", 10, 1.5)), List.of(e("jvm", 5, 0.2))).getFirst().verdict());
    }

    @Test
    void aBadFileIsNamed(@TempDir Path dir) throws Exception {
        Path none = dir.resolve("none.json");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Comparison.read(none)).getMessage().contains(none + ": no such file"));
        Path text = Files.writeString(dir.resolve("text.json"), "median 3 ms\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Comparison.read(text)).getMessage().contains(text + ": not JSON"));
        Path stream = Files.writeString(dir.resolve("stream.json"), "{\"command\":\"bench\",\"suite\":\"stream\",\"stream\":[]}");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Comparison.read(stream)).getMessage().contains("no \"rows\" array"));
        Path partial = Files.writeString(dir.resolve("partial.json"), "{\"rows\":[{\"workload\":\"pcg\",\"size\":\"s\",\"device\":\"jvm\",\"median_ms\":1}]}");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Comparison.read(partial)).getMessage().contains("row 0 has no spread"));
    }
}
