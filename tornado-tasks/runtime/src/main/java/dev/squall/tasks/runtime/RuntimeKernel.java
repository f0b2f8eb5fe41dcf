package dev.squall.tasks.runtime;

import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.DeviceProgram;

/**
 * A kernel compiled from source at run time for one device ({@link Device#compile}). It runs as an ordinary task:
 * its arguments are checked against its {@link KernelSignature} before launch, its arrays share their device copies
 * with every other task on the device, and its launches follow the plan's transfer modes, grids and profiling.
 *
 * <pre>{@code
 * RuntimeKernel k = device.compile("scale", KernelSource.of(openCl, cuda), KernelSignature.spmd().array("x", DoubleArray.class).scalar("a", double.class));
 * TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
 *         .task("t", k, x, 2.0).transferToHost(DataTransferMode.EVERY_EXECUTION, x);
 * try (ExecutionPlan p = new ExecutionPlan(g.snapshot())) {
 *     p.withDevice(device).withGrid("t", WorkerGrid.of(x.getSize()).withLocal(64)).execute();
 * }
 * }</pre>
 */
public final class RuntimeKernel implements TaskKernel {
    private final Device device;
    private final KernelInfo info;
    private final KernelSignature signature;
    private final DeviceProgram program;
    private final DeviceKernel kernel;

    RuntimeKernel(Device device, KernelInfo info, KernelSignature signature, DeviceProgram program, DeviceKernel kernel) {
        this.device = device;
        this.info = info;
        this.signature = signature;
        this.program = program;
        this.kernel = kernel;
    }

    /** The kernel's function name in the source. */
    public String name() {
        return info.name();
    }

    /** The device it was compiled for; plans on other devices reject it. */
    public Device device() {
        return device;
    }

    public KernelSignature signature() {
        return signature;
    }

    /** Milliseconds the driver or NVRTC spent compiling (0 when the binary came from the build cache, and on the JVM). */
    public double buildMillis() {
        return program.buildMillis();
    }

    /** Whether the binary came from the on-disk build cache. */
    public boolean fromCache() {
        return program.fromCache();
    }

    /** Registers, local memory and threads per block where the driver reports them; "" otherwise. */
    public String resourceReport() {
        return kernel.resourceReport();
    }

    KernelInfo info() {
        return info;
    }

    DeviceKernel deviceKernel() {
        return kernel;
    }

    /** The iteration count of a loop kernel: its first argument. */
    long[] tripCounts(Object[] args) {
        return new long[] {((Number) args[0]).longValue()};
    }

    @Override
    public String toString() {
        return "runtime kernel " + info.name() + " " + signature + " on " + device.id();
    }
}
