package dev.squall.bench.cli;

import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.OutputOptions;
import dev.squall.cli.SquallSubcommand;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code squall devices}: every device with backend, name, memory, compute units, fp64; absent backends with the reason. */
@Command(name = "devices", header = "The devices Squall can use, and why a backend is absent.",
        description = {"List the devices Squall can use (their ids are what --device takes), and why a backend is absent.", "",
                "Examples:", "  squall devices", "  squall devices --json"},
        footer = {"", ExitCode.HELP})
public final class DevicesCommand implements SquallSubcommand {
    @Mixin
    OutputOptions output;

    /** {@code --json} result (schema in tornado-tasks/cli/JSON.md): one entry per device present and per absent backend. */
    public record Result(String command, List<Entry> devices) {
    }

    /**
     * A device ({@code available} true, with its properties) or an absent backend ({@code available} false, id and the
     * properties null, {@code reason} saying why).
     */
    public record Entry(String backend, boolean available, String reason, String id, String name, String vendor, String driver, Long memoryBytes,
                        Long localMemoryBytes, Integer computeUnits, Integer maxWorkGroup, Integer subgroupSize, Boolean fp64, Boolean gpu, String type,
                        String version) {
    }

    @Override
    public Integer call() {
        List<Entry> rows = new ArrayList<>();
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.devices().isEmpty()) {
                rows.add(new Entry(s.name(), false, s.unavailableReason(), null, null, null, null, null, null, null, null, null, null, null, null, null));
                if (!output.json()) System.out.printf("%-12s absent: %s%n", s.name(), s.unavailableReason());
                continue;
            }
            for (Device d : s.devices()) {
                DeviceInfo i = d.info();
                rows.add(new Entry(i.backend(), true, null, i.id(), i.name(), i.vendor(), i.driverVersion(), i.globalMemoryBytes(), i.localMemoryBytes(),
                        i.computeUnits(), i.maxWorkGroupSize(), i.subgroupSize(), i.fp64(), i.isGpu(), i.type().name().toLowerCase(Locale.ROOT),
                        i.computeCapability()));
                if (!output.json()) {
                    System.out.printf("%-12s %s%n             %s %s, %.1f GiB, %d compute units, local %d KiB, work-group <= %d, sub-group %d, fp64 %s%s%n",
                            i.id(), i.name(), i.vendor(), i.driverVersion(), i.globalMemoryBytes() / (double) (1L << 30), i.computeUnits(),
                            i.localMemoryBytes() >> 10, i.maxWorkGroupSize(), i.subgroupSize(), i.fp64() ? "yes" : "no",
                            i.computeCapability().isEmpty() ? "" : ", " + (i.backend().equals("cuda") ? "compute capability " : "") + i.computeCapability());
                }
            }
        }
        if (output.json()) JsonOutput.print(new Result("devices", rows));
        return ExitCode.OK;
    }
}
