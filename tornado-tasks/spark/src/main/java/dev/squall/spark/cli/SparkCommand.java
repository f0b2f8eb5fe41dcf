package dev.squall.spark.cli;

import dev.squall.cli.CommandFailure;
import dev.squall.cli.ExitCode;
import dev.squall.cli.OutputOptions;
import dev.squall.cli.SquallSubcommand;
import dev.squall.spark.SparkJvmOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.List;

/**
 * {@code squall spark}: Squall jobs on Apache Spark, one device per task. In the {@code squall} application it runs them
 * in local mode (or on any master given); under {@code spark-submit} ({@link SquallSparkMain}) the same commands run on
 * the cluster. The command and its jobs' option classes touch no Spark class, so {@code squall --help} and
 * {@code squall spark --help} work without Spark; a job first checks ({@link #requireSpark()}) that Spark's jars and
 * its JVM options are there, and says how to get them when they are not (exit 2).
 */
@Command(name = "spark", header = "Permanents, sparse CG and H2 products as Apache Spark jobs, one GPU per task.",
        sortOptions = false,
        description = {"Runs Squall work as Spark jobs. Tasks get their GPU from Spark's resource scheduling",
                "(spark.task.resource.gpu.amount; address A -> cuda:A). Local mode ignores GPU requests, so there",
                "tasks take this machine's CUDA devices round-robin by partition id; tasks without a GPU run on",
                "--device (default jvm).", "",
                "Spark's jars are not part of the Squall bundle: tornado-tasks/spark/scripts/spark-dist packs them;",
                "bin/squall adds them to the class path, with the JVM options Spark needs, when they are unpacked",
                "next to it (squall/spark/) or named by SQUALL_SPARK_CLASSPATH. Without them a job exits 2.", "",
                "Examples (exit 2 where Spark's jars are not on the class path):",
                "  squall spark permanent --random 22:0.5 --master local[2] --verify   # exit 2 without Spark's jars",
                "  squall spark cg --hpcg 8:8:8 --blocks 2 --master local[2] --verify   # exit 2 without Spark's jars",
                "  squall spark h2 --points 2d --n 16384 --tasks 4 --master local[2] --verify   # exit 2 without Spark's jars",
                "  squall spark overhead --master local[2] --tasks 16 --json   # exit 2 without Spark's jars",
                "  spark-submit --class dev.squall.spark.cli.SquallSparkMain --jars <target/lib jars, comma-separated> \\",
                "    squall-spark.jar permanent --random 40:0.5 --method codegen-hybrid --require-gpu"},
        footer = {"", ExitCode.HELP},
        subcommands = {PermanentJob.class, CgJob.class, H2Job.class, OverheadJob.class, CommandLine.HelpCommand.class})
public final class SparkCommand implements SquallSubcommand {
    /** What a user without Spark's jars is told. */
    static final String HOW_TO_GET_SPARK = "pack them with tornado-tasks/spark/scripts/spark-dist (it writes "
            + "tornado-tasks/spark/target/squall-spark-dist.tar.xz) and unpack that inside the bundle (tar xJf squall-spark-dist.tar.xz -C squall/, "
            + "giving squall/spark/), or set SQUALL_SPARK_CLASSPATH to Spark 4.2's jars; on a cluster, use spark-submit "
            + "--class dev.squall.spark.cli.SquallSparkMain";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    OutputOptions output;

    /** No job named: the usage on stderr, exit 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return ExitCode.BAD_INPUT;
    }

    /**
     * Checks that Spark 4.2's classes can be loaded and that this JVM carries the {@code --add-opens} Spark needs.
     *
     * @throws CommandFailure exit 2, saying what is missing and how to get it
     */
    static void requireSpark() {
        try {
            Class.forName("org.apache.spark.SparkContext", false, SparkCommand.class.getClassLoader());
            Class.forName("org.apache.spark.api.java.JavaSparkContext", false, SparkCommand.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new CommandFailure(ExitCode.BAD_INPUT, "Spark's jars are not on the class path (" + e.getMessage() + " not found): "
                    + HOW_TO_GET_SPARK);
        }
        List<String> missing = SparkJvmOptions.missingInCurrentJvm();
        if (!missing.isEmpty()) {
            throw new CommandFailure(ExitCode.BAD_INPUT, "this JVM lacks the options Spark 4.2 needs on JDK " + Runtime.version().feature() + " ("
                    + String.join(" ", missing) + "): start it through bin/squall or tornado-tasks/spark/scripts/squall-spark, which set them, "
                    + "or add the output of `java -cp <squall-spark.jar> dev.squall.spark.SparkJvmOptions` to the JVM's options");
        }
    }
}
