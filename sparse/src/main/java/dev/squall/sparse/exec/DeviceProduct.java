package dev.squall.sparse.exec;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.Profile;

/**
 * A sparse product bound to a device and run by a {@link LaunchRunner}, as the SpMV and SpMM executors are: running
 * and timing its launches, reading its output back, and what the inspector chose and how long it took. A subclass
 * builds its arrays and launches, then calls {@link #bind}; its setters write the inputs and mark them dirty
 * ({@code runner().markDirty()}), so they are copied to the device before the next run.
 */
public abstract class DeviceProduct implements AutoCloseable {
    private LaunchRunner runner;
    private KernelArray output;
    private int outputLength;
    private String detail;
    private double inspectorMillis;

    protected DeviceProduct() {
    }

    /** Binds the runner of the launches, the array they write ({@code outputLength} entries), and the inspector's report. */
    protected final void bind(LaunchRunner runner, KernelArray output, int outputLength, String detail, double inspectorMillis) {
        this.runner = runner;
        this.output = output;
        this.outputLength = outputLength;
        this.detail = detail;
        this.inspectorMillis = inspectorMillis;
    }

    protected final LaunchRunner runner() {
        return runner;
    }

    /** Adds inspector work done outside the constructor (a transpose before it). */
    protected final void addInspectorMillis(double ms) {
        inspectorMillis += ms;
    }

    /** Sets the input x (or X). */
    public abstract DeviceProduct setX(double[] x);

    /** Sets the output's old value y (or Y); only read when beta is not 0. */
    public abstract DeviceProduct setY(double[] y);

    /** Sets alpha and beta (default 1 and 0). */
    public abstract DeviceProduct setCoefficients(double alpha, double beta);

    /**
     * Computes {@code y = alpha A x + beta y} on the device, copying x, y and the coefficients there
     * first if a setter changed them. The profile's kernel time is the executor time of this call
     * (the first call also builds the kernels and copies the matrix).
     */
    public Profile execute() {
        return runner.execute().profile();
    }

    /**
     * Executor time per call measured as a device would be used in a solver loop: {@code calls}
     * products enqueued back to back between one pair of device events, time divided by
     * {@code calls}. A single {@link #execute()} also times the host's launch work between its
     * start event and the kernel (argument binding, a cold JIT), which can be as long as a small
     * kernel; a batch hides it behind the kernels already queued. y ends as after one call when
     * beta is 0 (with beta not 0 each call accumulates).
     */
    public double batchMillis(int calls) {
        return runner.batchMillis(calls);
    }

    /** y after the last {@link #execute()}, copied back from the device. */
    public double[] y() {
        if (!runner.hasRun()) execute();
        runner.copyBack(output);
        return Precision.read(output, outputLength);
    }

    /** One product with copies in and out: returns {@code alpha A x + beta y0} ({@code y0} may be null when beta is 0). */
    public double[] multiply(double alpha, double[] x, double beta, double[] y0) {
        setX(x);
        setCoefficients(alpha, beta);
        if (y0 != null) setY(y0);
        else if (beta != 0) throw new IllegalArgumentException("beta is " + beta + " but no y was given");
        execute();
        return y();
    }

    /** What the inspector chose (kernel, work-item mapping, width, lanes, chunking...). */
    public String detail() {
        return detail;
    }

    /** Wall time of the inspector: format conversion and filling the device-side arrays on the host. */
    public double inspectorMillis() {
        return inspectorMillis;
    }

    /** Releases the launches and the device copies of this product's arrays. */
    @Override
    public void close() {
        runner.close();
    }
}
