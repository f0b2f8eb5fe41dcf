package dev.squall.tasks.runtime.spi;

/**
 * What a device is and what it can do, read from the driver.
 *
 * @param backend           "jvm", "opencl", "cuda"
 * @param id                selection id: "jvm", "opencl:P:D", "cuda:N"
 * @param name              device name as the driver reports it
 * @param vendor            vendor or platform name
 * @param driverVersion     driver / platform version text
 * @param globalMemoryBytes device memory
 * @param localMemoryBytes  local (shared) memory per work-group
 * @param computeUnits      multiprocessors / compute units / cores
 * @param maxWorkGroupSize  largest work-group
 * @param subgroupSize      warp / sub-group width the kernels see through {@code KernelContext.subgroupSize()}
 * @param fp64              double precision supported
 * @param isGpu             a GPU (for "best available" ordering)
 * @param computeCapability CUDA "9.0", OpenCL device version text, or "" for the JVM
 */
public record DeviceInfo(String backend, String id, String name, String vendor, String driverVersion,
                         long globalMemoryBytes, long localMemoryBytes, int computeUnits, int maxWorkGroupSize,
                         int subgroupSize, boolean fp64, boolean isGpu, String computeCapability) {
}
