package dev.squall.cli;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --device}: the one device a command runs on. An empty id is a mistake, not "the default". */
public final class DeviceOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private String device;

    @Option(names = "--device", paramLabel = "D", order = 100,
            description = "device id: cuda:0, opencl:0:0 or jvm (default: -Dsquall.device, else SQUALL_DEVICE, else the best present; list them with squall devices)")
    void device(String id) {
        if (id.isBlank()) {
            throw new ParameterException(mixee.commandLine(), "--device '" + id + "': empty device id (give cuda:0, opencl:0:0 or jvm, or leave --device out for the best present)");
        }
        device = id.strip();
    }

    /** The id given with {@code --device}, or null. */
    public String id() {
        return device;
    }

    /** The device to run on: the one given, else the configured or best present one ({@link Devices#select}). */
    public Device select() {
        return Devices.select(device);
    }
}
