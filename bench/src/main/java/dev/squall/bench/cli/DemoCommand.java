package dev.squall.bench.cli;

import dev.squall.bench.demo.DemoTour;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code squall demo}: a few kernels on each device present, verified and timed. */
@Command(name = "demo", header = "A short tour of every device present: three kernels, checked and timed.",
        mixinStandardHelpOptions = true,
        description = {"Run a short tour on every device present (or one): saxpy, a sub-group/local-memory reduction and a",
                "STREAM triad, each checked against plain Java, with times.", "", "Examples:", "  squall demo", "  squall demo --device jvm"})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--device", paramLabel = "D", description = "only this device (cuda:0, opencl:0:0, jvm)")
    String device;

    @Override
    public Integer call() {
        List<Device> devices = device == null ? Devices.all() : List.of(Devices.get(device));
        for (Devices.BackendStatus s : Devices.backends()) {
            if (s.devices().isEmpty() && device == null) System.out.println("(" + s.name() + " absent: " + s.unavailableReason() + ")");
        }
        boolean ok = true;
        for (Device d : devices) ok &= DemoTour.run(d, System.out);
        System.out.println(ok ? "all results match the host reference" : "SOME RESULTS ARE WRONG");
        return ok ? 0 : SquallCommand.VERIFY_FAILED;
    }
}
