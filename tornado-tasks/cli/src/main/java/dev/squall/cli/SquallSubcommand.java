package dev.squall.cli;

import java.util.concurrent.Callable;

/**
 * A {@code squall} subcommand: a picocli {@code @Command} class that its module announces as a service, in
 * {@code module-info.java} ({@code provides dev.squall.cli.SquallSubcommand with ...}) and in
 * {@code META-INF/services/dev.squall.cli.SquallSubcommand} for class-path runs. The {@code squall} application finds
 * every announced command with {@link java.util.ServiceLoader}; {@link #call()} returns the exit code
 * ({@link ExitCode}) and throws for failures, which {@link Launcher} turns into one line and an exit code.
 *
 * <p>The class needs a public no-argument constructor (the service loader creates it).
 */
public interface SquallSubcommand extends Callable<Integer> {
    @Override
    Integer call() throws Exception;
}
