package dev.squall.sparse.spmv;

import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

/**
 * An SpMV executor's launches on vectors the caller owns, for solvers that put {@code y = alpha A x + beta y} into
 * their own task graphs (the matrix is inspected into {@code format} once; x, y and the coefficients stay the caller's
 * device-resident arrays).
 *
 * <pre>{@code
 * SpmvLaunches.Bound ap = SpmvLaunches.bind(a, SpmvFormat.CSR, Precision.FP64, device, p, q, coef);   // q = A p
 * ap.launches().appendTo(tasks);
 * }</pre>
 */
public final class SpmvLaunches {
    /** The launches of one product on the given vectors, and the layout the inspector chose. */
    public record Bound(LaunchRunner.Launches launches, String detail) {
    }

    private SpmvLaunches() {
    }

    /**
     * Inspects {@code a} into {@code format} for {@code device}; the launches compute {@code y = coef[0] A x + coef[1] y}
     * ({@code coef} of precision {@code p}, two values, read on the device).
     *
     * @throws IllegalArgumentException if the format cannot hold the matrix or a vector has the wrong size or precision
     */
    public static Bound bind(CsrMatrix a, SpmvFormat format, Precision p, Device device, KernelArray x, KernelArray y, KernelArray coef) {
        if (x.getSizeLong() < a.cols()) throw new IllegalArgumentException("x has " + x.getSizeLong() + " entries, the matrix needs " + a.cols());
        if (y.getSizeLong() < a.rows()) throw new IllegalArgumentException("y has " + y.getSizeLong() + " entries, the matrix needs " + a.rows());
        if (!p.holds(x) || !p.holds(y) || !p.holds(coef)) throw new IllegalArgumentException("x, y and coef must hold " + p + " values");
        KernelArray coefAcc = p.allocate(2);
        Precision.write(coefAcc, new double[] {Precision.get(coef, 0), 1});
        FormatLaunches.Built b = FormatLaunches.build(a, format, p, device, new FormatLaunches.Vectors(x, y, coef, coefAcc));
        return new Bound(b.launches(), b.detail());
    }
}
