package dev.squall.spark.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code squall spark}: Squall jobs on Apache Spark, one device per task. In this JVM it runs them in local mode (or
 * any master given); under {@code spark-submit} ({@link SquallSparkMain}) the same commands run on the cluster.
 */
@Command(name = "spark", header = "Permanents and sparse CG as Apache Spark jobs, one GPU per task.",
        mixinStandardHelpOptions = true,
        description = {"Runs Squall work as Spark jobs. Tasks get their GPU from Spark's resource",
                "scheduling (spark.task.resource.gpu.amount; address A -> cuda:A); local mode",
                "ignores GPU requests, so there tasks take the CUDA devices round-robin by",
                "partition id, and tasks without a GPU run on --fallback-device.", "",
                "Examples:",
                "  squall spark permanent --random 26:0.5 --master local[2] --verify",
                "  squall spark cg --hpcg 32:32:32 --blocks 4 --master local[4] --verify",
                "  squall spark overhead --master local[2] --tasks 64",
                "  spark-submit --class dev.squall.spark.cli.SquallSparkMain --jars <target/lib jars, comma-separated> \\",
                "    squall-spark.jar permanent --random 40:0.5 --method codegen-hybrid --require-gpu", "",
                "Exit codes: 0 ok, 1 verification failed, 2 bad input, 3 device error."},
        subcommands = {PermanentJob.class, CgJob.class, OverheadJob.class, CommandLine.HelpCommand.class})
public final class SparkCommand implements Runnable {
    public static final int VERIFY_FAILED = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
