package dev.squall.spark.cli;

import dev.squall.cli.ExitCode;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.spark.bench.SparkOverhead;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code squall spark overhead}: Spark's start-up cost, per-task overhead and chunk scaling on a master. */
@Command(name = "overhead", header = "Spark start-up cost, per-task overhead and chunk scaling.", sortOptions = false,
        description = {"Starts a context (start-up: the context and a first one-task job), then times jobs of 1 and of",
                "--tasks empty tasks (medians of --repeat): the job's fixed cost and the cost of each further task.",
                "Then chunk scaling: one permanent of order --scaling-n on --device (default jvm) cut into",
                "slots x c chunks for c = 1, 2, 4, ... --max-chunks-per-slot, and its time per chunk count: the",
                "T(c) = t_job + c (t_task + t_chunk) + W / slots model of the README, fitted (slope and intercept).", "",
                "Examples:",
                "  squall spark overhead --master local[2] --tasks 32 --repeat 3   # exit 2 without Spark's jars",
                "  squall spark overhead --master local-cluster[1,2,1024] --tasks 16 --scaling-n 20 --json   # exit 2 without Spark's jars"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5, precisions = {"fp64"})
public final class OverheadJob implements Callable<Integer> {
    @Mixin SparkOptions spark;
    @Option(names = "--tasks", defaultValue = "64", order = 10, description = "tasks in the larger empty job (default: ${DEFAULT-VALUE})") int tasks;
    @Option(names = "--scaling-n", defaultValue = "22", order = 11, description = "order of the chunk-scaling permanent; 0: no chunk scaling (default: ${DEFAULT-VALUE})") int scalingN;
    @Option(names = "--max-chunks-per-slot", defaultValue = "16", order = 12, description = "largest chunks per slot of the scaling (default: ${DEFAULT-VALUE})") int maxChunksPerSlot;
    @Mixin RunOptions run;

    /**
     * {@code squall spark overhead --json}: one object.
     *
     * @param command  {@code "spark overhead"}
     * @param overhead start-up, job and per-task costs of empty tasks
     * @param scaling  chunk scaling of a permanent (null with {@code --scaling-n 0})
     */
    public record Result(String command, SparkOverhead.Overhead overhead, SparkOverhead.ChunkScaling scaling) {
    }

    @Override
    public Integer call() {
        SparkCommand.requireSpark();
        SparkJobs.overhead(this);
        return ExitCode.OK;
    }
}
