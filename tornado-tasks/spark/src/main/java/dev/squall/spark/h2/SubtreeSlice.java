package dev.squall.spark.h2;

import dev.squall.hmatrix.h2.H2Kernels;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * One part of a distributed H2 matrix on a task's device: the leaf basis, transfers, coupling blocks and dense blocks
 * of its subtree, computed there by {@code hmatrix}'s construction kernels from the part's structure (so they equal
 * the single-process matrix's), and the two halves of its product with {@code hmatrix}'s product kernels:
 * {@link #upsweep} (the {@code xhat} of its root and of the nodes other parts read) and {@link #multiply} (its rows of
 * {@code y} from its {@code x}, the halo {@code x} and {@code xhat}, and its root's {@code yhat} from the top).
 * {@link #multiply} runs the upsweep again rather than keeping it from {@link #upsweep}, so it needs nothing that an
 * earlier task left in this executor: a retried or moved task computes the same values.
 */
final class SubtreeSlice implements AutoCloseable {
    private final SubtreePart part;
    private final Device device;
    private final DoubleArray leafBasis, transfers, couplings, denseValues;
    private final IntArray pointLeaf, leafStart, rankStart, couplingRowPtr, couplingColumn, columnRankStart, denseRowPtr, denseColumn,
            columnLeafStart;
    private final LongArray transferOffset, couplingOffset, denseOffset;
    /** x of its points then of its halo leaves; xhat of its nodes then of its halo nodes; its yhat; its y. */
    private final DoubleArray x, xhat, yhat, y;
    private final ExecutionPlan up, product;
    private final List<KernelArray> all = new ArrayList<>();
    private final double buildMillis;

    SubtreeSlice(SubtreePart p, Device device) {
        long t0 = System.nanoTime();
        this.part = p;
        this.device = device;
        int k = p.rank(), dim = p.dim(), order = p.order(), n = p.size(), own = p.ownNodes();
        long kk = (long) k * k;
        CovarianceKernel kernel = CovarianceKernel.parse(p.kernel());
        DoubleArray pts = doubles(p.points()), boxes = doubles(p.boxes()), localBoxes = doubles(p.localBoxes()), colPts = doubles(p.columnPoints());
        pointLeaf = ints(p.pointLeaf());
        leafStart = ints(p.leafStart());
        rankStart = ints(p.rankStart());
        transferOffset = longs(p.transferOffset());
        couplingRowPtr = ints(p.couplingRowPtr());
        couplingColumn = ints(p.couplingColumn());
        int columns = own + p.haloNodes().length;
        int[] crs = new int[columns + 1];
        for (int c = 0; c <= columns; c++) crs[c] = c * k;
        columnRankStart = ints(crs);
        IntArray couplingRow = ints(p.couplingRow()), couplingCol = ints(p.couplingCol()), denseRow = ints(p.denseRow());
        denseRowPtr = ints(p.denseRowPtr());
        denseColumn = ints(p.denseColumn());
        columnLeafStart = ints(p.columnLeafStart());
        denseOffset = longs(p.denseOffset());
        int blocks = p.couplingRow().length, nd = p.denseRow().length;
        long[] co = new long[blocks + 1];
        for (int b = 0; b <= blocks; b++) co[b] = b * kk;
        couplingOffset = longs(co);
        leafBasis = DoubleArray.onDevice(Math.max(1, (long) n * k));
        transfers = DoubleArray.onDevice(Math.max(1, (own - 1) * kk));
        couplings = DoubleArray.onDevice(Math.max(1, blocks * kk));
        long denseCount = p.denseOffset()[nd];
        denseValues = DoubleArray.onDevice(Math.max(1, denseCount));
        x = new DoubleArray(Math.max(1, p.columnLeafStart()[p.columnLeafStart().length - 1]));
        xhat = new DoubleArray((long) columns * k);
        yhat = new DoubleArray((long) own * k);
        y = new DoubleArray(Math.max(1, n));
        all.addAll(List.of(pts, boxes, localBoxes, colPts, pointLeaf, leafStart, rankStart, transferOffset, couplingRowPtr, couplingColumn,
                columnRankStart, couplingRow, couplingCol, denseRow, denseRowPtr, denseColumn, columnLeafStart, denseOffset, couplingOffset,
                leafBasis, transfers, couplings, denseValues, x, xhat, yhat, y));

        TaskGraph build = new TaskGraph("h2-part-build")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, pts, boxes, localBoxes, colPts, pointLeaf, leafStart, columnLeafStart,
                        couplingRow, couplingCol, denseRow, denseColumn, denseOffset)
                .task("leaf-basis", H2Kernels::leafBasis, pts, pointLeaf, boxes, leafBasis, p.firstLeafNode(), (long) n * k, dim, order, k);
        if (own > 1) build.task("transfers", H2Kernels::transfers, localBoxes, transfers, (own - 1) * kk, dim, order, k);
        if (blocks > 0) {
            build.task("coupling-distances", H2Kernels::couplingDistances, couplingRow, couplingCol, boxes, boxes, couplings, blocks * kk, dim, order, k);
            kernel.addEvaluation(build, "coupling-kernel", couplings, blocks * kk);
        }
        if (nd > 0) {
            int m = p.leafSize();
            build.task("dense-distances", H2Kernels::denseDistances, denseRow, denseColumn, denseOffset, leafStart, columnLeafStart, pts, colPts,
                    denseValues, nd, m * m, m, dim);
            kernel.addEvaluation(build, "dense-kernel", denseValues, denseCount);
        }
        try (ExecutionPlan plan = new ExecutionPlan(build.snapshot())) {
            plan.withDevice(device).execute();
        }

        TaskGraph upGraph = new TaskGraph("h2-part-upsweep").transferToDevice(DataTransferMode.EVERY_EXECUTION, x);
        addUpsweep(upGraph);
        upGraph.transferToHost(DataTransferMode.EVERY_EXECUTION, xhat);
        up = new ExecutionPlan(upGraph.snapshot()).withDevice(device);

        TaskGraph pr = new TaskGraph("h2-part-product").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, xhat, yhat)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, couplingRowPtr, couplingColumn, columnRankStart, denseRowPtr);
        addUpsweep(pr);
        for (int l = p.level() + 1; l <= p.depth(); l++) {
            pr.task("coupling-l" + l, H2Kernels::coupling, couplingRowPtr, couplingColumn, couplings, couplingOffset, xhat, columnRankStart, yhat,
                    rankStart, p.firstNode(l), (long) (1 << (l - p.level())) * k, k, 1);
        }
        for (int l = p.level() + 1; l <= p.depth(); l++) {
            pr.task("downsweep-l" + l, H2Kernels::transferDownsweep, transfers, transferOffset, yhat, rankStart, p.firstNode(l),
                    (long) (1 << (l - p.level())) * k, k, 1);
        }
        pr.task("dense", H2Kernels::dense, denseRowPtr, denseColumn, denseOffset, pointLeaf, leafStart, columnLeafStart, denseValues, x, y, (long) n, 1)
                .task("downsweep-leaves", H2Kernels::leafDownsweep, leafBasis, yhat, rankStart, pointLeaf, y, p.firstLeafNode(), (long) n, k, 1)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
        product = new ExecutionPlan(pr.snapshot()).withDevice(device);
        buildMillis = (System.nanoTime() - t0) / 1e6;
    }

    /** Leaf upsweep and transfer upsweep up to the root, into the part's own slots of {@code xhat}. */
    private void addUpsweep(TaskGraph g) {
        SubtreePart p = part;
        int k = p.rank();
        g.transferToDevice(DataTransferMode.FIRST_EXECUTION, leafStart, rankStart, transferOffset)
                .task("upsweep-leaves", H2Kernels::leafUpsweep, leafBasis, x, leafStart, xhat, rankStart, p.firstLeafNode(),
                        (long) p.ownLeaves() * k, k, 1);
        for (int l = p.depth(); l > p.level(); l--) {
            g.task("upsweep-l" + l, H2Kernels::transferUpsweep, transfers, transferOffset, xhat, rankStart, p.firstNode(l - 1),
                    (long) (1 << (l - 1 - p.level())) * k, k, 1);
        }
    }

    SubtreePart part() {
        return part;
    }

    Device device() {
        return device;
    }

    double buildMillis() {
        return buildMillis;
    }

    /**
     * The upsweep of this part for its points' {@code x} (tree order): the {@code xhat} of its root, then of its
     * {@link SubtreePart#sendNodes()}, {@code k} values each.
     */
    synchronized double[] upsweep(double[] xOwn) {
        set(x, xOwn, 0);
        up.execute();
        int k = part.rank();
        int[] send = part.sendNodes();
        double[] out = new double[(1 + send.length) * k];
        copyNode(part.root(), out, 0);
        for (int i = 0; i < send.length; i++) copyNode(send[i], out, (i + 1) * k);
        return out;
    }

    private void copyNode(int g, double[] out, int at) {
        int k = part.rank();
        MemorySegment.copy(xhat.segment(), ValueLayout.JAVA_DOUBLE, 8L * part.rankStart()[g], out, at, k);
    }

    /**
     * This part's rows of {@code y = A x} (tree order), from {@code xExtended} (its points' x, then its halo leaves'),
     * the halo nodes' {@code xhat} ({@code k} each, in {@link SubtreePart#haloNodes()} order) and its root's
     * {@code yhat} (the couplings on the top levels and its own level, downswept to the root, from {@link TopTree}).
     */
    synchronized double[] multiply(double[] xExtended, double[] haloXhat, double[] rootYhat) {
        set(x, xExtended, 0);
        set(xhat, haloXhat, (long) part.ownNodes() * part.rank());
        set(yhat, rootYhat, part.rankStart()[part.root()]);
        product.execute();
        double[] out = new double[part.size()];
        MemorySegment.copy(y.segment(), ValueLayout.JAVA_DOUBLE, 0, out, 0, out.length);
        return out;
    }

    private static void set(DoubleArray a, double[] v, long at) {
        MemorySegment.copy(v, 0, a.segment(), ValueLayout.JAVA_DOUBLE, 8 * at, v.length);
    }

    @Override
    public synchronized void close() {
        up.close();
        product.close();
        device.free(all.toArray(KernelArray[]::new));
    }

    static DoubleArray doubles(double[] v) {
        DoubleArray a = new DoubleArray(Math.max(1, v.length));
        MemorySegment.copy(v, 0, a.segment(), ValueLayout.JAVA_DOUBLE, 0, v.length);
        return a;
    }

    static IntArray ints(int[] v) {
        IntArray a = new IntArray(Math.max(1, v.length));
        MemorySegment.copy(v, 0, a.segment(), ValueLayout.JAVA_INT, 0, v.length);
        return a;
    }

    static LongArray longs(long[] v) {
        LongArray a = new LongArray(Math.max(1, v.length));
        MemorySegment.copy(v, 0, a.segment(), ValueLayout.JAVA_LONG, 0, v.length);
        return a;
    }
}
