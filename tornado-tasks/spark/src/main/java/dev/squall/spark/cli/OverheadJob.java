package dev.squall.spark.cli;

import dev.squall.spark.bench.SparkOverhead;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code squall spark overhead}: Spark's start-up cost and per-task overhead on a master. */
@Command(name = "overhead", mixinStandardHelpOptions = true, header = "Spark start-up cost and per-task overhead.",
        description = {"Starts a context, then times jobs of 1 and of --tasks empty tasks (medians of --repeat).",
                "  squall spark overhead --master local[2] --tasks 64 --repeat 5"})
final class OverheadJob implements Callable<Integer> {
    @Mixin SparkOptions spark;
    @Option(names = "--tasks", defaultValue = "64", description = "Tasks in the larger job (default: ${DEFAULT-VALUE})") int tasks;
    @Option(names = "--repeat", defaultValue = "5", description = "Repetitions (default: ${DEFAULT-VALUE})") int repeat;

    @Override
    public Integer call() {
        System.out.println(SparkOverhead.measure(spark.master(), tasks, repeat).toText());
        return 0;
    }
}
