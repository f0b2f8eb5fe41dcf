package dev.squall.bench.cli;

import dev.squall.bench.demo.DemoTour;
import dev.squall.cli.DeviceOption;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.OutputOptions;
import dev.squall.cli.SquallSubcommand;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** {@code squall demo}: a few kernels on each device present, verified and timed. */
@Command(name = "demo", header = "A short tour of every device present: three kernels, checked and timed.",
        description = {"Run a short tour on every device present (or the one --device names): saxpy, a sub-group/local-memory reduction"
                + " and a STREAM triad, each checked against plain Java, with times.", "",
                "Examples:", "  squall demo", "  squall demo --device jvm --json"},
        footer = {"", ExitCode.HELP})
public final class DemoCommand implements SquallSubcommand {
    @Mixin
    DeviceOption device;

    @Mixin
    OutputOptions output;

    /** {@code --json} result (schema in tornado-tasks/cli/JSON.md): per device its tour's text and whether every check passed; absent backends. */
    public record Result(String command, List<DeviceTour> devices, List<String> absent, boolean ok) {
    }

    /** One device's tour: id, name, the printed report, and whether its results match the host reference. */
    public record DeviceTour(String device, String name, String report, boolean ok) {
    }

    @Override
    public Integer call() {
        List<Device> devices = device.id() == null ? Devices.all() : List.of(Devices.get(device.id()));
        List<String> absent = new ArrayList<>();
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.devices().isEmpty() && device.id() == null) {
                absent.add(s.name() + " absent: " + s.unavailableReason());
                if (!output.json()) System.out.println("(" + s.name() + " absent: " + s.unavailableReason() + ")");
            }
        }
        boolean ok = true;
        List<DeviceTour> tours = new ArrayList<>();
        for (Device d : devices) {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            boolean one = DemoTour.run(d, output.json() ? new PrintStream(text, true) : System.out);
            tours.add(new DeviceTour(d.id(), d.info().name(), text.toString(), one));
            ok &= one;
        }
        if (output.json()) JsonOutput.print(new Result("demo", tours, absent, ok));
        else System.out.println(ok ? "all results match the host reference" : "SOME RESULTS ARE WRONG");
        return ok ? ExitCode.OK : ExitCode.VERIFY_FAILED;
    }
}
