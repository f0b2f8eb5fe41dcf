package dev.squall.permanent.kernel;

import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.matrix.SparseColumns;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.api.*;
import dev.squall.tasks.runtime.*;

/**
 * Runs the generic {@link PermanentKernels} on any Squall device (CUDA, OpenCL, or the JVM
 * backend) through a task graph: the matrix stays on the device, each launch of the
 * {@link LaunchPlan} sends three longs and brings back the partials, which are reduced on the
 * host in launch and work-item order (deterministic).
 *
 * <pre>{@code
 * double p = new GenericKernelPermanent(Devices.get("cuda:0"), false).compute(a);
 * }</pre>
 */
public final class GenericKernelPermanent {
    /** Where a work-item keeps its x vector. */
    public enum XStorage {
        /** A private array: registers or per-thread stack memory, as the device compiler decides. */
        PRIVATE,
        /** The work-group's local (shared) memory; dense only. */
        LOCAL
    }

    private final Device device;
    private final boolean sparse;
    private XStorage storage = XStorage.PRIVATE;
    private boolean doubleDouble = false;
    private int maxThreads;
    private ProgressListener progress = ProgressListener.NONE;

    /** @param sparse CSC column updates instead of dense ones */
    public GenericKernelPermanent(Device device, boolean sparse) {
        this.device = device;
        this.sparse = sparse;
        this.maxThreads = defaultThreads(device);
    }

    /** Work-items per launch: enough to fill the device; a multiple of the work-group size. */
    public static int defaultThreads(Device d) {
        if (d.info().type() == DeviceType.JVM) return Runtime.getRuntime().availableProcessors() * 64;
        return d.info().isGpu() ? d.info().computeUnits() * 1024 : d.info().computeUnits() * 64;
    }

    /** Overrides the number of work-items per launch (tests use small counts to get several launches). */
    public GenericKernelPermanent withMaxThreads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.maxThreads = threads;
        return this;
    }

    /** Where x lives; {@link XStorage#LOCAL} is available for the dense kernel only. */
    public GenericKernelPermanent withXStorage(XStorage s) {
        if (s == XStorage.LOCAL && sparse) throw new IllegalArgumentException("x in local memory is implemented for the dense kernel only");
        this.storage = s;
        return this;
    }

    /**
     * Sparse only: the sweep in double-double ({@link PermanentKernels#sparseChunksDoubleDouble}), about 10x the work
     * of the double one; for blocks whose alternating sum cancels beyond what a double sweep resolves.
     */
    public GenericKernelPermanent withDoubleDouble(boolean on) {
        if (on && !sparse) throw new IllegalArgumentException("the double-double kernel is the sparse one: new GenericKernelPermanent(device, true)");
        this.doubleDouble = on;
        return this;
    }

    public GenericKernelPermanent withProgress(ProgressListener listener) {
        this.progress = listener;
        return this;
    }

    public double compute(SquareMatrix a) {
        double[] partial = partial(a, 0, NijenhuisWilf.steps(a.n()));
        return NijenhuisWilf.finalFactor(a.n()) * (partial[0] + partial[1]);
    }

    /**
     * The compensated sum {@code {sum, compensation}} of {@code (-1)^g prod x^(g)} over the steps {@code [lo, hi)}: the
     * launches of {@link LaunchPlan} over {@code hi - lo} steps, shifted by {@code lo}. For the launches' chunks to keep
     * the alignment the kernels rely on, {@code lo} must be a multiple of the largest power of two {@code <= hi - lo}
     * (chunks of a power-of-two cut of the whole range are).
     */
    public double[] partial(SquareMatrix a, long lo, long hi) {
        int n = a.n();
        long steps = NijenhuisWilf.steps(n);
        NijenhuisWilf.checkRange(lo, hi, steps);
        long length = hi - lo;
        int local = PermanentKernels.GROUP;
        int threads = (int) Math.min(maxThreads, Math.max(1, (length + 1023) / 1024));
        int global = (threads + local - 1) / local * local;
        DoubleArray xInit = DoubleArray.fromArray(NijenhuisWilf.startVector(a, 0));
        LongArray plan = new LongArray(3);
        DoubleArray partials = new DoubleArray(2L * threads);
        TaskGraph g = new TaskGraph("permanent");
        if (sparse) {
            SparseColumns c = SparseColumns.of(a);
            IntArray colStart = IntArray.fromArray(c.start());
            IntArray rows = IntArray.fromArray(c.rows().length == 0 ? new int[1] : c.rows());
            DoubleArray vals = DoubleArray.fromArray(c.values().length == 0 ? new double[1] : c.values());
            if (doubleDouble) {
                g.transferToDevice(DataTransferMode.FIRST_EXECUTION, colStart, rows, vals)
                        .transferToDevice(DataTransferMode.EVERY_EXECUTION, plan)
                        .task("chunks", PermanentKernels::sparseChunksDoubleDouble, new KernelContext(), colStart, rows, vals, plan, partials, n, threads);
            } else {
                g.transferToDevice(DataTransferMode.FIRST_EXECUTION, colStart, rows, vals, xInit)
                        .transferToDevice(DataTransferMode.EVERY_EXECUTION, plan)
                        .task("chunks", PermanentKernels::sparseChunks, new KernelContext(), colStart, rows, vals, xInit, plan, partials, n, threads);
            }
        } else {
            DoubleArray cols = DoubleArray.fromArray(a.columnMajor());
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, cols, xInit)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, plan);
            if (storage == XStorage.LOCAL) g.task("chunks", PermanentKernels::denseChunksLocal, new KernelContext(), cols, xInit, plan, partials, n, threads);
            else g.task("chunks", PermanentKernels::denseChunks, new KernelContext(), cols, xInit, plan, partials, n, threads);
        }
        g.transferToHost(DataTransferMode.EVERY_EXECUTION, partials);
        KahanSum total = new KahanSum();
        try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(device)) {
            p.withGrid("chunks", WorkerGrid.of(global).withLocal(local));
            for (LaunchPlan.Launch l : LaunchPlan.of(length, threads, 1024)) {
                long[] words = l.planWords(length);
                plan.set(0, lo + words[0]);
                plan.set(1, words[1]);
                plan.set(2, lo + words[2]);
                partials.init(Double.NaN);
                p.execute();
                for (int t = 0; t < threads; t++) total.add(partials.get(2 * t), partials.get(2 * t + 1));
                progress.stepsDone(lo + l.end(length), steps);
            }
        }
        return new double[] {total.sum(), total.compensation()};
    }
}
