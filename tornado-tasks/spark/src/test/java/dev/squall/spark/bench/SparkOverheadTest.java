package dev.squall.spark.bench;

import dev.squall.permanent.Method;
import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class SparkOverheadTest {
    /** A short run of the benchmark: start-up, job and per-task costs are measured and consistent; chunk scaling's points and fit. */
    @Test
    void measuresStartupPerTaskCostAndChunkScaling() {
        long t0 = System.nanoTime();
        try (JavaSparkContext sc = SquallSpark.start(SquallSpark.conf("local[2]", "squall-overhead-test"))) {
            double startup = (System.nanoTime() - t0) / 1e9;
            SparkOverhead.Overhead o = SparkOverhead.measure(sc, "local[2]", startup, 16, 3);
            assertEquals(2, o.slots());
            assertTrue(o.startupSeconds() > 0 && o.jobMs() > 0 && o.manyMs() > 0, o.toText());
            assertEquals((o.manyMs() - o.jobMs()) / 15, o.perTaskMs(), 1e-9);
            assertTrue(o.jobMs() < 1000 * o.startupSeconds() + 5000, "a job costs far less than start-up: " + o.toText());

            SparkOverhead.ChunkScaling s = SparkOverhead.chunkScaling(sc, 16, Method.DENSE, TaskDevices.fallingBackTo("jvm").localGpus(false), 4, 1);
            assertEquals(List.of(1, 2, 4), s.points().stream().map(SparkOverhead.ChunkPoint::chunksPerSlot).toList(), s.toText());
            assertEquals(List.of(2, 4, 8), s.points().stream().map(SparkOverhead.ChunkPoint::chunks).toList(), s.toText());
            // 2^15 steps cut evenly: chunks x steps per chunk is every step
            for (SparkOverhead.ChunkPoint p : s.points()) assertEquals(1L << 15, p.chunks() * p.chunkSteps(), s.toText());
            assertEquals("jvm", s.device());
            assertTrue(s.points().stream().allMatch(p -> p.seconds() > 0) && Double.isFinite(s.perChunkMs()), s.toText());
        }
        assertThrows(IllegalArgumentException.class, () -> SparkOverhead.measure("local[1]", 1, 1));
    }

    /** The fit is least squares: exact on points on a line, and the mean line through noise. */
    @Test
    void lineFitIsLeastSquares() {
        double[] f = SparkOverhead.line(List.of(new SparkOverhead.ChunkPoint(1, 2, 8, 1.5), new SparkOverhead.ChunkPoint(2, 4, 4, 1.75),
                new SparkOverhead.ChunkPoint(4, 8, 2, 2.25)));
        assertEquals(1.25, f[0], 1e-12);
        assertEquals(0.25, f[1], 1e-12);
        // (1, 1), (2, 3), (3, 2): slope 0.5, intercept 1
        double[] g = SparkOverhead.line(List.of(new SparkOverhead.ChunkPoint(1, 1, 1, 1), new SparkOverhead.ChunkPoint(2, 1, 1, 3),
                new SparkOverhead.ChunkPoint(3, 1, 1, 2)));
        assertEquals(1.0, g[0], 1e-12);
        assertEquals(0.5, g[1], 1e-12);
    }
}
