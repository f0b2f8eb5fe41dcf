package dev.squall.bench.stream;

import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.*;
import dev.squall.sparse.limits.CopyBandwidth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * STREAM copy/scale/add/triad and dispatch overhead on one device. Arrays are copied to the
 * device once; each kernel is timed with device events over {@code repeats} executions and the
 * median is reported, so transfers and compilation are excluded.
 *
 * <pre>{@code
 * List<StreamResult> r = StreamBench.bandwidth(Devices.get("cuda:0"), 1 << 26, "fp64", 50, System.err::println);
 * }</pre>
 */
public final class StreamBench {
    private StreamBench() {
    }

    public static List<StreamResult> bandwidth(Device device, int n, String precision, int repeats, Consumer<String> progress) {
        boolean fp64 = precision.equals("fp64");
        if (!precision.equals("fp32") && !fp64) throw new IllegalArgumentException("precision must be fp32 or fp64, got " + precision);
        if (fp64 && !device.info().fp64()) throw new IllegalArgumentException(device.id() + " has no fp64 support");
        int es = fp64 ? 8 : 4;
        KernelArray a, b, c;
        double s = 3.0;
        if (fp64) {
            DoubleArray da = new DoubleArray(n), db = new DoubleArray(n), dc = new DoubleArray(n);
            for (int i = 0; i < n; i++) {
                da.set(i, 1.0 + (i % 7));
                db.set(i, 2.0);
                dc.set(i, 0.5 * (i % 3));
            }
            a = da;
            b = db;
            c = dc;
        } else {
            FloatArray fa = new FloatArray(n), fb = new FloatArray(n), fc = new FloatArray(n);
            for (int i = 0; i < n; i++) {
                fa.set(i, 1f + (i % 7));
                fb.set(i, 2f);
                fc.set(i, 0.5f * (i % 3));
            }
            a = fa;
            b = fb;
            c = fc;
        }
        // host reference, run alongside: c = a; b = s*c; c = a+b; a = b + s*c
        double[] ra = new double[n], rb = new double[n], rc = new double[n];
        for (int i = 0; i < n; i++) {
            ra[i] = 1.0 + (i % 7);
            rb[i] = 2.0;
            rc[i] = 0.5 * (i % 3);
        }
        String[] names = {"copy", "scale", "add", "triad"};
        long[] bytes = {2L * n * es, 2L * n * es, 3L * n * es, 3L * n * es};
        List<StreamResult> out = new ArrayList<>();
        double copyGbs = Double.NaN;
        // every kernel is built and warmed before any is timed, so that the first one timed (copy) is not measured
        // while the JVM backend's launch path is still being compiled.
        // Each pass runs the four kernels in order, so the host reference applies them once per pass.
        ExecutionPlan[] plans = new ExecutionPlan[4];
        try {
            for (int k = 0; k < 4; k++) {
                String kernel = names[k] + (fp64 ? "64" : "32");
                TaskGraph one = streamTask(new TaskGraph("stream_" + kernel).transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b, c),
                        kernel, k, a, b, c, s, n);
                plans[k] = new ExecutionPlan(one.snapshot()).withDevice(device).withProfiler(true);
                plans[k].execute(); // build, upload
                // warm for at least 200 ms (or 500 runs) so an idle GPU has left its low clocks before timing
                long warmEnd = System.nanoTime() + 200_000_000L;
                for (int w = 0; w < 500 && System.nanoTime() < warmEnd; w++) plans[k].execute();
                plans[k].execute().transferToHost(a, b, c);
                applyReference(k, ra, rb, rc, s, fp64);
            }
            for (int k = 0; k < 4; k++) {
                double[] ms = new double[repeats];
                for (int r = 0; r < repeats; r++) ms[r] = plans[k].execute().profile().kernelMillis();
                plans[k].execute().transferToHost(a, b, c);
                applyReference(k, ra, rb, rc, s, fp64);
                double err = maxRelError(k, a, b, c, ra, rb, rc);
                Arrays.sort(ms);
                double med = ms[repeats / 2];
                double gbs = bytes[k] / (med * 1e-3) / 1e9;
                if (k == 0) copyGbs = gbs;
                StreamResult res = new StreamResult(device.id(), device.info().name(), names[k], precision, n, bytes[k], med, gbs, gbs / copyGbs, err);
                out.add(res);
                if (progress != null) progress.accept(String.format("  %-8s %-5s %-6s %10.4f ms %9.1f GB/s  %.3f of copy  err %.1e",
                        device.id(), precision, names[k], med, gbs, gbs / copyGbs, err));
            }
        } finally {
            for (ExecutionPlan p : plans) if (p != null) p.close();
        }
        return out;
    }

    /** Adds STREAM kernel {@code k} (copy, scale, add, triad) in the arrays' precision to {@code g}, as task {@code name}. */
    private static TaskGraph streamTask(TaskGraph g, String name, int k, KernelArray a, KernelArray b, KernelArray c, double s, int n) {
        if (a instanceof DoubleArray da && b instanceof DoubleArray db && c instanceof DoubleArray dc) {
            return switch (k) {
                case 0 -> CopyBandwidth.copyTask(g, name, da, dc, n);
                case 1 -> g.task(name, StreamKernels::scale64, dc, db, s, n);
                case 2 -> g.task(name, StreamKernels::add64, da, db, dc, n);
                default -> g.task(name, StreamKernels::triad64, da, db, dc, s, n);
            };
        }
        FloatArray fa = (FloatArray) a, fb = (FloatArray) b, fc = (FloatArray) c;
        float sf = (float) s;
        return switch (k) {
            case 0 -> g.task(name, StreamKernels::copy32, fa, fc, n);
            case 1 -> g.task(name, StreamKernels::scale32, fc, fb, sf, n);
            case 2 -> g.task(name, StreamKernels::add32, fa, fb, fc, n);
            default -> g.task(name, StreamKernels::triad32, fa, fb, fc, sf, n);
        };
    }

    /** Each STREAM kernel is idempotent given the others' outputs, so one reference application matches any repeat count. */
    private static void applyReference(int k, double[] a, double[] b, double[] c, double s, boolean fp64) {
        for (int i = 0; i < a.length; i++) {
            switch (k) {
                case 0 -> c[i] = a[i];
                case 1 -> b[i] = fp64 ? s * c[i] : (float) ((float) s * (float) c[i]);
                case 2 -> c[i] = fp64 ? a[i] + b[i] : (float) ((float) a[i] + (float) b[i]);
                default -> a[i] = fp64 ? b[i] + s * c[i] : (float) ((float) b[i] + (float) s * (float) c[i]);
            }
        }
    }

    private static double maxRelError(int k, KernelArray a, KernelArray b, KernelArray c, double[] ra, double[] rb, double[] rc) {
        KernelArray out = switch (k) {
            case 0, 2 -> c;
            case 1 -> b;
            default -> a;
        };
        double[] ref = switch (k) {
            case 0, 2 -> rc;
            case 1 -> rb;
            default -> ra;
        };
        double worst = 0;
        for (int i = 0; i < ref.length; i++) {
            double v = out instanceof DoubleArray d ? d.get(i) : ((FloatArray) out).get(i);
            double e = Math.abs(v - ref[i]) / Math.max(1, Math.abs(ref[i]));
            if (!(e <= worst)) worst = Double.isNaN(e) ? Double.POSITIVE_INFINITY : Math.max(worst, e);
        }
        return worst;
    }

    /**
     * Host time of executing a one-kernel graph with resident data, and of the first launch of a
     * new plan whose binary is in the disk cache.
     */
    public static DispatchResult dispatch(Device device, int executions) {
        IntArray a = new IntArray(256);
        TaskGraph g = new TaskGraph("dispatch").transferToDevice(DataTransferMode.FIRST_EXECUTION, a).task("t", StreamKernels::touch, a, 256);
        device.forgetPrograms();
        long t0 = System.nanoTime();
        double cold;
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            p.execute();
            cold = (System.nanoTime() - t0) / 1e6;
        }
        device.forgetPrograms(); // the next build goes through the on-disk cache, as in a new process
        t0 = System.nanoTime();
        double first;
        double[] us = new double[executions];
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            p.execute();
            first = (System.nanoTime() - t0) / 1e6;
            for (int w = 0; w < Math.min(1000, executions); w++) p.execute();
            for (int r = 0; r < executions; r++) {
                long s = System.nanoTime();
                p.execute();
                us[r] = (System.nanoTime() - s) / 1e3;
            }
            p.execute().transferToHost(a);
        }
        Arrays.sort(us);
        boolean cached = device.info().type() == DeviceType.JVM || device.lastProgramFromCache();
        return new DispatchResult(device.id(), us[executions / 2], us[executions / 10], us[executions * 9 / 10], executions, first, cached, cold);
    }
}
