package dev.squall.tasks.runtime.spi;

/** A built program: a CUDA module or an OpenCL program. */
public interface DeviceProgram {
    /**
     * The kernel of that name.
     *
     * @throws dev.squall.tasks.runtime.DeviceException if the program has no such kernel
     */
    DeviceKernel kernel(String name);

    /** Milliseconds spent compiling (0 on a cache hit that skipped compilation). */
    double buildMillis();

    /** True when the binary came from the on-disk cache. */
    boolean fromCache();
}
