package dev.squall.bench.cli;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/** {@code squall devices}: every device with backend, name, memory, compute units, fp64; absent backends with the reason. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"List the devices Squall can use, and why a backend is absent.", "",
                "Example: squall devices --json"})
public final class DevicesCommand implements Runnable {
    @Option(names = "--json", description = "one JSON object on stdout")
    boolean json;

    @Override
    public void run() {
        List<String> rows = new ArrayList<>();
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.devices().isEmpty()) {
                if (json) rows.add("{\"backend\":" + Json.str(s.name()) + ",\"available\":false,\"reason\":" + Json.str(s.unavailableReason()) + "}");
                else System.out.printf("%-12s absent: %s%n", s.name(), s.unavailableReason());
                continue;
            }
            for (Device d : s.devices()) {
                DeviceInfo i = d.info();
                if (json) {
                    rows.add("{\"backend\":" + Json.str(i.backend()) + ",\"available\":true,\"id\":" + Json.str(i.id()) + ",\"name\":" + Json.str(i.name())
                            + ",\"vendor\":" + Json.str(i.vendor()) + ",\"driver\":" + Json.str(i.driverVersion())
                            + ",\"memoryBytes\":" + i.globalMemoryBytes() + ",\"localMemoryBytes\":" + i.localMemoryBytes()
                            + ",\"computeUnits\":" + i.computeUnits() + ",\"maxWorkGroup\":" + i.maxWorkGroupSize()
                            + ",\"subgroupSize\":" + i.subgroupSize() + ",\"fp64\":" + i.fp64() + ",\"gpu\":" + i.isGpu() + ",\"type\":" + Json.str(i.type().name().toLowerCase(java.util.Locale.ROOT))
                            + ",\"version\":" + Json.str(i.computeCapability()) + "}");
                } else {
                    System.out.printf("%-12s %s%n             %s %s, %.1f GiB, %d compute units, local %d KiB, work-group <= %d, sub-group %d, fp64 %s%s%n",
                            i.id(), i.name(), i.vendor(), i.driverVersion(), i.globalMemoryBytes() / (double) (1L << 30), i.computeUnits(),
                            i.localMemoryBytes() >> 10, i.maxWorkGroupSize(), i.subgroupSize(), i.fp64() ? "yes" : "no",
                            i.computeCapability().isEmpty() ? "" : ", " + (i.backend().equals("cuda") ? "compute capability " : "") + i.computeCapability());
                }
            }
        }
        if (json) System.out.println("{\"devices\":[" + String.join(",", rows) + "]}");
    }
}
