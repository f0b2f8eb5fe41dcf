package dev.squall.bench.cli;

import dev.squall.cli.ExitCode;
import dev.squall.cli.Launcher;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/**
 * The {@code squall} command line. Its subcommands are not listed here: each module announces its own as
 * {@link dev.squall.cli.SquallSubcommand} services ({@code provides} in module-info.java, and
 * {@code META-INF/services/dev.squall.cli.SquallSubcommand} for class-path runs), and {@link Launcher#assemble} finds
 * them with {@link java.util.ServiceLoader}. Errors and exit codes are {@link Launcher}'s.
 *
 * <pre>{@code squall devices | squall kernels --print saxpy --backend cuda | squall demo | squall bench stream}</pre>
 */
@Command(name = "squall", mixinStandardHelpOptions = true, version = "squall 0.1.0",
        description = {"Scientific kernels on CUDA GPUs, OpenCL devices and the JVM.", "",
                "Devices are chosen with --device (cuda:0, opencl:0:0, jvm), -Dsquall.device or SQUALL_DEVICE; by default the best present"
                        + " (CUDA GPU, OpenCL GPU, OpenCL CPU, JVM). squall COMMAND --help explains a command, with examples."},
        footer = {"", ExitCode.HELP, "squall with no command prints this and exits 2."})
public final class SquallCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No subcommand: the usage on stderr, exit 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return ExitCode.BAD_INPUT;
    }

    public static void main(String[] args) {
        System.exit(Launcher.execute(commandLine(), args));
    }

    /** The command line with every announced subcommand, configured by {@link Launcher}. */
    public static CommandLine commandLine() {
        return Launcher.assemble(new SquallCommand());
    }
}
