package dev.squall.spark.cli;

import picocli.CommandLine.Option;

/**
 * Options every {@code squall spark} job shares: where it runs and how tasks get GPUs. Only plain types here: picocli
 * reads this class before anything checks that Spark's jars are on the class path ({@link SparkJobs} holds the code
 * that touches Spark).
 */
public final class SparkOptions {
    @Option(names = "--master", paramLabel = "URL", order = 1,
            description = "Spark master: local[N], local-cluster[W,C,MB] (executor JVMs on this machine), spark://... (default: spark.master as spark-submit sets it, else local[*])")
    String master;

    @Option(names = "--tasks-per-gpu", paramLabel = "K", defaultValue = "1", order = 2,
            description = "at most K concurrent tasks of one executor on one GPU (default: ${DEFAULT-VALUE})")
    int tasksPerGpu;

    @Option(names = "--require-gpu", order = 3, description = "fail a task that gets no GPU instead of running it on --device")
    boolean requireGpu;

    @Option(names = "--local-gpus", negatable = true, defaultValue = "true", fallbackValue = "true", order = 4,
            description = "in local mode, tasks take this machine's CUDA devices round-robin by partition (default); --no-local-gpus: they run on --device")
    boolean localGpus;

    /** The master given, else the one spark-submit set, else {@code local[*]}. */
    String master() {
        if (master != null && !master.isBlank()) return master;
        String submitted = System.getProperty("spark.master");
        return submitted != null && !submitted.isBlank() ? submitted : "local[*]";
    }
}
