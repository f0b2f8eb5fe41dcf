package dev.squall.spark.cli;

import dev.squall.spark.SquallSpark;
import dev.squall.spark.TaskDevices;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.Option;

/** Options every {@code squall spark} job shares: where it runs and on which devices. */
public final class SparkOptions {
    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master: local[N], local-cluster[W,C,MB], spark://... (default: spark.master as spark-submit sets it, else local[*])")
    String master;

    @Option(names = "--fallback-device", paramLabel = "ID", defaultValue = "jvm",
            description = "Device of a task that gets no GPU: jvm or opencl:P:D (default: ${DEFAULT-VALUE})")
    String fallbackDevice;

    @Option(names = "--tasks-per-gpu", paramLabel = "K", defaultValue = "1",
            description = "At most K concurrent tasks of one executor on one GPU (default: ${DEFAULT-VALUE})")
    int tasksPerGpu;

    @Option(names = "--require-gpu", description = "Fail a task that gets no GPU instead of running it on the fallback device")
    boolean requireGpu;

    @Option(names = "--local-gpus", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "In local mode, tasks take this machine's CUDA devices round-robin by partition (default); --no-local-gpus: the fallback device")
    boolean localGpus;

    String master() {
        if (master != null && !master.isBlank()) return master;
        String submitted = System.getProperty("spark.master");
        return submitted != null && !submitted.isBlank() ? submitted : "local[*]";
    }

    TaskDevices devices() {
        return TaskDevices.fallingBackTo(fallbackDevice).maxTasksPerGpu(tasksPerGpu).requireGpu(requireGpu).localGpus(localGpus);
    }

    JavaSparkContext start(String app) {
        JavaSparkContext sc = SquallSpark.start(SquallSpark.conf(master(), app));
        sc.setLogLevel("WARN");
        return sc;
    }
}
