package dev.squall.tasks.runtime.spi;

/**
 * A kernel function of a built program. Arguments are bound once, then the launch is repeated
 * without re-marshaling (this is what keeps dispatch overhead to a few microseconds).
 */
public interface DeviceKernel {
    String name();

    /**
     * Binds arguments in device-program order (see {@link KernelArg}). Checks count against the
     * kernel's signature where the driver can tell.
     */
    BoundLaunch bind(KernelArg[] args);

    /** Registers, local memory, max threads per block where the driver reports them; "" otherwise. */
    String resourceReport();
}
