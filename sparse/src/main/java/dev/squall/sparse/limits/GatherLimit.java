package dev.squall.sparse.limits;

import dev.squall.sparse.exec.DeviceArrays;
import dev.squall.sparse.exec.LaunchRunner;
import dev.squall.sparse.format.BinnedCsrFormat;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.limits.kernels.LimitKernels;
import dev.squall.sparse.spmv.SpmvCounts;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.WorkerGrid;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A measured limit for SpMV's access pattern on one matrix: the {@code gatherLimit} kernel reads the column
 * indices and values as coalesced streams over all entries, in csr-binned's schedule order, and gathers
 * {@code x[col]} for each, accumulating per work-item and writing one value per work-item (about one per row,
 * as y). Its GB/s use SpMV's counted bytes ({@link SpmvCounts#bytes}), so a format's GB/s over the limit's
 * says how much of what any CSR-byte format could reach it gets; the limit over cuSPARSE's GB/s bounds the
 * speed-up over cuSPARSE that such a format can have on this matrix (a format that moves fewer bytes, or
 * gathers x in another order, is not bound by it).
 *
 * <pre>{@code
 * try (GatherLimit g = new GatherLimit(a, Precision.FP64, device)) {
 *     double gbs = g.gbs(30, 10);      // median of 30 batches of 10 back-to-back launches
 * }
 * }</pre>
 */
public final class GatherLimit implements AutoCloseable {
    /** Work-group size (as the GPU executors). */
    static final int GROUP = BinnedCsrFormat.GPU_GROUP;

    private final CsrMatrix a;
    private final Precision p;
    private final KernelArray out;
    private final int items;
    private final int perGroup;
    private final LaunchRunner runner;

    /** Lays {@code a}'s entries out in schedule order and binds the kernel to {@code device}; x is random in [-1, 1). */
    public GatherLimit(CsrMatrix a, Precision p, Device device) {
        this(a, p, device, new SplittableRandom(7).doubles(a.cols(), -1, 1).toArray());
    }

    /** As {@link #GatherLimit(CsrMatrix, Precision, Device)} with a given x (tests). */
    public GatherLimit(CsrMatrix a, Precision p, Device device, double[] x) {
        if (a.nnz() == 0) throw new IllegalArgumentException("gather limit: the matrix has no entries");
        this.a = a;
        this.p = p;
        BinnedCsrFormat b = BinnedCsrFormat.from(a, GROUP, BinnedCsrFormat.GPU_SEGMENT);
        int groups = Math.max(1, (a.rows() + GROUP - 1) / GROUP);
        this.perGroup = (int) ((a.nnz() + (long) groups - 1) / groups);
        this.items = groups * GROUP;
        this.out = DeviceArrays.zeros(p, items);
        KernelArray xv = DeviceArrays.values(p, x);
        IntArray col = DeviceArrays.ints(b.entryCol());
        KernelArray val = DeviceArrays.values(p, b.entryVal());
        int nnz = a.nnz();
        WorkerGrid grid = WorkerGrid.of(items).withLocal(GROUP);
        this.runner = new LaunchRunner("gather" + System.identityHashCode(this), device,
                g -> g.graph().task(g.name("gather-limit/entries"), grid, LimitKernels.gatherLimit.at(p), new KernelContext(), col, val, xv, out, nnz,
                        perGroup), xv);
    }

    /** Entries each work-group streams. */
    public int perGroup() {
        return perGroup;
    }

    /** Runs once and returns every work-item's sum (widened to double). */
    public double[] sums() {
        runner.execute();
        runner.copyBack(out);
        return Precision.read(out, items);
    }

    /** Median time per launch over {@code repeat} batches of {@code batch} launches, after warm-up batches. */
    public double millis(int repeat, int batch) {
        runner.execute();
        for (int w = 0; w < Math.max(3, repeat / 5); w++) runner.batchMillis(batch);
        double[] ms = new double[repeat];
        for (int r = 0; r < repeat; r++) ms[r] = runner.batchMillis(batch);
        Arrays.sort(ms);
        return ms[repeat / 2];
    }

    /** GB/s of SpMV's counted bytes at the median launch time. */
    public double gbs(int repeat, int batch) {
        return SpmvCounts.bytes(a, p.bytes()) / (millis(repeat, batch) * 1e-3) / 1e9;
    }

    @Override
    public void close() {
        runner.close();
    }
}
