package dev.squall.spark.cli;

import dev.squall.cli.Launcher;
import picocli.CommandLine;

/**
 * The {@code spark-submit} entry point: {@code spark-submit --class dev.squall.spark.cli.SquallSparkMain squall-spark.jar
 * permanent|cg|overhead ...} runs {@link SparkCommand}'s jobs on the master spark-submit was given, with the
 * {@code squall} application's error handling and exit codes ({@link Launcher}).
 */
public final class SquallSparkMain {
    private SquallSparkMain() {
    }

    public static void main(String[] args) {
        System.exit(Launcher.execute(commandLine(), args));
    }

    /** {@code spark} and its jobs, configured as {@code squall} configures its commands. */
    public static CommandLine commandLine() {
        return Launcher.configure(new CommandLine(new SparkCommand()));
    }
}
