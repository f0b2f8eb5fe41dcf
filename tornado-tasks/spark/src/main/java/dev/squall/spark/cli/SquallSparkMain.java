package dev.squall.spark.cli;

import dev.squall.tasks.runtime.DeviceException;
import picocli.CommandLine;

/**
 * The {@code spark-submit} entry point: {@code spark-submit --class dev.squall.spark.cli.SquallSparkMain squall-spark.jar
 * permanent|cg|overhead ...} runs {@link SparkCommand}'s jobs on the master spark-submit was given.
 */
public final class SquallSparkMain {
    private SquallSparkMain() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with device errors mapped to exit code 3 and bad input to 2. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new SparkCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parse) -> {
            Throwable cause = ex;
            while (cause.getCause() != null && !(cause instanceof DeviceException) && !(cause instanceof IllegalArgumentException)) cause = cause.getCause();
            if (cause instanceof DeviceException) {
                cmd.getErr().println("squall spark: device error: " + cause.getMessage());
                return 3;
            }
            if (cause instanceof IllegalArgumentException) {
                cmd.getErr().println("squall spark: " + cause.getMessage());
                return 2;
            }
            throw ex;
        });
        cl.setExitCodeExceptionMapper(t -> t instanceof CommandLine.ParameterException ? 2 : 1);
        return cl;
    }
}
