package dev.squall.cli;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.Arrays;
import java.util.Locale;

/**
 * The options every computing command shares: {@code --device}, {@code --precision}, {@code --verify},
 * {@code --repeat}, {@code --json} and {@code --debug}. A command adds it with {@code @Mixin RunOptions run;} and
 * states its own defaults with {@link RunDefaults} on its class.
 */
public final class RunOptions {
    CommandSpec mixee;

    /** Picocli hands over the command this mixin is part of; its {@link RunDefaults} become the options' defaults. */
    @Spec(Spec.Target.MIXEE)
    void mixee(CommandSpec spec) {
        mixee = spec;
        RunDefaults d = defaults();
        if (spec.defaultValueProvider() == null) {
            spec.defaultValueProvider(arg -> arg instanceof OptionSpec o && o.longestName().equals("--repeat") ? Integer.toString(d.repeat())
                    : arg instanceof OptionSpec o && o.longestName().equals("--precision") ? d.precisions()[0] : null);
        }
    }

    @Mixin
    DeviceOption device;

    @Mixin
    OutputOptions output;

    private String precision;
    private Integer repeat;

    @Option(names = "--precision", paramLabel = "P", order = 101, description = "floating-point precision, fp32 or fp64 where the command takes both (default: ${DEFAULT-VALUE})")
    void precision(String p) {
        String want = p.strip().toLowerCase(Locale.ROOT);
        if (!Arrays.asList(defaults().precisions()).contains(want)) {
            throw new ParameterException(mixee.commandLine(), "--precision '" + p + "': " + mixee.name() + " takes " + String.join(" or ", defaults().precisions()));
        }
        precision = want;
    }

    @Option(names = "--verify", order = 102, description = "check the result against an independent reference; exit 1 if it is wrong")
    boolean verify;

    @Option(names = "--repeat", paramLabel = "N", order = 103, description = "how many times to run the timed part (default: ${DEFAULT-VALUE})")
    void repeat(int n) {
        if (n < 1) throw new ParameterException(mixee.commandLine(), "--repeat " + n + ": must be at least 1");
        repeat = n;
    }

    private RunDefaults defaults() {
        RunDefaults d = mixee == null ? null : mixee.userObject().getClass().getAnnotation(RunDefaults.class);
        return d != null ? d : Defaults.class.getAnnotation(RunDefaults.class);
    }

    @RunDefaults
    private static final class Defaults {
    }

    /** {@code --device}'s id, or null. */
    public String deviceId() {
        return device.id();
    }

    /** The device to run on ({@link DeviceOption#select()}). */
    public Device device() {
        return device.select();
    }

    /** {@code --precision} as given, or the command's default, in lower case (fp32, fp64, or a command's own word). */
    public String precisionName() {
        return precision != null ? precision : defaults().precisions()[0];
    }

    /** {@code --precision} as a {@link Precision}. */
    public Precision precision() {
        return Precision.parse(precisionName());
    }

    public boolean verify() {
        return verify;
    }

    /** {@code --repeat}, or the command's default. */
    public int repeat() {
        return repeat != null ? repeat : defaults().repeat();
    }

    public boolean json() {
        return output.json();
    }

    public boolean debug() {
        return output.debug();
    }

    /** Progress bars are drawn: stderr is a terminal and {@code --json} was not given. */
    public boolean progress() {
        return !json() && Progress.stderrIsTerminal();
    }
}
