package dev.squall.bench.suite;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code y = A x} in the format {@link FormatChooser} picks for the device, on a real matrix (1138_bus from the
 * SuiteSparse collection, packed with the jar from bench/data) or a generated one. A sample is the device time per
 * call of 20 calls enqueued back to back; bytes counted as {@code squall spmv} counts them, as CSR traffic (values and
 * column indices, row pointers, x and y once each) whatever format runs, so formats compare on one count; a format that
 * moves fewer bytes (DIA has no column indices) can show more than the copy bandwidth, and the note says so.
 * Verified against {@link ReferenceSpmv}.
 */
public final class SpmvAuto extends Workload {
    /** The real matrix of the demo: 1138_bus, a power network, 1138 rows, 4054 entries. */
    public static final String BUS = "1138_bus";
    private final String matrix;

    /** {@link #BUS} or a generator spec ({@code 27pt:40x40x40}, see {@link MatrixGenerators}). */
    public SpmvAuto(String matrix) {
        super("spmv", "SpMV, automatic format", "entries", "fp64", Bound.MEMORY);
        this.matrix = matrix;
    }

    private CsrMatrix load() {
        if (!matrix.equals(BUS)) return MatrixGenerators.generate(matrix);
        try (InputStream in = SpmvAuto.class.getResourceAsStream(BUS + ".mtx")) {
            if (in == null) throw new IllegalStateException(BUS + ".mtx is missing from the squall-bench jar");
            return MatrixMarketReader.read(in, BUS + ".mtx");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private CsrMatrix a;

    private CsrMatrix matrix() {
        if (a == null) a = load();
        return a;
    }

    @Override
    public String size() {
        CsrMatrix m = matrix();
        return String.format(Locale.ROOT, "%s nnz=%d", matrix.equals(BUS) ? BUS : matrix, m.nnz());
    }

    @Override
    public double scale() {
        return matrix().nnz();
    }

    @Override
    protected Run start(Device device) {
        CsrMatrix m = matrix();
        FormatChooser.Choice choice = FormatChooser.choose(m, device);
        SpmvExecutor e = SpmvExecutor.create(m, choice.format(), Precision.FP64, device);
        double[] x = new SplittableRandom(7).doubles(m.cols(), -1, 1).toArray();
        e.setX(x);
        e.execute();
        return new Run() {
            @Override
            public double sample() {
                return e.batchMillis(20);
            }

            @Override
            public double work() {
                return (double) m.nnz() * (8 + 4) + 4.0 * (m.rows() + 1) + 8.0 * (m.cols() + m.rows());
            }

            @Override
            public String note(double medianMs) {
                return "format " + choice.format().cliName() + ", bytes counted as CSR";
            }

            @Override
            public Check check(ResultHook hook) {
                double[] y = e.y();
                hook.accept(name(), y);
                return new Check(Check.relativeError(y, ReferenceSpmv.multiply(m, x)), 1e-12, "ReferenceSpmv, relative 2-norm");
            }

            @Override
            public void close() {
                e.close();
            }
        };
    }
}
