package dev.squall.tasks.runtime;

/**
 * Where the time of one execution went. Device-side figures come from device events (queue
 * timestamps) when the plan was built {@link ExecutionPlan#withProfiler with the profiler};
 * otherwise they are NaN. {@code hostMicros} is always measured: the wall time of {@code execute()}.
 *
 * @param compileMillis       program build and argument binding on this execution (0 after the first)
 * @param toDeviceMillis      host-to-device copies
 * @param kernelMillis        kernels, first launch to last completion
 * @param toHostMillis        device-to-host copies
 * @param hostMicros          wall time of the whole {@code execute()} call on the host
 */
public record Profile(double compileMillis, double toDeviceMillis, double kernelMillis, double toHostMillis, double hostMicros) {
    @Override
    public String toString() {
        return String.format("compile %.3f ms, to device %.3f ms, kernels %.3f ms, to host %.3f ms, host %.1f us",
                compileMillis, toDeviceMillis, kernelMillis, toHostMillis, hostMicros);
    }
}
