package dev.squall.sparse.spmm;

import static dev.squall.sparse.exec.DeviceArrays.ints;
import static dev.squall.sparse.exec.DeviceArrays.values;
import static dev.squall.sparse.exec.DeviceArrays.zeros;

import dev.squall.sparse.exec.DeviceProduct;
import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.spmv.kernels.BinnedCsrKernels;
import dev.squall.sparse.spmv.kernels.BinnedCsrKernelsF64;
import dev.squall.sparse.spmv.kernels.SpmmKernels;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;

/**
 * Sparse times dense block, {@code Y = alpha A X + beta Y} with K vectors, X and Y in one layout
 * (row- or column-major). The matrix stays on the device; X, Y and the coefficients are copied
 * there when a setter changed them. On GPUs, for column-major X and for skewed rows, the rows are
 * binned by length as in csr-binned SpMV (lanes per row for its length, long rows split over
 * work-groups) and each lane accumulates up to 8 vectors at once, so the matrix is read once per
 * 8 vectors. Otherwise a work-item per output: row-major gives a row's K outputs to neighbouring
 * work-items, which share the row's entries and read X rows contiguously.
 *
 * <pre>{@code
 * try (SpmmExecutor m = SpmmExecutor.create(a, 8, Layout.ROW_MAJOR, Precision.FP64, Devices.select(null))) {
 *     double[] y = m.multiply(1.0, x, 0.0, null);   // x: cols * 8, y: rows * 8, both row-major
 * }
 * }</pre>
 */
public final class SpmmExecutor extends DeviceProduct {
    private static int serial;

    private final CsrMatrix a;
    private final int k;
    private final Layout layout;
    private final Precision precision;
    private final Device device;
    private final KernelArray x;
    private final KernelArray y;
    private final KernelArray coef;

    /** Work-group size of the binned SpMM and its long-row segment length (entries), as csr-binned SpMV. */
    static final int GROUP = 256;
    static final int SEGMENT = 8 * GROUP;
    /** Vectors of X each spmmBinned launch multiplies (its private accumulators). */
    static final int CHUNK = BinnedCsrKernelsF64.SPMM_CHUNK;

    private SpmmExecutor(CsrMatrix a, int k, Layout layout, Precision p, Device d, boolean gpuStyle) {
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
        this.x = zeros(p, a.cols() * k);
        this.y = zeros(p, a.rows() * k);
        this.coef = zeros(p, 2);
        Precision.write(coef, new double[] {1, 0});
        boolean rowMajor = layout == Layout.ROW_MAJOR;
        LaunchRunner.Launches launches;
        String detail;
        // GPUs: binned for column-major X (a work-item per output would re-read the matrix per vector)
        // and for skewed rows; regular rows with row-major X keep a work-item per output (neighbours share the row)
        if (gpuStyle && a.nnz() > 0 && (!rowMajor || skewed(a))) {
            BinnedCsrFormat b = BinnedCsrFormat.from(a, GROUP, SEGMENT);
            if ((long) b.segRow().length * k > Integer.MAX_VALUE - 1) throw new IllegalArgumentException("spmm: too many long-row partial sums");
            int xRow = rowMajor ? k : 1;
            int xVec = rowMajor ? 1 : a.cols();
            int yRow = rowMajor ? k : 1;
            int yVec = rowMajor ? 1 : a.rows();
            KernelArray partial = zeros(p, b.segRow().length * k);
            IntArray binGroup = ints(b.binGroup()), binLanes = ints(b.binLanes()), binItem = ints(b.binItem()), rowList = ints(b.rowList());
            IntArray listPtr = ints(b.listPtr()), segRow = ints(b.segRow()), segStart = ints(b.segStart()), segEnd = ints(b.segEnd());
            IntArray entryCol = ints(b.entryCol());
            KernelArray entryVal = values(p, b.entryVal());
            IntArray longRow = ints(b.longRow()), longSeg = ints(b.longSeg());
            int bins = b.bins();
            int longRows = b.longRow().length;
            WorkerGrid grid = WorkerGrid.of((long) b.groups() * GROUP).withLocal(GROUP);
            launches = g -> {
                for (int c0 = 0; c0 < k; c0 += CHUNK) {
                    g.graph().task(g.name("spmm-binned/vectors-from-" + c0), grid, BinnedCsrKernels.spmmBinned.at(p), new KernelContext(), binGroup, binLanes, binItem, rowList, listPtr,
                            segRow, segStart, segEnd, entryCol, entryVal, x, y, coef, partial, bins, k, xRow, xVec, yRow, yVec, c0);
                }
                if (longRows > 0) {
                    g.graph().task(g.name("spmm-binned/long-rows"), BinnedCsrKernels.spmmSegmentSums.at(p), longRow, longSeg, partial, y, coef, longRows, k,
                            yRow, yVec);
                }
            };
            detail = (rowMajor ? "row-major" : "column-major") + " X/Y: rows binned by length (" + b.describe()
                    + "), " + CHUNK + " vectors per launch and pass over the matrix";
        } else {
            IntArray rowPtr = ints(a.rowPtr());
            IntArray col = ints(a.colIdx());
            KernelArray val = values(p, a.values());
            int total = a.rows() * k;
            int rows = a.rows();
            int cols = a.cols();
            if (rowMajor) {
                launches = g -> g.graph().task(g.name("spmm/row-major"), SpmmKernels.spmmRowMajor.at(p), rowPtr, col, val, x, y, coef, k, total);
                detail = "row-major X/Y: a work-item per output, the K outputs of a row adjacent";
            } else {
                launches = g -> g.graph().task(g.name("spmm/col-major"), SpmmKernels.spmmColMajor.at(p), rowPtr, col, val, x, y, coef, rows, cols, total);
                detail = "column-major X/Y: a work-item per output, rows adjacent within each vector";
            }
        }
        double inspectorMs = (System.nanoTime() - t0) / 1e6;
        String id;
        synchronized (SpmmExecutor.class) {
            id = "spmm" + serial++;
        }
        bind(new LaunchRunner(id, d, launches, x, y, coef), y, a.rows() * k, detail, inspectorMs);
    }

