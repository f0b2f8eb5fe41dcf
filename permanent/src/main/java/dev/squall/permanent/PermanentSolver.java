package dev.squall.permanent;

import dev.squall.permanent.codegen.GeneratedKernelPermanent;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.cpu.ProgressListener;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.kernel.GenericKernelPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.RowScaling;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import dev.squall.permanent.preprocess.Reduction;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;

import java.util.ArrayList;
import java.util.List;

/**
 * Computes matrix permanents: optional preprocessing (block-triangular split, degree
 * elimination), exact power-of-two row scaling, then the Gray-code phase of each block with the
 * chosen {@link Method} on the chosen device; block results multiply in a {@link ScaledValue}, so
 * a permanent outside the double range is detected rather than returned as garbage.
 *
 * <pre>{@code
 * PermanentResult r = new PermanentSolver().device(Devices.get("cuda:0")).method(Method.CODEGEN_HYBRID).solve(a);
 * System.out.println(r.value() + " via " + r.methodUsed() + ", " + r.stepsPerSecond() + " steps/s");
 * }</pre>
 */
public final class PermanentSolver {
    /** Blocks up to this order run on the JVM in AUTO mode: a device launch costs more than the sweep. */
    static final int AUTO_JVM_MAX_N = 20;

    private Device device = Devices.jvm();
    private Method method = Method.AUTO;
    private boolean decompose = true;
    private int threads = Runtime.getRuntime().availableProcessors();
    private ProgressListener progress = ProgressListener.NONE;

    private int minBlocksPerSm = 0;
    private boolean accurate = false;

    public PermanentSolver device(Device d) {
        this.device = d;
        return this;
    }

    public PermanentSolver method(Method m) {
        this.method = m;
        return this;
    }

    /** Switches the block-triangular split and degree elimination on or off (default on). */
    public PermanentSolver decompose(boolean on) {
        this.decompose = on;
        return this;
    }

    /** JVM worker threads (default: available processors). */
    public PermanentSolver threads(int t) {
        if (t < 1) throw new IllegalArgumentException("threads must be >= 1, got " + t);
        this.threads = t;
        return this;
    }

    /** CUDA generated kernels: launch bounds capping registers (0, the default: the compiler's choice). */
    public PermanentSolver minBlocksPerSm(int b) {
        new dev.squall.permanent.codegen.KernelSourceGenerator.Options(0, b); // validates the range
        this.minBlocksPerSm = b;
        return this;
    }

    /**
     * Runs every Gray-code block as the double-double JVM sweep ({@link ChunkedJvmPermanent#accurate}),
     * whatever the method and device: about 10x slower, for matrices whose alternating sum cancels.
     */
    public PermanentSolver accurate(boolean on) {
        this.accurate = on;
        return this;
    }

    public PermanentSolver progress(ProgressListener p) {
        this.progress = p;
        return this;
    }

    /**
     * @throws IllegalArgumentException for an empty matrix, or a Gray-code block larger than 63
     *                                  (with decomposition off: a matrix larger than 63)
     */
    public PermanentResult solve(SquareMatrix a) {
        if (a.n() == 0) throw new IllegalArgumentException("the matrix is empty (0 x 0): nothing to compute");
        if (!decompose) NijenhuisWilf.checkOrder(a.n());
        long t0 = System.nanoTime();
        Reduction red = decompose ? Reduction.of(a) : Reduction.none(a);
        double preMillis = (System.nanoTime() - t0) / 1e6;
        for (SquareMatrix b : red.blocks()) {
            if (b.n() > NijenhuisWilf.MAX_N) {
                throw new IllegalArgumentException("after decomposition a block of order " + b.n() + " remains; the Gray-code sweep supports n <= "
                        + NijenhuisWilf.MAX_N + " (matrix " + a.n() + "x" + a.n() + ", blocks " + red.blocks().stream().map(SquareMatrix::n).toList() + ")");
            }
        }
        ScaledValue value = red.factor();
        List<String> used = new ArrayList<>();
        List<GeneratedKernelPermanent.Run> generated = new ArrayList<>();
        long steps = 0;
        double sweepSeconds = 0;
        for (SquareMatrix b : red.blocks()) {
            RowScaling s = RowScaling.of(b);
            Method m = accurate ? Method.SPARSE : resolve(b);
            Device dev = accurate || (method == Method.AUTO && b.n() <= AUTO_JVM_MAX_N) ? Devices.jvm() : device;
            long s0 = System.nanoTime();
            double p = accurate ? new ChunkedJvmPermanent(threads).withProgress(progress).accurate(ColumnDegreeSort.apply(s.scaled())) : switch (m) {
                case DENSE -> dev.info().type() == DeviceType.JVM ? new ChunkedJvmPermanent(threads).withProgress(progress).dense(s.scaled())
                        : new GenericKernelPermanent(dev, false).withProgress(progress).compute(s.scaled());
                case DENSE_LOCAL -> new GenericKernelPermanent(dev, false).withXStorage(GenericKernelPermanent.XStorage.LOCAL)
                        .withProgress(progress).compute(s.scaled());
                case SPARSE -> {
                    SquareMatrix sorted = ColumnDegreeSort.apply(s.scaled());
                    yield dev.info().type() == DeviceType.JVM ? new ChunkedJvmPermanent(threads).withProgress(progress).sparse(sorted)
                            : new GenericKernelPermanent(dev, true).withProgress(progress).compute(sorted);
                }
                case CODEGEN_REG, CODEGEN_HYBRID -> {
                    GeneratedKernelPermanent.Run r = new GeneratedKernelPermanent(dev,
                            m == Method.CODEGEN_REG ? GeneratedKernelPermanent.Variant.PURE_REG : GeneratedKernelPermanent.Variant.HYBRID)
                            .withMinBlocksPerSm(minBlocksPerSm).withProgress(progress).compute(s.scaled());
                    generated.add(r);
                    yield r.value();
                }
                case AUTO -> throw new IllegalStateException("unresolved");
            };
            sweepSeconds += (System.nanoTime() - s0) / 1e9;
            steps += NijenhuisWilf.steps(b.n());
            used.add((accurate ? "accurate" : m.cliName()) + "@" + dev.id());
            value = value.times(ScaledValue.of(p, s.exponent()));
        }
        return new PermanentResult(value, red, used, generated, steps, sweepSeconds, preMillis, (System.nanoTime() - t0) / 1e9);
    }

    /** AUTO: JVM sweeps for small blocks and on the JVM device, the generated hybrid elsewhere. */
    private Method resolve(SquareMatrix b) {
        if (method != Method.AUTO) {
            if (device.info().type() == DeviceType.JVM && (method == Method.CODEGEN_REG || method == Method.CODEGEN_HYBRID)) {
                throw new IllegalArgumentException("method " + method.cliName() + " needs a CUDA or OpenCL device; --device jvm runs dense or sparse");
            }
            return method;
        }
        double density = (double) b.nonzeros() / ((double) b.n() * b.n());
        if (device.info().type() == DeviceType.JVM || b.n() <= AUTO_JVM_MAX_N) return density < 0.5 ? Method.SPARSE : Method.DENSE;
        return Method.CODEGEN_HYBRID;
    }
}
