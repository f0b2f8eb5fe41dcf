package dev.squall.sparse.spmm;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.values;
import static dev.squall.sparse.exec.DeviceArrays.zeros;

import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.sparse.format.CsbFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.spmv.kernels.SpmmKernels;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;

/**
 * SpMM with A and with A^T from one CSB copy of the matrix on the device ({@link CsbFormat}):
 * {@code Y = alpha A X + beta Y} walks the blocks by block row, {@code Y = alpha A^T X + beta Y}
 * walks the same blocks by block column, so neither needs a transposed copy. Work-items own a
 * block row (or column) for one vector, so parallelism is {@code ceil(n / beta) * K}: suited to
 * CPUs (the JVM, OpenCL on CPUs); on GPUs prefer {@link SpmmExecutor} (binned) with its
 * transposing inspector.
 *
 * <pre>{@code
 * try (CsbExecutor m = CsbExecutor.create(a, 4, Layout.COL_MAJOR, Precision.FP64, Devices.jvm())) {
 *     double[] y = m.multiply(false, 1.0, x, 0.0, null);    // A X:   x has cols * 4 entries
 *     double[] z = m.multiply(true, 1.0, w, 0.0, null);     // A^T W: w has rows * 4 entries
 * }
 * }</pre>
 */
public final class CsbExecutor implements AutoCloseable {
    private static int serial;

    private final CsbFormat csb;
    private final int k;
    private final Layout layout;
    private final Precision precision;
    private final Device device;
    private final double inspectorMillis;
    private final Side forward;
    private final Side transposed;

    /** One direction: its x, y, coefficients, plans and launch arguments. */
    private final class Side implements AutoCloseable {
        final boolean t;
        final int inLen;
        final int outLen;
        final KernelArray x;
        final KernelArray y;
        final KernelArray coef;
        final LaunchRunner runner;

        Side(boolean t, String id, IntArray[] shared, KernelArray val) {
            this.t = t;
            int in = t ? csb.rows() : csb.cols();
            int out = t ? csb.cols() : csb.rows();
            inLen = in * k;
            outLen = out * k;
            x = zeros(precision, inLen);
            y = zeros(precision, outLen);
            coef = zeros(precision, 2);
            Precision.write(coef, new double[] {1, 0});
            boolean row = layout == Layout.ROW_MAJOR;
            int xRow = row ? k : 1;
            int xVec = row ? 1 : in;
            int yRow = row ? k : 1;
            int yVec = row ? 1 : out;
            int beta = csb.beta();
            LaunchRunner.Launches launches;
            if (t) {
                int cols = csb.cols();
                int blockCols = csb.colBlockPtr().length - 1;
                launches = g -> g.graph().task(g.name("csb/block-columns"), SpmmKernels.csbMultiplyTransposed.at(precision), shared[3], shared[4], shared[5], shared[2],
                        shared[6], val, x, y, coef, cols, beta, blockCols, k, xRow, xVec, yRow, yVec);
            } else {
                int rows = csb.rows();
                int blockRows = csb.blockRowPtr().length - 1;
                launches = g -> g.graph().task(g.name("csb/block-rows"), SpmmKernels.csbMultiply.at(precision), shared[0], shared[1], shared[2], shared[6], val, x, y, coef,
                        rows, beta, blockRows, k, xRow, xVec, yRow, yVec);
            }
            runner = new LaunchRunner(id, device, launches, x, y, coef);
        }

        double[] multiply(double alpha, double[] xv, double beta, double[] y0) {
            check("X", xv.length, inLen);
            Precision.write(x, xv);
            Precision.write(coef, new double[] {alpha, beta});
            if (y0 != null) {
                check("Y", y0.length, outLen);
                Precision.write(y, y0);
            } else if (beta != 0) {
                throw new IllegalArgumentException("beta is " + beta + " but no Y was given");
            }
            runner.markDirty();
            runner.execute();
            runner.copyBack(y);
            return Precision.read(y, outLen);
        }

        @Override
        public void close() {
            runner.close();
        }
    }

    private CsbExecutor(CsrMatrix a, CsbFormat given, int k, Layout layout, Precision p, Device d) {
        long t0 = System.nanoTime();
        if (k < 1) throw new IllegalArgumentException("--vectors " + k + " must be at least 1");
        if ((long) a.rows() * k > Integer.MAX_VALUE - 1 || (long) a.cols() * k > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException(a.rows() + " x " + a.cols() + " with " + k + " vectors exceeds 2^31 elements per block");
        }
        this.csb = given != null ? given : CsbFormat.from(a);
        this.k = k;
        this.layout = layout;
        this.precision = p;
        this.device = d;
        IntArray[] shared = {ints(csb.blockRowPtr()), ints(csb.blockCol()), ints(csb.blockStart()), ints(csb.colBlockPtr()),
                ints(csb.colBlocks()), ints(csb.blockRow()), ints(csb.packed())};
        KernelArray val = values(p, csb.val());
        this.inspectorMillis = (System.nanoTime() - t0) / 1e6;
        String id;
        synchronized (CsbExecutor.class) {
            id = "csb" + serial++;
        }
        forward = new Side(false, id + "a", shared, val);
        transposed = new Side(true, id + "t", shared, val);
    }

    /** Inspects {@code a} into CSB (β chosen by {@link CsbFormat#from(CsrMatrix)}) and binds it to {@code device}. */
    public static CsbExecutor create(CsrMatrix a, int k, Layout layout, Precision precision, Device device) {
        return new CsbExecutor(a, null, k, layout, precision, device);
    }

    /** As {@link #create}, with block side {@code beta} (a power of two). */
    public static CsbExecutor create(CsrMatrix a, int beta, int k, Layout layout, Precision precision, Device device) {
        return new CsbExecutor(a, CsbFormat.from(a, beta), k, layout, precision, device);
    }

    /**
     * One product with copies in and out: {@code alpha A X + beta Y0}, or with {@code transpose}
     * {@code alpha A^T X + beta Y0} ({@code y0} may be null when beta is 0).
     */
    public double[] multiply(boolean transpose, double alpha, double[] x, double beta, double[] y0) {
        return (transpose ? transposed : forward).multiply(alpha, x, beta, y0);
    }

    /** Executor time per call over {@code calls} back-to-back products (with the last X and coefficients). */
    public double batchMillis(boolean transpose, int calls) {
        return (transpose ? transposed : forward).runner.batchMillis(calls);
    }

    /** Y after the last batch of one direction, copied back. */
    public double[] y(boolean transpose) {
        Side s = transpose ? transposed : forward;
        s.runner.copyBack(s.y);
        return Precision.read(s.y, s.outLen);
    }

    /** Inspector time: CSB conversion and the device-side arrays. */
    public double inspectorMillis() {
        return inspectorMillis;
    }

    /** One line: block side and stored blocks. */
    public String detail() {
        return "CSB, " + csb.beta() + "x" + csb.beta() + " blocks, " + csb.blocks() + " stored; a work-item per block row (A) or block column (A^T) per vector";
    }

    private static void check(String what, int got, long want) {
        if (got != want) throw new IllegalArgumentException(what + " has " + got + " entries, needs " + want);
    }

    /** Releases both directions' launches and device copies. */
    @Override
    public void close() {
        forward.close();
        transposed.close();
    }
}
