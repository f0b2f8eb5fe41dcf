package dev.squall.sparse.spmm;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.spmv.Precision;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.Profile;
import dev.squall.tasks.runtime.TaskGraph;

/**
 * Sparse times dense block, {@code Y = alpha A X + beta Y} with K vectors, X and Y in one layout
 * (row- or column-major). The matrix (CSR) stays on the device; X, Y and the coefficients are
 * copied there when a setter changed them. Row-major gives each row's K outputs to neighbouring
 * work-items, which read the row's entries once between them and X rows contiguously.
 *
 * <pre>{@code
 * try (SpmmExecutor m = SpmmExecutor.create(a, 8, Layout.ROW_MAJOR, Precision.FP64, Devices.select(null))) {
 *     double[] y = m.multiply(1.0, x, 0.0, null);   // x: cols * 8, y: rows * 8, both row-major
 * }
 * }</pre>
 */
public final class SpmmExecutor implements AutoCloseable {
    private static int serial;

    private final CsrMatrix a;
    private final int k;
    private final Layout layout;
    private final Precision precision;
    private final Device device;
    private final KernelArray x;
    private final KernelArray y;
    private final KernelArray coef;
    private final Object[] args;
    private final String kernel;
    private final String id;
    private final double inspectorMillis;
    private final ExecutionPlan upload;
    private final ExecutionPlan run;
    private ExecutionPlan batch;
    private int batchCalls;
    private boolean dirty = true;
    private ExecutionResult last;

    private SpmmExecutor(CsrMatrix a, int k, Layout layout, Precision p, Device d) {
        long t0 = System.nanoTime();
        if (k < 1) throw new IllegalArgumentException("--vectors " + k + " must be at least 1");
        if ((long) a.rows() * k > Integer.MAX_VALUE - 1 || (long) a.cols() * k > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException(a.rows() + " x " + a.cols() + " with " + k + " vectors exceeds 2^31 elements per block");
        }
        this.a = a;
        this.k = k;
        this.layout = layout;
        this.precision = p;
        this.device = d;
        this.x = p.vector(a.cols() * k);
        this.y = p.vector(a.rows() * k);
        this.coef = p.vector(2);
        Precision.write(coef, new double[] {1, 0});
        IntArray rowPtr = ints(a.rowPtr());
        IntArray col = ints(a.colIdx());
        KernelArray val = p.array(a.values());
        int total = a.rows() * k;
        if (layout == Layout.ROW_MAJOR) {
            kernel = "spmmRowMajor";
            args = new Object[] {rowPtr, col, val, x, y, coef, k, total};
        } else {
            kernel = "spmmColMajor";
            args = new Object[] {rowPtr, col, val, x, y, coef, a.rows(), a.cols(), total};
        }
        this.inspectorMillis = (System.nanoTime() - t0) / 1e6;
        synchronized (SpmmExecutor.class) {
            id = "spmm" + serial++;
        }
        upload = new ExecutionPlan(new TaskGraph(id + "in").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y, coef).snapshot());
        upload.withDevice(d);
        run = new ExecutionPlan(new TaskGraph(id).task("t", p.kernels(), kernel, args).snapshot());
        run.withDevice(d).withProfiler(true);
    }

    /** Binds {@code a} to {@code device} for products with {@code k} vectors laid out as {@code layout}. */
    public static SpmmExecutor create(CsrMatrix a, int k, Layout layout, Precision precision, Device device) {
        return new SpmmExecutor(a, k, layout, precision, device);
    }

    /** Sets X ({@code cols * k} entries in this executor's layout). */
    public SpmmExecutor setX(double[] v) {
        check("X", v.length, (long) a.cols() * k);
        Precision.write(x, v);
        dirty = true;
        return this;
    }

    /** Sets Y ({@code rows * k} entries); read only when beta is not 0. */
    public SpmmExecutor setY(double[] v) {
        check("Y", v.length, (long) a.rows() * k);
        Precision.write(y, v);
        dirty = true;
        return this;
    }

    /** Sets alpha and beta (default 1 and 0). */
    public SpmmExecutor setCoefficients(double alpha, double beta) {
        Precision.write(coef, new double[] {alpha, beta});
        dirty = true;
        return this;
    }

    /** Computes Y = alpha A X + beta Y once; the profile's kernel time is this call's executor time. */
    public Profile execute() {
        uploadIfDirty();
        last = run.execute();
        return last.profile();
    }

    /** Executor time per call over {@code calls} back-to-back products between one pair of device events. */
    public double batchMillis(int calls) {
        if (calls < 1) throw new IllegalArgumentException("calls " + calls + " must be at least 1");
        uploadIfDirty();
        if (batch == null || batchCalls != calls) {
            if (batch != null) batch.close();
            TaskGraph g = new TaskGraph(id + "b" + calls);
            for (int r = 0; r < calls; r++) g.task("b" + r, precision.kernels(), kernel, args);
            batch = new ExecutionPlan(g.snapshot());
            batch.withDevice(device).withProfiler(true);
            batchCalls = calls;
        }
        last = batch.execute();
        return last.profile().kernelMillis() / calls;
    }

    /** Y after the last execution, copied back ({@code rows * k}, this executor's layout). */
    public double[] y() {
        if (last == null) execute();
        last.transferToHost(y);
        return Precision.read(y, a.rows() * k);
    }

    /** One product with copies in and out ({@code y0} may be null when beta is 0). */
    public double[] multiply(double alpha, double[] xv, double beta, double[] y0) {
        setX(xv);
        setCoefficients(alpha, beta);
        if (y0 != null) setY(y0);
        else if (beta != 0) throw new IllegalArgumentException("beta is " + beta + " but no Y was given");
        execute();
        return y();
    }

    public Layout layout() {
        return layout;
    }

    public int vectors() {
        return k;
    }

    /** Inspector time: building the device-side arrays. */
    public double inspectorMillis() {
        return inspectorMillis;
    }

    /** One line: kernel and work-item mapping. */
    public String detail() {
        return layout == Layout.ROW_MAJOR ? "row-major X/Y: a work-item per output, the K outputs of a row adjacent"
                : "column-major X/Y: a work-item per output, rows adjacent within each vector";
    }

    private void uploadIfDirty() {
        if (dirty) {
            upload.execute();
            dirty = false;
        }
    }

    private static void check(String what, int got, long want) {
        if (got != want) throw new IllegalArgumentException(what + " has " + got + " entries, needs " + want);
    }

    private static IntArray ints(int[] v) {
        IntArray r = new IntArray(Math.max(1, v.length));
        for (int i = 0; i < v.length; i++) r.set(i, v[i]);
        return r;
    }

    /** Releases the launches and the device copies of this executor's arrays. */
    @Override
    public void close() {
        run.freeDeviceMemory();
        upload.freeDeviceMemory();
        if (batch != null) batch.close();
        run.close();
        upload.close();
    }
}
