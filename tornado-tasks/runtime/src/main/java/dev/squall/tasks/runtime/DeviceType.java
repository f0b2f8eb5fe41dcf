package dev.squall.tasks.runtime;

/**
 * What kind of processor a device is, as {@link DeviceInfo#type()} reports it.
 *
 * <pre>{@code
 * boolean hostThreads = device.info().type() == DeviceType.JVM;
 * }</pre>
 */
public enum DeviceType {
    /** A GPU (CUDA, or an OpenCL device of type GPU). */
    GPU,
    /** A CPU driven through OpenCL (PoCL, Intel's CPU runtime): compiled OpenCL C on the host's cores. */
    CPU,
    /** Another OpenCL device (an FPGA, a custom accelerator). */
    ACCELERATOR,
    /** The JVM itself: kernels run as Java code on this process's fork-join and virtual threads. */
    JVM
}
