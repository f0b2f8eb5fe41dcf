package dev.squall.cli;

import dev.squall.tasks.runtime.DeviceException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Assembles the {@code squall} command line from the subcommands every module announces ({@link SquallSubcommand}
 * services) and runs it with the one error handler:
 *
 * <ul>
 *   <li>a user mistake (unknown option, bad value, {@link IllegalArgumentException}, an unreadable file, a heap too
 *       small for the input) exits {@link ExitCode#BAD_INPUT} with one line naming it;
 *   <li>a {@link DeviceException} exits {@link ExitCode#DEVICE_ERROR} with the driver's message;
 *   <li>a {@link CommandFailure} exits with its own code and message (verification, tolerance);
 *   <li>anything else exits {@link ExitCode#INTERNAL_ERROR}, "internal error" and a short message.
 * </ul>
 *
 * The stack trace reaches stderr only with {@code --debug}; with {@code --json} the error is also one JSON object on
 * stdout ({@link ErrorResult}).
 */
public final class Launcher {
    private Launcher() {
    }

    /** Every announced subcommand, a new instance each, sorted by command name. */
    public static List<SquallSubcommand> subcommands() {
        List<SquallSubcommand> all = new ArrayList<>();
        for (SquallSubcommand c : ServiceLoader.load(SquallSubcommand.class, Launcher.class.getClassLoader())) all.add(c);
        all.sort(Comparator.comparing(Launcher::name));
        return all;
    }

    /** The {@code @Command} name of a command object. */
    public static String name(Object command) {
        CommandLine.Command c = command.getClass().getAnnotation(CommandLine.Command.class);
        if (c == null) throw new IllegalStateException(command.getClass().getName() + " announces a squall subcommand but has no @Command");
        return c.name();
    }

    /** {@code top} with every announced subcommand and {@code help}, configured as {@link #configure} does. */
    public static CommandLine assemble(Object top) {
        CommandLine cl = new CommandLine(top);
        for (SquallSubcommand c : subcommands()) cl.addSubcommand(c);
        cl.addSubcommand(new CommandLine.HelpCommand());
        return configure(cl);
    }

    /**
     * Installs the error handler and exit-code mapping on {@code cl} and the subcommands it has now (tests call it on
     * one command to run it as {@code squall} would).
     */
    public static CommandLine configure(CommandLine cl) {
        cl.setParameterExceptionHandler(Launcher::parameterError);
        cl.setExecutionExceptionHandler((ex, cmd, parse) -> failure(ex, cmd, lastMatched(parse)));
        cl.setExitCodeExceptionMapper(t -> t instanceof ParameterException ? ExitCode.BAD_INPUT : ExitCode.INTERNAL_ERROR);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    /** Runs {@code args} on {@code cl}; every exception becomes an exit code. */
    public static int execute(CommandLine cl, String... args) {
        try {
            return cl.execute(args);
        } catch (RuntimeException | Error e) {
            return report(cl, e, contains(args, "--json"), contains(args, "--debug"));
        }
    }

    /** The JSON error object: the command, the message, the exit code and its name. */
    public record ErrorResult(String command, String error, String errorKind, int exitCode) {
    }

    private static int parameterError(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String msg = ex.getMessage();
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            msg += " (did you mean " + String.join(" or ", u.getSuggestions()) + "?)";
        }
        String hint = " (see " + cmd.getCommandSpec().qualifiedName() + " --help)";
        return print(cmd, ExitCode.BAD_INPUT, msg + hint, contains(args, "--json"), contains(args, "--debug") ? ex : null);
    }

    private static int failure(Exception ex, CommandLine cmd, ParseResult parse) {
        return report(cmd, ex, parse != null && parse.hasMatchedOption("--json"), parse != null && parse.hasMatchedOption("--debug"));
    }

    private static int report(CommandLine cmd, Throwable ex, boolean json, boolean debug) {
        Throwable t = ex instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : ex;
        int code;
        String msg;
        if (t instanceof CommandFailure f) {
            code = f.exitCode();
            msg = f.getMessage();
        } else if (t instanceof DeviceException d) {
            code = ExitCode.DEVICE_ERROR;
            msg = "device error: " + d.getMessage() + needsGpu(d);
        } else if (t instanceof IllegalArgumentException) {
            code = ExitCode.BAD_INPUT;
            msg = t.getMessage() != null ? t.getMessage() : t.toString();
        } else if (t instanceof IOException io) {
            code = ExitCode.BAD_INPUT;
            msg = describe(io);
        } else if (t instanceof OutOfMemoryError oom) {
            code = ExitCode.BAD_INPUT;
            msg = "not enough Java heap for this input (" + oom.getMessage() + "); use smaller sizes, or give the JVM more memory, e.g. SQUALL_JAVA_OPTS=-Xmx16g";
        } else {
            code = ExitCode.INTERNAL_ERROR;
            msg = "internal error: " + t.getClass().getSimpleName() + (t.getMessage() != null ? ": " + t.getMessage() : "")
                    + (debug ? "" : " (run again with --debug for the stack trace)");
        }
        return print(cmd, code, msg, json, debug ? ex : null);
    }

    private static int print(CommandLine cmd, int code, String msg, boolean json, Throwable trace) {
        String name = cmd.getCommandSpec().qualifiedName();
        String line = msg.replace('\n', ' ').replace('\r', ' ');
        PrintStream err = System.err;
        err.println(name + ": " + line);
        if (trace != null) trace.printStackTrace(err);
        if (json) {
            JsonOutput.print(System.out, new ErrorResult(cmd.getCommandSpec().name(), line, ExitCode.kind(code), code));
        }
        return code;
    }

    /** The device error's hint for GPU-only runs on a host without one. */
    private static String needsGpu(DeviceException d) {
        boolean absent = d.kind() == DeviceException.Kind.UNAVAILABLE || d.kind() == DeviceException.Kind.NOT_FOUND;
        String m = String.valueOf(d.getMessage());
        return absent && m.contains("cuda") ? " (this needs a GPU: run it on a CUDA host, or pick another device with --device)" : "";
    }

    private static String describe(IOException e) {
        if (e instanceof NoSuchFileException n) return n.getFile() + ": no such file";
        if (e instanceof AccessDeniedException a) return a.getFile() + ": permission denied";
        if (e instanceof FileSystemException f) return f.getFile() + ": " + (f.getReason() != null ? f.getReason() : "cannot be read");
        if (e instanceof CharacterCodingException) return "the file is not text (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    private static ParseResult lastMatched(ParseResult p) {
        while (p != null && p.hasSubcommand()) p = p.subcommand();
        return p;
    }

    private static boolean contains(String[] args, String option) {
        return Arrays.asList(args).contains(option);
    }

}
