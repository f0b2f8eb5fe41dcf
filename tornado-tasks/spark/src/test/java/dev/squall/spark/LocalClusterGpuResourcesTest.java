package dev.squall.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.TaskContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Spark's GPU scheduling in {@code local-cluster}: each worker discovers one GPU with address 99 (a discovery script
 * standing in for scripts/gpu-discovery.sh), executors and tasks ask for one. Tasks then see address 99, and since no
 * executor has a cuda:99, a task that asks for its device fails with the error that names both.
 */
class LocalClusterGpuResourcesTest {
    static JavaSparkContext sc;

    @BeforeAll
    static void start() throws IOException {
        Path script = Files.createTempFile("squall-fake-gpu", ".sh", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.writeString(script, "#!/usr/bin/env bash\necho '{\"name\": \"gpu\", \"addresses\": [\"99\"]}'\n");
        script.toFile().deleteOnExit();
        SparkConf conf = SquallSpark.conf("local-cluster[1,1,1024]", "squall-gpu-resources-test")
                .set("spark.worker.resource.gpu.amount", "1")
                .set("spark.worker.resource.gpu.discoveryScript", script.toString())
                .set("spark.executor.resource.gpu.amount", "1")
                .set("spark.task.resource.gpu.amount", "1");
        sc = SquallSpark.start(conf);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.close();
    }

    @Test
    void tasksGetTheDiscoveredAddressAndAMissingDeviceIsAClearError() {
        List<String> seen = sc.parallelize(List.of(0, 1), 2)
                .map(k -> String.join(",", TaskContext.get().resourcesJMap().get("gpu").addresses())).collect();
        assertEquals(List.of("99", "99"), seen);
        TaskDevices devices = TaskDevices.fallingBackTo("jvm");
        SparkException e = assertThrows(SparkException.class, () -> sc.parallelize(List.of(0), 1).map(k -> devices.current().id()).collect());
        assertTrue(e.getMessage().contains("was given GPU address 99 by Spark, but its executor has no device cuda:99"), e.getMessage());
    }
}
