package dev.squall.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class LocalClusterTest {
    static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = SquallSpark.start(SquallSpark.conf("local-cluster[2,1,1024]", "squall-local-cluster-test"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.close();
    }

    @Test
    void executorsAreSeparateJvms() {
        long driver = ProcessHandle.current().pid();
        List<Long> pids = sc.parallelize(List.of(0, 1, 2, 3), 4).map(k -> ProcessHandle.current().pid()).collect();
        for (long p : pids) assertNotEquals(driver, p);
    }
}
