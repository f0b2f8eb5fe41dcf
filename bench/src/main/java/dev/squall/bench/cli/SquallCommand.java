package dev.squall.bench.cli;

import dev.squall.tasks.runtime.DeviceException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code squall} command line. Each module contributes its subcommands; this class
 * assembles them.
 *
 * <pre>{@code squall devices | squall kernels --print saxpy --backend cuda | squall demo | squall bench stream}</pre>
 */
@Command(name = "squall", mixinStandardHelpOptions = true, version = "squall 0.1.0",
        description = {"Scientific kernels on CUDA GPUs, OpenCL devices and the JVM.", "",
                "Devices are chosen with --device (cuda:0, opencl:0:0, jvm), -Dsquall.device or SQUALL_DEVICE;",
                "by default the best present (CUDA GPU, OpenCL GPU, OpenCL CPU, JVM).", "",
                "Exit codes: 0 ok, 1 verification failed, 2 bad input, 3 device error."},
        subcommands = {DevicesCommand.class, KernelsCommand.class, DemoCommand.class, BenchCommand.class,
                dev.squall.linalg.cli.CholeskyCommand.class, dev.squall.linalg.cli.TrinvCommand.class, dev.squall.linalg.cli.GemmCommand.class,
                dev.squall.linalg.cli.QrCommand.class, dev.squall.linalg.cli.SvdCommand.class,
                dev.squall.sparse.cli.SpmvCommand.class, dev.squall.sparse.cli.SpmmCommand.class,
                dev.squall.sparse.cli.GsCommand.class, dev.squall.sparse.cli.PcgCommand.class, dev.squall.sparse.cli.SgdCommand.class,
                dev.squall.permanent.cli.PermanentCommand.class,
                dev.squall.hmatrix.cli.H2Command.class, dev.squall.hmatrix.cli.KsumCommand.class,
                CommandLine.HelpCommand.class})
public final class SquallCommand implements Runnable {
    public static final int VERIFY_FAILED = 1, BAD_INPUT = 2, DEVICE_ERROR = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, with device errors mapped to exit code 3 and bad input to 2. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new SquallCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parse) -> {
            if (ex instanceof DeviceException de) {
                cmd.getErr().println("squall: device error: " + de.getMessage());
                return DEVICE_ERROR;
            }
            if (ex instanceof IllegalArgumentException) {
                cmd.getErr().println("squall: " + ex.getMessage());
                return BAD_INPUT;
            }
            throw ex;
        });
        cl.setExitCodeExceptionMapper(t -> t instanceof CommandLine.ParameterException ? BAD_INPUT : 1);
        return cl;
    }
}