    /** Rows far longer than the mean (the rule of the SpMV format chooser). */
    static boolean skewed(CsrMatrix a) {
        int max = 0;
        for (int i = 0; i < a.rows(); i++) max = Math.max(max, a.rowLength(i));
        double mean = a.rows() == 0 ? 0 : (double) a.nnz() / a.rows();
        return max > 16 * Math.max(1, mean) && max >= 64;
    }

    /** For tests: the launches of a GPU ({@code gpuStyle}) or a CPU, run on {@code device}. */
    static SpmmExecutor createStyled(CsrMatrix a, int k, Layout layout, Precision precision, Device device, boolean gpuStyle) {
        return new SpmmExecutor(a, k, layout, precision, device, gpuStyle);
    }

    /** Binds {@code a} to {@code device} for products with {@code k} vectors laid out as {@code layout}. */
    public static SpmmExecutor create(CsrMatrix a, int k, Layout layout, Precision precision, Device device) {
        return new SpmmExecutor(a, k, layout, precision, device, device.info().isGpu());
    }

    /**
     * An executor of {@code Y = alpha A^T X + beta Y}: the inspector transposes A once (its time is part
     * of {@link #inspectorMillis()}), then runs as {@link #create} on {@code A^T}; X has {@code a.rows() * k}
     * entries, Y {@code a.cols() * k}.
     */
    public static SpmmExecutor createTransposed(CsrMatrix a, int k, Layout layout, Precision precision, Device device) {
        long t0 = System.nanoTime();
        CsrMatrix at = CsrTranspose.of(a);
        double ms = (System.nanoTime() - t0) / 1e6;
        SpmmExecutor e = create(at, k, layout, precision, device);
        e.addInspectorMillis(ms);
        return e;
    }

    /** Sets X ({@code cols * k} entries in this executor's layout). */
    public SpmmExecutor setX(double[] v) {
        check("X", v.length, (long) a.cols() * k);
        Precision.write(x, v);
        runner().markDirty();
        return this;
    }

    /** Sets Y ({@code rows * k} entries); read only when beta is not 0. */
    public SpmmExecutor setY(double[] v) {
        check("Y", v.length, (long) a.rows() * k);
        Precision.write(y, v);
        runner().markDirty();
        return this;
    }

    /** Sets alpha and beta (default 1 and 0). */
    public SpmmExecutor setCoefficients(double alpha, double beta) {
        Precision.write(coef, new double[] {alpha, beta});
        runner().markDirty();
        return this;
    }

    public Layout layout() {
        return layout;
    }

    public int vectors() {
        return k;
    }

    private static void check(String what, int got, long want) {
        if (got != want) throw new IllegalArgumentException(what + " has " + got + " entries, needs " + want);
    }
}
