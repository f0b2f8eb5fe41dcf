package dev.squall.bench.demo;

import dev.squall.bench.stream.StreamBench;
import dev.squall.bench.stream.StreamResult;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

import java.io.PrintStream;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A short tour of a device: saxpy (loop-parallel), a sum of squares (SPMD: sub-group reduction,
 * local memory, barrier) and a STREAM triad, each checked against plain Java and timed.
 *
 * <pre>{@code boolean ok = DemoTour.run(Devices.get("jvm"), System.out); }</pre>
 */
public final class DemoTour {
    private DemoTour() {
    }

    /** Runs the tour; returns false if any result disagreed with the host reference. */
    public static boolean run(Device device, PrintStream out) {
        out.println("== " + device.id() + ": " + device.info().name());
        boolean ok = true;
        int n = device.info().type() == DeviceType.JVM ? 1 << 20 : 1 << 22;
        SplittableRandom rnd = new SplittableRandom(42);

        FloatArray x = new FloatArray(n), y = new FloatArray(n);
        float[] ey = new float[n];
        for (int i = 0; i < n; i++) {
            x.set(i, (float) rnd.nextDouble(-1, 1));
            y.set(i, (float) rnd.nextDouble(-1, 1));
            ey[i] = 2.5f * x.get(i) + y.get(i);
        }
        try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("demo")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y)
                .task("saxpy", DemoKernels::saxpy, x, y, 2.5f, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y).snapshot()).withDevice(device).withProfiler(true)) {
            Profile first = plan.execute().profile();
            double err = 0;
            for (int i = 0; i < n; i++) err = Math.max(err, Math.abs(y.get(i) - ey[i]));
            ok &= err <= 1e-6;
            // the first run pays for JIT (JVM) and module loading; time warm runs too (y keeps accumulating, unchecked)
            double warm = Double.POSITIVE_INFINITY;
            for (int r = 0; r < 5; r++) warm = Math.min(warm, plan.execute().profile().kernelMillis());
            out.printf("  saxpy        n=%-9d fp32  kernel %8.3f ms  (first run %.3f ms, compile %.0f ms, copies %.2f ms)  max error %.1e %s%n",
                    n, warm, first.kernelMillis(), first.compileMillis(), first.toDeviceMillis() + first.toHostMillis(), err, err <= 1e-6 ? "ok" : "WRONG");
        }

        DoubleArray v = new DoubleArray(n);
        double expected = 0;
        for (int i = 0; i < n; i++) {
            v.set(i, rnd.nextDouble(-1, 1));
            expected += v.get(i) * v.get(i);
        }
        int groups = 64, local = 256;
        DoubleArray partial = new DoubleArray(groups);
        partial.init(Double.NaN);
        try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("demo")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, v)
                .task("sumSquares", WorkerGrid.of((long) groups * local).withLocal(local), DemoKernels::sumSquares, new KernelContext(), v, partial, n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partial).snapshot()).withDevice(device).withProfiler(true)) {
            plan.execute();
            Profile p = plan.execute().profile();
            for (int r = 0; r < 3; r++) {
                Profile q = plan.execute().profile();
                if (q.kernelMillis() < p.kernelMillis()) p = q;
            }
            double got = 0;
            for (int g = 0; g < groups; g++) got += partial.get(g);
            double rel = Math.abs(got - expected) / expected;
            ok &= rel <= 1e-12;
            out.printf("  sumSquares   n=%-9d fp64  kernel %8.3f ms  sum %.6f (host %.6f)  rel. error %.1e %s%n",
                    n, p.kernelMillis(), got, expected, rel, rel <= 1e-12 ? "ok" : "WRONG");
        }

        // 15 timed runs: on a 2-core JVM a single slow launch (a parked worker waking) moves a median of 5
        List<StreamResult> stream = StreamBench.bandwidth(device, n, device.info().fp64() ? "fp64" : "fp32", 15, null);
        StreamResult triad = stream.get(3);
        ok &= triad.maxRelError() <= 1e-6;
        out.printf("  stream triad n=%-9d %s  kernel %8.3f ms  %8.1f GB/s (%.2f of copy) %s%n",
                n, triad.precision(), triad.medianMillis(), triad.gbPerSecond(), triad.ratioToCopy(), triad.maxRelError() <= 1e-6 ? "ok" : "WRONG");
        return ok;
    }
}
