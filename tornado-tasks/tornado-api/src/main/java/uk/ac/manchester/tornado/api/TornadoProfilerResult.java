package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.Profile;

/** Times of one execution in nanoseconds, from Squall's profile (kernel, transfer and build times are filled with the profiler on). */
public class TornadoProfilerResult {
    private final Profile profile;
    private final long totalNanos;

    TornadoProfilerResult(Profile profile, long totalNanos) {
        this.profile = profile;
        this.totalNanos = totalNanos;
    }

    private static long nanos(double millis) {
        return Math.round(millis * 1e6);
    }

    public long getTotalTime() {
        return totalNanos;
    }

    public long getKernelTime() {
        return nanos(profile.kernelMillis());
    }

    public long getDeviceKernelTime() {
        return getKernelTime();
    }

    public long getDeviceWriteTime() {
        return nanos(profile.toDeviceMillis());
    }

    public long getDeviceReadTime() {
        return nanos(profile.toHostMillis());
    }

    public long getDataTransfersTime() {
        return getDeviceWriteTime() + getDeviceReadTime();
    }

    public long getCompileTime() {
        return nanos(profile.compileMillis());
    }

    @Override
    public String toString() {
        return "TornadoProfilerResult[total=" + getTotalTime() + " ns, kernel=" + getKernelTime() + " ns, toDevice=" + getDeviceWriteTime()
                + " ns, toHost=" + getDeviceReadTime() + " ns, compile=" + getCompileTime() + " ns]";
    }
}
