package dev.squall.tasks.runtime;

/**
 * What a device is and what it can do, read from the driver.
 *
 * <pre>{@code
 * DeviceInfo i = Devices.get("cuda:0").info();
 * System.out.println(i.name() + ", " + i.computeUnits() + " SMs, " + (i.globalMemoryBytes() >> 30) + " GiB");
 * if (i.type() == DeviceType.JVM) { ... the kernels' Java code runs on this process's threads ... }
 * }</pre>
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
 * @param type              GPU, CPU, other accelerator, or the JVM's own threads
 * @param computeCapability CUDA "9.0", OpenCL device version text, or "" for the JVM
 */
public record DeviceInfo(String backend, String id, String name, String vendor, String driverVersion,
                         long globalMemoryBytes, long localMemoryBytes, int computeUnits, int maxWorkGroupSize,
                         int subgroupSize, boolean fp64, DeviceType type, String computeCapability) {
    public DeviceInfo {
        if (type == null) throw new IllegalArgumentException("device " + id + " needs a type");
    }

    /** A GPU (the first choice of "best available"). */
    public boolean isGpu() {
        return type == DeviceType.GPU;
    }
}
