package dev.squall.permanent;

import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.DeviceType;

/**
 * Estimated seconds of a Gray-code Ryser sweep of 2^(n-1) steps, for the method choice (Ryser against the frontier
 * program, whether to expand) and the warning before a long run.
 *
 * <p>Generated kernels on a GPU: a step costs {@code (0.25 + 4 d) 10^-12 s} on the 132 SMs of an H100 for density
 * {@code d = nonzeros / n^2}, scaled by 132 over the device's multiprocessors. Fitted to the device time of the H100
 * runs in {@code bench/results/h100/permanent/} (ER n = 40 p = 0.1: 0.39 s predicted against 0.53 s measured launch wall
 * time; p = 0.5: 1.22 s against 1.22 s device time; n = 45 p = 0.1: 12.3 s against 8.7 s; mycielskian6 n = 47: 77 s
 * against 61 s; bcsstk01 n = 48: 133 s against 149 s): within 1.5x. The density stands for what a step does: the
 * changed column's updates and the cached level products it recomputes both grow with it (PERF.md). Generic device
 * kernels: ~2e-12 s per row and step on an H100 (dense n = 34 with x in local memory: 0.56 s). The method choice adds
 * the NVRTC build of a generated kernel ({@link #generatedRunSeconds}): a small block is not worth a 1.3 s build. The JVM: a row and step
 * in ~0.67 ns per thread. Other devices (CPUs through OpenCL) keep a flat 5e10 steps/s: their launch and build costs,
 * not the rate, decide the method there, and the figure is not calibrated.
 */
public final class SweepCost {
    /** Multiprocessors of the device the GPU rates were measured on (H100 SXM). */
    static final int CALIBRATION_SMS = 132;
    /** Fixed seconds of a device sweep in a warm process: launches, partials, the host's bookkeeping (H100: ~9 ms). */
    static final double DEVICE_FIXED_SECONDS = 0.01;

    /**
     * Seconds of building a generated kernel with NVRTC (H100 host: 1.3-1.5 s per new matrix; a build found in the disk
     * cache loads in tens of milliseconds): part of what choosing a generated sweep costs on a GPU.
     */
    static final double GENERATED_BUILD_SECONDS = 1.3;

    private SweepCost() {
    }

    /** Seconds of one Gray-code step of a generated kernel on a GPU with {@code sms} multiprocessors, density {@code d}. */
    static double generatedStepSeconds(double density, int sms) {
        return (0.25 + 4 * density) * 1e-12 * CALIBRATION_SMS / Math.max(1, sms);
    }

    /** The whole sweep of an n x n block with {@code nonzeros} nonzeros by a kernel generated for it on {@code device}. */
    public static double generatedKernelSeconds(int n, long nonzeros, DeviceInfo device) {
        double steps = Math.scalb(1.0, n - 1); // 2^(n-1) Gray steps (also beyond the 63 a sweep takes)
        if (!device.isGpu()) return steps / 5e10 + DEVICE_FIXED_SECONDS;
        return steps * generatedStepSeconds((double) nonzeros / ((double) n * n), device.computeUnits()) + DEVICE_FIXED_SECONDS;
    }

    /** {@link #generatedKernelSeconds} plus, on a GPU, building the kernel: what choosing a generated sweep for a new matrix costs. */
    public static double generatedRunSeconds(int n, long nonzeros, DeviceInfo device) {
        return generatedKernelSeconds(n, nonzeros, device) + (device.isGpu() ? GENERATED_BUILD_SECONDS : 0);
    }

    /** The whole sweep by the generic (not generated) dense or sparse kernels on {@code device}. */
    public static double genericKernelSeconds(int n, DeviceInfo device) {
        double steps = Math.scalb(1.0, n - 1); // 2^(n-1) Gray steps (also beyond the 63 a sweep takes)
        if (!device.isGpu()) return steps / 5e10 + DEVICE_FIXED_SECONDS;
        return steps * n * 2e-12 * CALIBRATION_SMS / Math.max(1, device.computeUnits()) + DEVICE_FIXED_SECONDS;
    }

    /** The whole sweep on {@code threads} JVM threads. */
    public static double jvmSeconds(int n, int threads) {
        return Math.scalb(1.0, n - 1) * n / (Math.max(1, threads) * 1.5e9);
    }

    /** The sweep by the method AUTO would pick on {@code device}: the JVM's threads there, else the generated kernel. */
    public static double autoSeconds(int n, long nonzeros, DeviceInfo device, int threads) {
        return device.type() == DeviceType.JVM ? jvmSeconds(n, threads) : generatedRunSeconds(n, nonzeros, device);
    }
}
