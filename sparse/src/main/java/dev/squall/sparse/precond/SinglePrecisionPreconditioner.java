package dev.squall.sparse.precond;

import dev.squall.sparse.solve.kernels.ConvertKernels;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.ArrayList;
import java.util.List;

/**
 * A preconditioner built in single precision applied inside double-precision CG: r is rounded to fp32, the inner
 * preconditioner computes its z in fp32 (its matrix, factors and sweeps at half the bytes), and z is widened back.
 * The rounding makes M^-1 symmetric only to about 1e-7 relative, which CG tolerates as a slightly different
 * preconditioner each step; the solve's residual and updates stay fp64, so the attainable accuracy is unchanged.
 *
 * <pre>{@code
 * Preconditioner inner = StencilMultigrid.create(27, dims, DeviceMatrix.of(a, Precision.FP32), Precision.FP32, ...);
 * Preconditioner m = new SinglePrecisionPreconditioner(inner, a.rows());
 * }</pre>
 */
public final class SinglePrecisionPreconditioner implements Preconditioner {
    private final Preconditioner inner;
    private final int n;
    private final FloatArray r32;
    private final FloatArray z32;

    /** Wraps {@code inner} (built at {@link dev.squall.tasks.runtime.Precision#FP32}) for vectors of length {@code n}. */
    public SinglePrecisionPreconditioner(Preconditioner inner, int n) {
        this.inner = inner;
        this.n = n;
        this.r32 = new FloatArray(Math.max(1, n));
        this.z32 = new FloatArray(Math.max(1, n));
    }

    @Override
    public String name() {
        return inner.name() + "-fp32";
    }

    @Override
    public String describe() {
        return inner.describe() + ", in fp32 (r rounded, z widened)";
    }

    @Override
    public double setupMillis() {
        return inner.setupMillis();
    }

    @Override
    public double flopsPerApply() {
        return inner.flopsPerApply();
    }

    @Override
    public double bytesPerApply() {
        return inner.bytesPerApply() + n * (8.0 + 4.0) * 2;
    }

    @Override
    public void appendApply(TaskGraph g, String prefix, KernelArray r, KernelArray z) {
        requireDouble(r, z);
        g.task(prefix + "/to32", ConvertKernels::toSingle, (DoubleArray) r, r32, n);
        inner.appendApply(g, prefix, r32, z32);
        g.task(prefix + "/to64", ConvertKernels::toDouble, z32, (DoubleArray) z, n);
    }

    @Override
    public List<Phase> phases(String prefix, KernelArray r, KernelArray z) {
        requireDouble(r, z);
        List<Phase> out = new ArrayList<>();
        out.add(new Phase("precond r to fp32", -1, g -> g.task(prefix + "/to32", ConvertKernels::toSingle, (DoubleArray) r, r32, n)));
        out.addAll(inner.phases(prefix, r32, z32));
        out.add(new Phase("precond z to fp64", -1, g -> g.task(prefix + "/to64", ConvertKernels::toDouble, z32, (DoubleArray) z, n)));
        return out;
    }

    private static void requireDouble(KernelArray r, KernelArray z) {
        if (!(r instanceof DoubleArray) || !(z instanceof DoubleArray)) {
            throw new IllegalArgumentException("a single-precision preconditioner serves double-precision CG; this solver's vectors are not fp64");
        }
    }
}
