package dev.squall.spark;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.*;

class SquallSparkTest {
    @Test
    void localMastersGetLoopbackDriverAndExecutorOptions() {
        SparkConf c = SquallSpark.conf("local[2]", "app");
        assertEquals("local[2]", c.get("spark.master"));
        assertEquals("127.0.0.1", c.get("spark.driver.host"));
        assertEquals(SparkJvmOptions.joined(), c.get("spark.executor.extraJavaOptions"));
        assertEquals("PCI_BUS_ID", c.get("spark.executorEnv.CUDA_DEVICE_ORDER"));
        assertFalse(c.contains("spark.executor.extraClassPath"), "local mode has no executor JVMs");
    }

    @Test
    void localClusterExecutorsGetThisClassPathAndASparkHome() {
        SparkConf c = SquallSpark.conf("local-cluster[2,1,1024]", "app");
        assertEquals(SquallSpark.absoluteClassPath(System.getProperty("java.class.path")), c.get("spark.executor.extraClassPath"));
        // executors start in their worker's folder: relative entries are made absolute against this JVM's folder
        String here = java.nio.file.Path.of("").toAbsolutePath().toString();
        assertEquals(here + "/a.jar:/b/c.jar:" + here + "/d", SquallSpark.absoluteClassPath("a.jar:/b/c.jar::./d"));
        assertTrue(Files.isDirectory(java.nio.file.Path.of(c.get("spark.home"), "jars")));
        assertEquals("2.13", c.get("spark.executorEnv.SPARK_SCALA_VERSION"));
    }

    /** A cluster master (as spark-submit gives it): the user's options stay, after Squall's; the driver is not pinned. */
    @Test
    void clusterMastersKeepTheUsersSettings() {
        String key = "spark.executor.extraJavaOptions";
        String before = System.getProperty(key);
        System.setProperty(key, "-Dmine=1");
        try {
            SparkConf c = SquallSpark.conf("spark://node:7077", "app");
            assertEquals(SparkJvmOptions.joined() + " -Dmine=1", c.get(key));
            assertFalse(c.contains("spark.driver.host"));
        } finally {
            if (before == null) System.clearProperty(key);
            else System.setProperty(key, before);
        }
    }
}
