package dev.squall.sparse.spmv;

import static dev.squall.sparse.exec.DeviceArrays.zeros;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.exec.DeviceProduct;
import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.List;

/**
 * A sparse matrix inspected once into a format and bound to a device, ready to compute
 * {@code y = alpha A x + beta y} many times. The matrix stays on the device; x, y and the
 * coefficients are copied there only when they were changed through the setters.
 *
 * <pre>{@code
 * try (SpmvExecutor spmv = SpmvExecutor.create(a, SpmvFormat.SELL, Precision.FP64, Devices.select(null))) {
 *     double[] y = spmv.multiply(1.0, x, 0.0, null);          // y = A x
 *     spmv.execute();                                         // again, nothing copied
 *     System.out.println(spmv.inspectorMillis() + " ms to inspect, " + spmv.detail());
 * }
 * }</pre>
 */
public final class SpmvExecutor extends DeviceProduct {
    private static int serial;

    private final CsrMatrix matrix;
    private final SpmvFormat format;
    private final Precision precision;
    private final Device device;
    private final FormatLaunches.Vectors v;

    /** The launches {@code d} calls for (GPU or CPU style), 64-bit offsets where the entries need them. */
    private SpmvExecutor(CsrMatrix a, SpmvFormat f, Precision p, Device d, BinnedTuning tuning) {
        this(a, f, p, d, d.info().isGpu(), FormatLaunches.needsLongOffsets(a.nnz()), tuning);
    }

    private SpmvExecutor(CsrMatrix a, SpmvFormat f, Precision p, Device d, boolean gpuStyle, boolean longOffsets) {
        this(a, f, p, d, gpuStyle, longOffsets, BinnedTuning.DEFAULT);
    }

    private SpmvExecutor(CsrMatrix a, SpmvFormat f, Precision p, Device d, boolean gpuStyle, boolean longOffsets, BinnedTuning tuning) {
        long t0 = System.nanoTime();
        this.matrix = a;
        this.format = f;
        this.precision = p;
        this.device = d;
        this.v = new FormatLaunches.Vectors(zeros(p, a.cols()), zeros(p, a.rows()), zeros(p, 2), zeros(p, 2));
        Precision.write(v.coef(), new double[] {1, 0});
        Precision.write(v.coefAcc(), new double[] {1, 1});
        FormatLaunches.Built built = FormatLaunches.build(a, f, p, v, gpuStyle, longOffsets, tuning);
        double inspectorMs = (System.nanoTime() - t0) / 1e6;
        String id;
        synchronized (SpmvExecutor.class) {
            id = "spmv" + serial++;
        }
        bind(new LaunchRunner(id, d, built.launches(), v.x(), v.y(), v.coef(), v.coefAcc()), v.y(), a.rows(), built.detail(), inspectorMs);
    }

    /**
     * Runs the inspector for {@code format} on {@code a} and binds the result to {@code device}.
     *
     * @throws IllegalArgumentException if the format cannot hold this matrix (e.g. DIA of a scattered matrix)
     */
    public static SpmvExecutor create(CsrMatrix a, SpmvFormat format, Precision precision, Device device) {
        return create(a, format, precision, device, BinnedTuning.DEFAULT);
    }

    /**
     * As {@link #create(CsrMatrix, SpmvFormat, Precision, Device)} with csr-binned's knobs ({@link BinnedTuning});
     * other formats accept only {@link BinnedTuning#DEFAULT}.
     */
    public static SpmvExecutor create(CsrMatrix a, SpmvFormat format, Precision precision, Device device, BinnedTuning tuning) {
        return new SpmvExecutor(a, format, precision, device, tuning);
    }

    /** For tests: csr-binned's knobs with the launches a GPU ({@code gpuStyle}) or a CPU would get. */
    static SpmvExecutor createStyled(CsrMatrix a, SpmvFormat format, Precision precision, Device device, boolean gpuStyle, BinnedTuning tuning) {
        return new SpmvExecutor(a, format, precision, device, gpuStyle, FormatLaunches.needsLongOffsets(a.nnz()), tuning);
    }

    /** For tests: the launches a GPU ({@code gpuStyle}) or a CPU would get, run on {@code device}. */
    static SpmvExecutor createStyled(CsrMatrix a, SpmvFormat format, Precision precision, Device device, boolean gpuStyle) {
        return createStyled(a, format, precision, device, gpuStyle, BinnedTuning.DEFAULT);
    }

    /** For tests: 64-bit row pointers forced on a small matrix (only CSR has them; other formats are refused). */
    static SpmvExecutor createWithLongOffsets(CsrMatrix a, SpmvFormat format, Precision precision, Device device) {
        return new SpmvExecutor(a, format, precision, device, device.info().isGpu(), true);
    }

    /**
     * An executor of {@code y = alpha A^T x + beta y}: the inspector transposes A once (its time is
     * part of {@link #inspectorMillis()}), then {@code format}'s executor runs on {@code A^T}; x has
     * {@code a.rows()} entries, y {@code a.cols()}.
     */
    public static SpmvExecutor createTransposed(CsrMatrix a, SpmvFormat format, Precision precision, Device device) {
        return createTransposed(a, format, precision, device, BinnedTuning.DEFAULT);
    }

    /** {@link #createTransposed(CsrMatrix, SpmvFormat, Precision, Device)} with csr-binned's knobs. */
    public static SpmvExecutor createTransposed(CsrMatrix a, SpmvFormat format, Precision precision, Device device, BinnedTuning tuning) {
        long t0 = System.nanoTime();
        CsrMatrix at = CsrTranspose.of(a);
        double ms = (System.nanoTime() - t0) / 1e6;
        SpmvExecutor e = new SpmvExecutor(at, format, precision, device, tuning);
        e.addInspectorMillis(ms);
        return e;
    }

    /** Sets x (length {@code cols}). */
    public SpmvExecutor setX(double[] x) {
        check("x", x.length, matrix.cols());
        Precision.write(v.x(), x);
        runner().markDirty();
        return this;
    }

    /** Sets y (length {@code rows}); only read when beta is not 0. */
    public SpmvExecutor setY(double[] y) {
        check("y", y.length, matrix.rows());
        Precision.write(v.y(), y);
        runner().markDirty();
        return this;
    }

    /** Sets alpha and beta (default 1 and 0). */
    public SpmvExecutor setCoefficients(double alpha, double beta) {
        Precision.write(v.coef(), new double[] {alpha, beta});
        Precision.write(v.coefAcc(), new double[] {alpha, 1});
        runner().markDirty();
        return this;
    }

    public SpmvFormat format() {
        return format;
    }

    public Precision precision() {
        return precision;
    }

    public Device device() {
        return device;
    }

    private static void check(String what, int got, int want) {
        if (got != want) throw new IllegalArgumentException(what + " has " + got + " entries, the matrix needs " + want);
    }

    /** For tests of the device path: the vectors this executor owns. */
    List<KernelArray> vectors() {
        return List.of(v.x(), v.y(), v.coef(), v.coefAcc());
    }
}
