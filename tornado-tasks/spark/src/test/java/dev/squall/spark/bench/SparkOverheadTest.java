package dev.squall.spark.bench;

import dev.squall.spark.SquallSpark;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class SparkOverheadTest {
    /** A short run of the benchmark: start-up, job and per-task costs are measured and consistent. */
    @Test
    void measuresStartupAndPerTaskCost() {
        long t0 = System.nanoTime();
        try (JavaSparkContext sc = SquallSpark.start(SquallSpark.conf("local[2]", "squall-overhead-test"))) {
            double startup = (System.nanoTime() - t0) / 1e9;
            SparkOverhead.Overhead o = SparkOverhead.measure(sc, "local[2]", startup, 16, 3);
            System.out.println(o.toText());
            assertEquals(2, o.slots());
            assertTrue(o.startupSeconds() > 0 && o.jobMillis() > 0 && o.manyMillis() > 0, o.toText());
            assertEquals((o.manyMillis() - o.jobMillis()) / 15, o.perTaskMillis(), 1e-9);
            assertTrue(o.jobMillis() < 1000 * o.startupSeconds() + 5000, "a job costs far less than start-up: " + o.toText());
        }
        assertThrows(IllegalArgumentException.class, () -> SparkOverhead.measure("local[1]", 1, 1));
    }
}
