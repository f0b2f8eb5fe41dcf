package dev.squall.hmatrix.h2;

import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.linalg.gemm.BatchDescriptor;
import dev.squall.linalg.gemm.BatchedGemm;
import dev.squall.linalg.gemm.Transpose;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceQueue;
import dev.squall.tasks.runtime.Event;
import dev.squall.tasks.runtime.ExecutionHandle;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ImmutableTaskGraph;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A hierarchical (H2) approximation of the kernel matrix {@code A[i, j] = k(x_i, y_j)} of a covariance kernel over a
 * row point set {@code x} and a column point set {@code y} (the same set for a symmetric matrix), with an
 * {@code O(n)} matrix-vector product.
 *
 * <p>{@code A = A_D + sum U_t S_ts V_s^T}: KD-trees cluster both point sets into leaves of at most {@code m} points;
 * a dual-tree traversal keeps admissible node pairs ({@link H2Options.Admissibility}) as
 * {@code k x k} coupling blocks {@code S_ts = K(xi_t, xi_s)} between tensor Chebyshev nodes of order {@code p}
 * ({@code k = p^dim}), and inadmissible leaf pairs as dense blocks. Leaf bases {@code U} are the Lagrange polynomials
 * of the leaf's nodes at its points; inner nodes are never formed, each child holds its nested transfer matrix. The
 * numeric parts of construction (leaf bases, transfers, couplings, dense blocks) run as kernels on the chosen device,
 * one launch per part, and stay there.
 *
 * <p>The product runs as batched launches over the flattened trees, all data resident on the device: gather x into
 * tree order, then on the main queue (of the greatest priority) the leaf upsweep, the transfer upsweep (one launch
 * per level), the coupling multiply of all levels (one launch) and the transfer downsweep (one launch per level),
 * while the dense part runs on a second queue; an event holds the leaf downsweep until the dense part is done, then y
 * is scattered back to the caller's order. Each launch is a batch of block rows ({@link BlockRowKernels}): one
 * work-group per output block sums all of that block's small products, in fp64 multiply-adds for one vector and
 * on the FP64 tensor cores from 2 on. The plans of a vector count are built on first use and executed
 * for every product; only x and y cross to and from the device. (With the system property
 * {@code squall.h2.product=levels} products use the earlier per-level matrix-vector kernels and, from
 * {@link #GEMM_MIN_VECTORS} vectors on, batched GEMMs of {@code tornado-tasks/linalg}; benchmarks compare the two.)
 * {@link #compress} recompresses the low-rank part to a tolerance, projecting the couplings on the device; ranks then
 * differ between levels (equal within one).
 *
 * <pre>{@code
 * PointCloud pts = PointCloud.perturbedGrid(1 << 14, 2, 1L);
 * try (H2Matrix a = H2Matrix.build(pts, CovarianceKernel.exponential(0.1), H2Options.defaults())) {
 *     double[] y = a.multiply(x);                  // x and y in the order of pts
 *     double[] ys = a.multiply(xs, 16);            // 16 vectors, n x 16 row-major
 *     System.out.println(a.memory() + ", built in " + a.buildMillis() + " ms");
 *     H2CompressionReport r = a.compress(1e-7);    // lower ranks, product changed by ~1e-7
 *     Map<String, Double> ms = a.phaseMillis(1, 10); // device time of each phase of a product
 * }
 * }</pre>
 */
public final class H2Matrix implements AutoCloseable {
    /**
     * With the per-level kernels ({@code squall.h2.product=levels}), the fewest vectors for which a product runs its
     * dense and coupling phases as batched GEMMs of {@code tornado-tasks/linalg} (FP64 tensor cores on CUDA); fewer
     * vectors use the matrix-vector kernels.
     */
    public static final int GEMM_MIN_VECTORS = 16;

    /** The kernels a product runs on. */
    enum ProductKernels {
        /** {@link BlockRowKernels}: one batch of block rows per phase (per level for the transfer sweeps). */
        BLOCK_ROWS,
        /** {@link H2Kernels}' per-level matrix-vector kernels, and linalg batched GEMMs from {@link #GEMM_MIN_VECTORS} vectors on. */
        LEVELS
    }

    /**
     * The kernels of the products of matrices built from now on: {@code BLOCK_ROWS} unless the system property
     * {@code squall.h2.product} is {@code levels} (benchmarks compare the two; tests set it).
     */
    static ProductKernels productKernels = "levels".equals(System.getProperty("squall.h2.product")) ? ProductKernels.LEVELS
            : ProductKernels.BLOCK_ROWS;

    /**
     * Compresses through host copies of the bases and orthogonalised couplings ({@link H2Compression}, weights as
     * stacked QRs) instead of on the device (tests compare the two).
     */
    static boolean hostFactorisations;

    /** The phases of a product, in the order they run. */
    public static final List<String> PHASES = List.of("gather", "dense", "upsweep-leaves", "upsweep-transfers", "coupling",
            "downsweep-transfers", "downsweep-leaves", "scatter");

    private final Device device;
    private final CovarianceKernel kernel;
    private final H2Options options;
    private final ClusterTree rowTree;
    private final ClusterTree colTree;
    private final BlockPartition partition;
    private final int rank;
    private final int dim;
    private final boolean shared;
    /** The kernels of this matrix's products ({@link #productKernels} when it was built). */
    private final ProductKernels kernels = productKernels;

    // device-resident structure and values
    private final DoubleArray rowPoints, colPoints, rowBoxes, colBoxes;
    private final IntArray rowPointLeaf, colPointLeaf, rowLeafStart, colLeafStart, rowPerm, colPerm;
    private final IntArray couplingRowPtr, couplingRow, couplingCol, denseRowPtr, denseRow, denseCol;
    private final LongArray denseOffset;
    private final DoubleArray denseValues;
    // the low-rank part: bases, couplings and their offsets (replaced by compression)
    private BasisTree rowBasis, colBasis;
    private DoubleArray couplings;
    private long[] couplingOffset;
    private LongArray couplingOffsetArray;

    private final double hostBuildMillis;
    private final double deviceBuildMillis;
    private final Map<String, Double> buildPartMillis;
    private final Map<String, Double> buildHostPartMillis;
    private final Map<Integer, Product> products = new HashMap<>();
    /**
     * The tree phases of a product run on the main queue, the dense part beside them on the side queue. The main
     * queue has the greatest priority (on CUDA; an ordinary queue elsewhere), as the paper runs the dense part on a
     * low-priority stream: the tree's small top-level launches are dispatched ahead of the dense part's pending
     * work-groups instead of queueing behind them.
     */
    private final DeviceQueue mainQueue, sideQueue;
    private boolean closed;

    private H2Matrix(PointCloud rows, PointCloud cols, CovarianceKernel kernel, H2Options options) {
        long t0 = System.nanoTime();
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.options = Objects.requireNonNull(options, "options");
        if (rows.dim() != cols.dim()) {
            throw new IllegalArgumentException("row points are " + rows.dim() + "-dimensional, column points " + cols.dim() + "-dimensional");
        }
        dim = rows.dim();
        double r = Math.pow(options.order(), dim);
        if (r > H2Options.MAX_RANK) {
            throw new IllegalArgumentException("order " + options.order() + " in " + dim + " dimensions gives rank " + (long) r
                    + ", more than " + H2Options.MAX_RANK);
        }
        rank = (int) r;
        device = options.device() != null ? options.device() : Devices.select(null);
        shared = rows == cols;
        Map<String, Double> hostParts = new LinkedHashMap<>();
        // the build's kernels are built (or loaded from the kernel cache) on the device while the host builds the trees
        RuntimeException[] prepareFailure = new RuntimeException[1];
        Thread prepare = Thread.ofPlatform().name("h2-prepare-kernels").start(() -> {
            try {
                prepareBuildKernels(device, kernel);
            } catch (RuntimeException e) {
                prepareFailure[0] = e;
            }
        });
        long h0 = System.nanoTime();
        rowTree = ClusterTree.build(rows, options.leafSize());
        colTree = shared ? rowTree : ClusterTree.build(cols, options.leafSize());
        long h1 = System.nanoTime();
        hostParts.put("trees", (h1 - h0) / 1e6);
        partition = BlockPartition.build(rowTree, colTree, options.eta(), options.admissibility());
        long h2 = System.nanoTime();
        hostParts.put("traversal", (h2 - h1) / 1e6);
        int k = rank, p = options.order();
        long kk = (long) k * k;

        rowPoints = doubles(rowTree.points);
        rowBoxes = doubles(rowTree.interpolationBox);
        rowPointLeaf = ints(rowTree.pointLeaf);
        rowLeafStart = ints(rowTree.leafStart);
        rowPerm = ints(rowTree.perm);
        rowBasis = BasisTree.uniform(rowTree, k);
        if (shared) {
            colPoints = rowPoints;
            colBoxes = rowBoxes;
            colPointLeaf = rowPointLeaf;
            colLeafStart = rowLeafStart;
            colPerm = rowPerm;
            colBasis = rowBasis;
        } else {
            colPoints = doubles(colTree.points);
            colBoxes = doubles(colTree.interpolationBox);
            colPointLeaf = ints(colTree.pointLeaf);
            colLeafStart = ints(colTree.leafStart);
            colPerm = ints(colTree.perm);
            colBasis = BasisTree.uniform(colTree, k);
        }
        couplingRowPtr = ints(partition.couplingRowPtr);
        couplingRow = ints(partition.couplingRow);
        couplingCol = ints(partition.couplingCol);
        denseRowPtr = ints(partition.denseRowPtr);
        denseRow = ints(partition.denseRow);
        denseCol = ints(partition.denseCol);
        denseOffset = longs(partition.denseOffset);
        long nCoupling = partition.couplingBlocks() * kk;
        long nDense = partition.denseOffset[partition.denseBlocks()];
        couplings = DoubleArray.onDevice(Math.max(1, nCoupling)); // computed and kept on the device: no host copy
        couplingOffset = new long[partition.couplingBlocks() + 1];
        for (int b = 0; b <= partition.couplingBlocks(); b++) couplingOffset[b] = b * kk;
        couplingOffsetArray = longs(couplingOffset);
        denseValues = DoubleArray.onDevice(Math.max(1, nDense));
        long t1 = System.nanoTime();
        hostParts.put("structure", (t1 - h2) / 1e6);
        buildHostPartMillis = Collections.unmodifiableMap(hostParts);
        hostBuildMillis = (t1 - t0) / 1e6;
        try {
            prepare.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the build's kernels were prepared on " + device.id(), e);
        }
        if (prepareFailure[0] != null) throw prepareFailure[0];
        mainQueue = device.newPriorityQueue();
        sideQueue = device.newQueue();

        TaskGraph bases = new TaskGraph("leaf-bases")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, rowPoints, rowBoxes, rowPointLeaf, rowLeafStart)
                .task("leaf-basis-rows", H2Kernels::leafBasis, rowPoints, rowPointLeaf, rowBoxes, rowBasis.leafBasis, rowTree.firstLeaf,
                        (long) rowTree.size * k, dim, p, k);
        TaskGraph transfers = new TaskGraph("transfers")
                .task("transfers-rows", H2Kernels::transfers, rowBoxes, rowBasis.transfers, (rowTree.nodes - 1) * kk, dim, p, k);
        if (!shared) {
            bases.transferToDevice(DataTransferMode.FIRST_EXECUTION, colPoints, colBoxes, colPointLeaf, colLeafStart)
                    .task("leaf-basis-cols", H2Kernels::leafBasis, colPoints, colPointLeaf, colBoxes, colBasis.leafBasis, colTree.firstLeaf,
                            (long) colTree.size * k, dim, p, k);
            transfers.task("transfers-cols", H2Kernels::transfers, colBoxes, colBasis.transfers, (colTree.nodes - 1) * kk, dim, p, k);
        }
        TaskGraph cpl = new TaskGraph("couplings")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, couplingRow, couplingCol)
                .task("coupling-distances", H2Kernels::couplingDistances, couplingRow, couplingCol, rowBoxes, colBoxes, couplings,
                        nCoupling, dim, p, k);
        kernel.addEvaluation(cpl, "coupling-kernel", couplings, nCoupling);
        int m = options.leafSize();
        TaskGraph dns = new TaskGraph("dense-blocks")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, denseRow, denseCol, denseOffset)
                .task("dense-distances", H2Kernels::denseDistances, denseRow, denseCol, denseOffset, rowLeafStart, colLeafStart,
                        rowPoints, colPoints, denseValues, partition.denseBlocks(), m * m, m, dim);
        kernel.addEvaluation(dns, "dense-kernel", denseValues, nDense);
        Map<String, Double> parts = new LinkedHashMap<>();
        for (TaskGraph g : List.of(bases, transfers, cpl, dns)) {
            try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
                parts.put(g.name(), plan.withDevice(device).withProfiler(true).execute().profile().kernelMillis());
            }
        }
        buildPartMillis = Collections.unmodifiableMap(parts);
        deviceBuildMillis = (System.nanoTime() - t1) / 1e6;
    }

    /** Runs one tiny launch of the construction's kernels and of {@code kernel}'s evaluation, so their programs are built. */
    private static void prepareBuildKernels(Device device, CovarianceKernel kernel) {
        DoubleArray one = DoubleArray.onDevice(1);
        try {
            TaskGraph g = new TaskGraph("h2-prepare").task("zero", H2Kernels::zero, one, 1L);
            kernel.addEvaluation(g, "kernel", one, 1);
            try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
                plan.withDevice(device).execute();
            }
        } finally {
            device.free(one);
        }
    }

    /**
     * The H2 matrix of {@code kernel} over one point set (square and symmetric).
     *
     * @throws IllegalArgumentException for an empty point set or bad options, naming what is wrong
     */
    public static H2Matrix build(PointCloud points, CovarianceKernel kernel, H2Options options) {
        return new H2Matrix(points, points, kernel, options);
    }

    /**
     * The H2 matrix {@code A[i, j] = k(rows_i, cols_j)} over two point sets ({@code rows.size() x cols.size()}), with
     * separate row and column trees and bases.
     */
    public static H2Matrix build(PointCloud rows, PointCloud cols, CovarianceKernel kernel, H2Options options) {
        return new H2Matrix(rows, cols, kernel, options);
    }

    /** {@code y = A x} for one vector of {@link #cols()} values, in the caller's point order. */
    public double[] multiply(double[] x) {
        return multiply(x, 1);
    }

    /**
     * {@code Y = A X} for {@code nv} vectors: {@code x} is {@code cols() x nv} row-major (the {@code nv} values of
     * point {@code j} at {@code j nv ..}), the result {@code rows() x nv}.
     */
    public synchronized double[] multiply(double[] x, int nv) {
        Product pr = product(nv, x);
        pr.run(true);
        return pr.yUser.toHeapArray();
    }

    /**
     * Device time of a whole product with {@code nv} vectors in milliseconds, the dense part overlapping the tree
     * phases as in {@link #multiply}: the median over {@code repeats} products of the time between events on the
     * main queue before the gather and after the scatter (x and y already on the device, so no host transfers).
     */
    public synchronized double productMillis(int nv, int repeats) {
        if (repeats < 1) throw new IllegalArgumentException("repeats must be at least 1, not " + repeats);
        Product pr = product(nv, new double[Math.multiplyExact(cols(), nv)]);
        pr.run(true);
        double[] ms = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            Event start = mainQueue.record();
            pr.run(false);
            ms[r] = mainQueue.record().millisSince(start);
        }
        Arrays.sort(ms);
        return ms[repeats / 2];
    }

    /**
     * Whether products with {@code nv} vectors run their dense and coupling phases as linalg batched GEMMs (only with
     * the per-level kernels; the block-row kernels run their own tensor-core sums).
     */
    public synchronized boolean usesGemm(int nv) {
        return product(nv, new double[Math.multiplyExact(cols(), nv)]).gemm;
    }

    /**
     * Device time of each phase of a product with {@code nv} vectors, in milliseconds: the median over {@code repeats}
     * products, each phase run as its own profiled plan on the data the product keeps on the device. Keys are
     * {@link #PHASES}, in order.
     */
    public synchronized Map<String, Double> phaseMillis(int nv, int repeats) {
        if (repeats < 1) throw new IllegalArgumentException("repeats must be at least 1, not " + repeats);
        Product pr = product(nv, new double[Math.multiplyExact(cols(), nv)]);
        pr.run(true);
        Map<String, Double> out = new LinkedHashMap<>();
        List<ExecutionPlan> plans = new ArrayList<>();
        try {
            for (ImmutableTaskGraph g : pr.phases) plans.add(new ExecutionPlan(g).withDevice(device).withProfiler(true));
            double[][] ms = new double[plans.size()][repeats];
            for (ExecutionPlan p : plans) p.execute(); // builds, binds
            for (int r = 0; r < repeats; r++) {
                for (int i = 0; i < plans.size(); i++) ms[i][r] = plans.get(i).execute().profile().kernelMillis();
            }
            for (int i = 0; i < plans.size(); i++) {
                Arrays.sort(ms[i]);
                out.put(PHASES.get(i), ms[i][repeats / 2]);
            }
        } finally {
            for (ExecutionPlan p : plans) p.close();
        }
        return out;
    }

    /**
     * Recompresses the low-rank part to relative tolerance {@code eps}: orthogonalises the bases, weights them by the
     * couplings they carry, truncates each node to the singular values above {@code eps} times its largest (ranks vary
     * within a level; each coupling block is stored at its two nodes' ranks), and projects the couplings onto the new bases
     * (orthogonalisation, basis generation and truncation, as in Börm's H2 recompression). The product changes by about {@code eps} in relative terms; memory never increases.
     * Every batch is formed and kept on the device ({@link DeviceCompression}): batched QRs of the leaves and of the
     * stacked children (linalg's {@code BatchedQr}), Gram matrices of what each basis carries, batched Jacobi SVDs
     * ({@code BatchedSvd}), both coupling projections as batched GEMMs ({@link H2CompressionReport#stepMillis()} times
     * each step); the host holds only per-node and per-block offsets and indices and one level's singular values. The
     * old couplings are freed after the first projection, so the device holds them at most twice. A failure after that
     * point (a device running out of memory, say) closes the matrix.
     *
     * @throws IllegalArgumentException unless {@code 0 < eps < 1}
     */
    public synchronized H2CompressionReport compress(double eps) {
        if (closed) throw new IllegalStateException("this H2 matrix is closed");
        if (!(eps > 0 && eps < 1)) throw new IllegalArgumentException("compression tolerance must be in (0, 1), not " + eps);
        if (!rowBasis.uniform() || !colBasis.uniform()) padCouplingsToLevelRanks();
        if (!hostFactorisations) {
            try {
                return compressOnDevice(eps);
            } finally {
                CompressionParts.stop(); // after a failure too: later plans on this thread record nothing
            }
        }
        long t0 = System.nanoTime();
        H2Memory before = memory();
        Map<String, Double> ms = new LinkedHashMap<>();
        // the bases to the host (the couplings and dense blocks stay on the device); the dense blocks' squared norm
        // is summed per block on the device
        int nd = partition.denseBlocks();
        DoubleArray denseSquares = new DoubleArray(Math.max(1, nd));
        TaskGraph down = new TaskGraph("h2-download")
                .task("dense-squares", H2Kernels::blockSquares, denseValues, denseOffset, denseSquares, nd)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, denseSquares, rowBasis.leafBasis, rowBasis.transfers);
        if (!shared) down.transferToHost(DataTransferMode.EVERY_EXECUTION, colBasis.leafBasis, colBasis.transfers);
        try (ExecutionPlan plan = new ExecutionPlan(down.snapshot())) {
            plan.withDevice(device).execute();
        }
        double dense2 = 0;
        for (int b = 0; b < nd; b++) dense2 += denseSquares.get(b);
        device.free(denseSquares);
        H2Compression.HostBasis rb = host(rowBasis);
        H2Compression.HostBasis cb = shared ? rb : host(colBasis);
        long t1 = System.nanoTime();
        ms.put("download", (t1 - t0) / 1e6);

        // the QRs of each level as one batched QR on the device, the truncation's SVDs likewise (on the JVM, whose
        // device is the host's cores, the host's own per-node factorisations)
        Device factorOn = hostFactorisations || device.info().backend().equals("jvm") ? null : device;
        H2Compression.Orthogonal ro = H2Compression.orthogonalise(rb, factorOn);
        H2Compression.Orthogonal co = shared ? ro : H2Compression.orthogonalise(cb, factorOn);
        long t2 = System.nanoTime();
        ms.put("orthogonalise", (t2 - t1) / 1e6);

        int[] row = partition.couplingRow, col = partition.couplingCol;
        int blocks = row.length;
        CouplingProjection.Result p1 = CouplingProjection.project(device, couplings, couplingOffset, row, col, ro.r(),
                nodeRanks(ro.basis()), nodeRanks(rowBasis), shared ? ro.r() : co.r(), nodeRanks(co.basis()), nodeRanks(colBasis));
        TaskGraph s1Down = new TaskGraph("h2-couplings-down").transferToHost(DataTransferMode.EVERY_EXECUTION, p1.blocks());
        try (ExecutionPlan plan = new ExecutionPlan(s1Down.snapshot())) {
            plan.withDevice(device).execute();
        }
        double[][] s1 = new double[blocks][];
        MemorySegment p1Host = p1.blocks().segment();
        java.util.stream.IntStream.range(0, blocks).parallel().forEach(b -> { // column-major on the device, row-major here
            int kt = ro.basis().rank(row[b]), ks = co.basis().rank(col[b]);
            double[] colMajor = new double[kt * ks], blk = new double[kt * ks];
            MemorySegment.copy(p1Host, ValueLayout.JAVA_DOUBLE, 8 * p1.offset()[b], colMajor, 0, colMajor.length);
            for (int mu = 0; mu < ks; mu++) for (int nu = 0; nu < kt; nu++) blk[nu * ks + mu] = colMajor[mu * kt + nu];
            s1[b] = blk;
        });
        long t3 = System.nanoTime();
        ms.put("project-orthogonal", (t3 - t2) / 1e6);
        // p1 carries the couplings from here on: the old ones and the products' workspace go, so the device holds the
        // couplings only twice at the peak (the second projection's input and output)
        for (Product p : products.values()) p.free();
        products.clear();
        device.free(couplings);
        try {
            return truncateAndProject(eps, t0, before, ms, ro, co, row, col, s1, p1, dense2, factorOn);
        } catch (RuntimeException | Error e) {
            close(); // the old couplings are gone: a matrix half-compressed must not multiply
            throw e;
        }
    }

    /**
     * {@link #compress} with every batch formed and kept on the device ({@link DeviceCompression}): the host holds only
     * offsets, ranks and indices (per node and per block) and one level's singular values at a time.
     */
    private H2CompressionReport compressOnDevice(double eps) {
        long t0 = System.nanoTime();
        H2Memory before = memory();
        Map<String, Double> ms = new LinkedHashMap<>();
        CompressionParts parts = CompressionParts.start();
        parts.step("orthogonalise");
        DeviceCompression.Side ro = DeviceCompression.orthogonalise(device, rowBasis);
        DeviceCompression.Side co = shared ? ro : DeviceCompression.orthogonalise(device, colBasis);
        long t1 = System.nanoTime();
        ms.put("orthogonalise", (t1 - t0) / 1e6);
        parts.step("project-orthogonal");
        int[] row = partition.couplingRow, col = partition.couplingCol;
        int nb = row.length;
        int[] rowOrth = nodeRanks(ro), colOrth = nodeRanks(co);
        CouplingProjection.Result p1 = CouplingProjection.project(device, couplings, couplingOffset, row, col, ro.r, ro.rOff, rowOrth,
                nodeRanks(rowBasis), co.r, co.rOff, colOrth, nodeRanks(colBasis), false, true);
        CompressionParts.host("free-products", () -> {
            for (Product p : products.values()) p.free();
            products.clear();
        });
        if (p1.blocks() != couplings) CompressionParts.host("free-couplings", () -> device.free(couplings)); // else projected in place
        long t2 = System.nanoTime();
        ms.put("project-orthogonal", (t2 - t1) / 1e6);
        parts.step("basis-generation");
        try {
            // squared norms of the dense blocks and of the couplings on orthonormal bases, per block on the device
            int nd = partition.denseBlocks();
            DoubleArray denseSq = DoubleArray.onDevice(Math.max(1, nd)), cplSq = DoubleArray.onDevice(Math.max(1, nb));
            LongArray p1Off = longs(p1.offset());
            // one plan: the squares and their download, the block lists and ranks the Gram matrices read
            long bl0 = System.nanoTime();
            DeviceCompression.BlockLists lists = new DeviceCompression.BlockLists(partition, colTree.nodes);
            CompressionParts.plan("block-lists", (System.nanoTime() - bl0) / 1e6, 0, 0);
            lists.maxRank = Math.max(Arrays.stream(rowOrth).max().orElse(0), Arrays.stream(colOrth).max().orElse(0));
            IntArray rowRanksArray = ints(rowOrth), colRanksArray = shared ? rowRanksArray : ints(colOrth);
            DeviceCompression.run(device, lists.uploadTo(new TaskGraph("squares"))
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, p1Off, rowRanksArray, colRanksArray)
                    .task("dense-squares", H2Kernels::blockSquares, denseValues, denseOffset, denseSq, nd)
                    .task("coupling-squares", H2Kernels::blockSquares, p1.blocks(), p1Off, cplSq, nb)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, denseSq, cplSq));
            double norm2 = 0;
            for (double v : denseSq.toHeapArray()) norm2 += v;
            double[] cs = cplSq.toHeapArray();
            for (int b = 0; b < nb; b++) norm2 += cs[b];
            DeviceCompression.free(device, denseSq, cplSq);
            DeviceCompression.gram(device, ro, true, shared, p1.blocks(), p1Off, p1.offset(), lists, rowRanksArray, colRanksArray);
            if (!shared) DeviceCompression.gram(device, co, false, true, p1.blocks(), p1Off, p1.offset(), lists, rowRanksArray, colRanksArray);
            lists.free(device);
            DeviceCompression.free(device, rowRanksArray, colRanksArray, p1Off);
            long t3 = System.nanoTime();
            ms.put("basis-generation", (t3 - t2) / 1e6);
            parts.step("truncate");
            DeviceCompression.Truncated rt = DeviceCompression.truncate(device, ro, eps);
            DeviceCompression.Truncated ct = shared ? rt : DeviceCompression.truncate(device, co, eps);
            ro.free(device);
            if (!shared) co.free(device);
            long t4 = System.nanoTime();
            ms.put("truncate", (t4 - t3) / 1e6);
            parts.step("project-truncated");
            // each block keeps its nodes' own ranks: the leading rows of their factors T
            CouplingProjection.Result p2 = CouplingProjection.project(device, p1.blocks(), p1.offset(), row, col, rt.t(), rt.tOff(),
                    rt.nodeKept(), rowOrth, ct.t(), ct.tOff(), ct.nodeKept(), colOrth, false);
            CompressionParts.host("free-orthogonal-couplings", () -> device.free(p1.blocks()));
            DeviceCompression.free(device, rt.t(), rt.tOffArray());
            if (!shared) DeviceCompression.free(device, ct.t(), ct.tOffArray());
            CompressionParts.host("free-bases", this::freeLowRank);
            rowBasis = rt.basis();
            colBasis = shared ? rowBasis : ct.basis();
            DeviceCompression.run(device, zeroPastNodeRanks(new TaskGraph("zero-past-node-ranks"), rowBasis, rt.nodeKept(), rowPointLeaf));
            if (!shared) DeviceCompression.run(device, zeroPastNodeRanks(new TaskGraph("zero-past-node-ranks"), colBasis, ct.nodeKept(), colPointLeaf));
            couplings = p2.blocks();
            couplingOffset = p2.offset();
            couplingOffsetArray = longs(couplingOffset);
            long t5 = System.nanoTime();
            ms.put("project-truncated", (t5 - t4) / 1e6);
            double discarded = rt.discarded() + (shared ? 0 : ct.discarded());
            double err = norm2 > 0 ? Math.sqrt(discarded / norm2) : 0;
            return new H2CompressionReport(eps, err, before, memory(), rowRanks(), colRanks(), (t5 - t0) / 1e6, ms,
                    p1.flops() + p2.flops(), p1.millis() + p2.millis(), p1.gemm() && p2.gemm(), parts.finish());
        } catch (RuntimeException | Error e) {
            close(); // the old couplings are gone: a matrix half-compressed must not multiply
            throw e;
        }
    }

    /**
     * Sets {@code b}'s node ranks to {@code rank} and appends to {@code g} the kernels that zero its columns past them
     * (the leaf basis's columns past each leaf's rank, the transfers' rows past each node's and columns past its
     * parent's), so the coefficient vectors of a product are zero past each node's rank and its coupling blocks need
     * only the leading {@code rank[t] x rank[s]} part; {@code g} as given when every node keeps its level's rank.
     */
    private TaskGraph zeroPastNodeRanks(TaskGraph g, BasisTree b, int[] rank, IntArray pointLeaf) {
        System.arraycopy(rank, 0, b.nodeRank, 0, rank.length);
        if (b.uniform()) return g;
        ClusterTree tr = b.tree;
        IntArray rankArray = ints(rank);
        g.transferToDevice(DataTransferMode.FIRST_EXECUTION, rankArray, pointLeaf);
        int kq = b.leafRank();
        if (kq > 0) {
            g.task("zero-leaf-columns", CompressionKernels::zeroLeafColumnsPast, b.leafBasis, pointLeaf, rankArray, tr.firstLeaf, kq,
                    (long) tr.size * kq);
        }
        for (int l = 1; l <= tr.depth; l++) {
            int kc = b.levelRank[l], kp = b.levelRank[l - 1];
            if (kc > 0 && kp > 0) {
                g.task("zero-transfers-l" + l, CompressionKernels::zeroTransfersPast, b.transfers, b.transferOffsetArray, rankArray,
                        ClusterTree.levelStart(l), kc, kp, (long) (1 << l) * kc * kp);
            }
        }
        return g;
    }

    /** {@code h} with the columns past each node's rank zeroed, as {@link #zeroPastNodeRanks(TaskGraph, BasisTree, int[], IntArray)} does on the device. */
    private static H2Compression.HostBasis zeroPastNodeRanks(H2Compression.HostBasis h, int[] rank) {
        ClusterTree tr = h.tree;
        int kq = h.levelRank[tr.depth];
        for (int i = 0; i < tr.leaves; i++) {
            int keep = rank[tr.firstLeaf + i];
            for (int a = tr.leafStart[i]; a < tr.leafStart[i + 1]; a++) {
                for (int j = keep; j < kq; j++) h.leaf[a * kq + j] = 0;
            }
        }
        for (int c = 1; c < tr.nodes; c++) {
            int kc = h.rank(c), kp = h.rank((c - 1) / 2);
            for (int i = 0; i < kc; i++) {
                for (int j = 0; j < kp; j++) if (i >= rank[c] || j >= rank[(c - 1) / 2]) h.transfer[c][i * kp + j] = 0;
            }
        }
        return h;
    }

    /**
     * Pads the coupling blocks to their levels' ranks (zero rows and columns past each node's rank) and gives every
     * node its level's rank again: compression works on blocks of level-uniform sizes (the bases' columns past the
     * node ranks are zero, so the matrix is unchanged).
     */
    private void padCouplingsToLevelRanks() {
        for (Product p : products.values()) p.free();
        products.clear();
        int nb = partition.couplingBlocks();
        int[] row = partition.couplingRow, col = partition.couplingCol;
        long[] off = new long[nb + 1];
        for (int b = 0; b < nb; b++) off[b + 1] = off[b] + (long) rowBasis.rank(row[b]) * colBasis.rank(col[b]);
        DoubleArray padded = DoubleArray.onDevice(Math.max(1, off[nb]));
        LongArray offArray = longs(off);
        int[] rowLevel = levelRanksOf(rowBasis), colLevel = levelRanksOf(colBasis);
        IntArray srcRow = ints(rowBasis.nodeRank), srcCol = shared ? srcRow : ints(colBasis.nodeRank);
        IntArray dstRow = ints(rowLevel), dstCol = shared ? dstRow : ints(colLevel);
        if (nb > 0) {
            TaskGraph g = new TaskGraph("pad-couplings")
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, couplingOffsetArray, offArray, srcRow, srcCol, dstRow, dstCol, couplingRow,
                            couplingCol)
                    .task("pad", WorkerGrid.of((long) nb * CompressionKernels.RESIZE_THREADS).withLocal(CompressionKernels.RESIZE_THREADS),
                            CompressionKernels::resizeBlocks, new KernelContext(), couplings, couplingOffsetArray, srcRow, srcCol, padded, offArray,
                            dstRow, dstCol, couplingRow, couplingCol, 0);
            try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
                plan.withDevice(device).execute();
            }
        }
        device.free(couplings, couplingOffsetArray, srcRow, srcCol, dstRow, dstCol);
        couplings = padded;
        couplingOffset = off;
        couplingOffsetArray = offArray;
        System.arraycopy(rowLevel, 0, rowBasis.nodeRank, 0, rowLevel.length);
        if (!shared) System.arraycopy(colLevel, 0, colBasis.nodeRank, 0, colLevel.length);
    }

    /** Each node's level rank. */
    private static int[] levelRanksOf(BasisTree b) {
        int[] r = new int[b.tree.nodes];
        for (int t = 0; t < r.length; t++) r[t] = b.rank(t);
        return r;
    }

    /** Rank of each node of an orthonormal basis during compression. */
    private static int[] nodeRanks(DeviceCompression.Side s) {
        int[] r = new int[s.tree.nodes];
        for (int t = 0; t < r.length; t++) r[t] = s.rank(t);
        return r;
    }

    /** The truncation and second projection of {@link #compress}, which replace the bases and couplings. */
    private H2CompressionReport truncateAndProject(double eps, long t0, H2Memory before, Map<String, Double> ms, H2Compression.Orthogonal ro,
            H2Compression.Orthogonal co, int[] row, int[] col, double[][] s1, CouplingProjection.Result p1, double dense2, Device factorOn) {
        long t3 = System.nanoTime();
        H2Compression.Truncation tr = H2Compression.truncate(ro, co, shared, row, col, s1, eps, dense2, factorOn);
        long t4 = System.nanoTime();
        ms.put("truncate", (t4 - t3) / 1e6);

        CouplingProjection.Result p2 = CouplingProjection.project(device, p1.blocks(), p1.offset(), row, col, tr.rowT(),
                tr.rowKept(), nodeRanks(ro.basis()), shared ? tr.rowT() : tr.colT(), shared ? tr.rowKept() : tr.colKept(), nodeRanks(co.basis()));
        device.free(p1.blocks());
        freeLowRank();
        rowBasis = device(zeroPastNodeRanks(tr.rows(), tr.rowKept()));
        System.arraycopy(tr.rowKept(), 0, rowBasis.nodeRank, 0, rowBasis.nodeRank.length);
        if (shared) {
            colBasis = rowBasis;
        } else {
            colBasis = device(zeroPastNodeRanks(tr.cols(), tr.colKept()));
            System.arraycopy(tr.colKept(), 0, colBasis.nodeRank, 0, colBasis.nodeRank.length);
        }
        couplings = p2.blocks();
        couplingOffset = p2.offset();
        couplingOffsetArray = longs(couplingOffset);
        long t5 = System.nanoTime();
        ms.put("project-truncated", (t5 - t4) / 1e6);
        double err = tr.normSquared() > 0 ? Math.sqrt(tr.discarded() / tr.normSquared()) : 0;
        double projFlops = p1.flops() + p2.flops(), projMs = p1.millis() + p2.millis();
        return new H2CompressionReport(eps, err, before, memory(), rowRanks(), colRanks(), (t5 - t0) / 1e6, ms,
                projFlops, projMs, p1.gemm() && p2.gemm(), Map.of());
    }

    /** Rank of each node of a host basis. */
    private static int[] nodeRanks(H2Compression.HostBasis b) {
        int[] r = new int[b.tree.nodes];
        for (int t = 0; t < r.length; t++) r[t] = b.rank(t);
        return r;
    }

    /** Rank of each node of a device basis. */
    private static int[] nodeRanks(BasisTree b) {
        int[] r = new int[b.tree.nodes];
        for (int t = 0; t < r.length; t++) r[t] = b.rank(t);
        return r;
    }

    private static H2Compression.HostBasis host(BasisTree b) {
        ClusterTree tr = b.tree;
        double[] leaf = new double[tr.size * b.leafRank()];
        MemorySegment.copy(b.leafBasis.segment(), ValueLayout.JAVA_DOUBLE, 0, leaf, 0, leaf.length);
        double[][] transfer = new double[tr.nodes][];
        for (int c = 1; c < tr.nodes; c++) {
            int len = b.rank(c) * b.rank((c - 1) / 2);
            transfer[c] = new double[len];
            MemorySegment.copy(b.transfers.segment(), ValueLayout.JAVA_DOUBLE, 8 * b.transferOffset[c], transfer[c], 0, len);
        }
        return new H2Compression.HostBasis(tr, b.levelRank.clone(), leaf, transfer);
    }

    private static BasisTree device(H2Compression.HostBasis h) {
        BasisTree b = new BasisTree(h.tree, h.levelRank, true);
        MemorySegment.copy(h.leaf, 0, b.leafBasis.segment(), ValueLayout.JAVA_DOUBLE, 0, h.leaf.length);
        for (int c = 1; c < h.tree.nodes; c++) {
            MemorySegment.copy(h.transfer[c], 0, b.transfers.segment(), ValueLayout.JAVA_DOUBLE, 8 * b.transferOffset[c], h.transfer[c].length);
        }
        return b;
    }

    private Product product(int nv, double[] x) {
        if (closed) throw new IllegalStateException("this H2 matrix is closed");
        if (nv < 1) throw new IllegalArgumentException("vector count must be at least 1, not " + nv);
        long want = (long) cols() * nv;
        if (x.length != want) {
            throw new IllegalArgumentException("x has " + x.length + " values; a " + rows() + " x " + cols() + " H2 matrix times "
                    + nv + " vector(s) needs " + want);
        }
        Product pr = products.computeIfAbsent(nv, Product::new);
        MemorySegment.copy(x, 0, pr.xUser.segment(), ValueLayout.JAVA_DOUBLE, 0, x.length);
        return pr;
    }

    /**
     * The arrays and plans of products with {@code nv} vectors. The product runs on two queues: the main queue
     * gathers x into tree order, then runs the tree phases (upsweeps, couplings, transfer downsweep) while the side
     * queue runs the dense part after the gather; the main queue waits for the dense part only before the leaf
     * downsweep adds to its result, then scatters y back. Only x and y cross between host and device. The phases are
     * {@link BlockRowKernels} batches, or with {@link ProductKernels#LEVELS} the per-level kernels, where with
     * {@code nv >= }{@link #GEMM_MIN_VECTORS} (and offsets within the linalg GEMM's int range) the dense and
     * coupling phases are batched GEMMs of {@code tornado-tasks/linalg} (FP64 tensor cores on CUDA): one launch per
     * slot (the s-th block of every block row), so no two entries of a launch write the same output.
     */
    private final class Product {
        final int nv;
        final DoubleArray xUser, xTree, xhat, yhat, yTree, yUser;
        final List<ImmutableTaskGraph> phases = new ArrayList<>();
        final boolean gemm;
        /** Whether the phases are {@link BlockRowKernels} batches ({@link ProductKernels#BLOCK_ROWS}). */
        final boolean blockRows;
        final List<BlockRowBatch> batches = new ArrayList<>();
        final ExecutionPlan upload, gather, dense, tree, finish, download;

        Product(int nv) {
            this.nv = nv;
            BasisTree rb = rowBasis, cb = colBasis;
            xUser = new DoubleArray((long) colTree.size * nv);
            xTree = DoubleArray.onDevice((long) colTree.size * nv); // the workspace never crosses: device-only
            xhat = DoubleArray.onDevice(Math.max(1, (long) cb.coefficients() * nv));
            yhat = DoubleArray.onDevice(Math.max(1, (long) rb.coefficients() * nv));
            yTree = DoubleArray.onDevice((long) rowTree.size * nv);
            yUser = new DoubleArray((long) rowTree.size * nv);
            blockRows = kernels == ProductKernels.BLOCK_ROWS || !rb.uniform() || !cb.uniform(); // the level kernels take one rank a level
            gemm = !blockRows && nv >= GEMM_MIN_VECTORS && gemmOffsetsFit(nv);
            phases.add(new TaskGraph("gather")
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, colPerm)
                    .task("gather", H2Kernels::gather, xUser, colPerm, xTree, (long) colTree.size * nv, nv).snapshot());
            if (blockRows) {
                addBlockRowPhases(nv);
            } else {
                addLevelPhases(nv);
            }
            phases.add(new TaskGraph("scatter")
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, rowPerm)
                    .task("scatter", H2Kernels::scatter, yTree, rowPerm, yUser, (long) rowTree.size * nv, nv).snapshot());
            upload = new ExecutionPlan(new TaskGraph("upload-x").transferToDevice(DataTransferMode.EVERY_EXECUTION, xUser).snapshot())
                    .onQueue(mainQueue);
            gather = new ExecutionPlan(phases.get(0)).onQueue(mainQueue);
            dense = new ExecutionPlan(phases.get(1)).onQueue(sideQueue);
            tree = new ExecutionPlan(phases.get(2), phases.get(3), phases.get(4), phases.get(5)).onQueue(mainQueue);
            finish = new ExecutionPlan(phases.get(6), phases.get(7)).onQueue(mainQueue);
            download = new ExecutionPlan(new TaskGraph("download-y").transferToHost(DataTransferMode.EVERY_EXECUTION, yUser).snapshot())
                    .onQueue(mainQueue);
        }

        /**
         * The phases as batches of block rows ({@link BlockRowKernels}), one launch each except the transfer sweeps (one
         * per level, as each level needs the one before): dense part by row leaf; leaf upsweep {@code U^T x} by column
         * leaf; transfer upsweep {@code sum E_c^T xhat_c} by parent; the couplings of all levels in one launch, by row
         * node (the levels are independent, so the small top levels run beside the large ones instead of one
         * latency-bound launch each); transfer downsweep {@code E_c yhat_parent} by child; leaf downsweep
         * {@code U yhat} by row leaf. Each work-group writes its own output block, so nothing is zeroed first.
         */
        private void addBlockRowPhases(int nv) {
            BasisTree rb = rowBasis, cb = colBasis;
            int[] rowLeaf = rowTree.leafStart, colLeaf = colTree.leafStart;
            BlockRowBatch d = new BlockRowBatch();
            for (int i = 0; i < rowTree.leaves; i++) {
                d.block(rowLeaf[i], rowLeaf[i + 1] - rowLeaf[i]);
                for (int b = partition.denseRowPtr[i]; b < partition.denseRowPtr[i + 1]; b++) {
                    int j = partition.denseCol[b];
                    d.term(partition.denseOffset[b], colLeaf[j + 1] - colLeaf[j], colLeaf[j]);
                }
            }
            TaskGraph dg = new TaskGraph("dense");
            add(d).append(dg, "dense", denseValues, xTree, yTree, nv, false, false);
            phases.add(dg.snapshot());

            int kq = cb.leafRank();
            BlockRowBatch ul = new BlockRowBatch();
            for (int j = 0; kq > 0 && j < colTree.leaves; j++) {
                ul.block(cb.rankStart[colTree.firstLeaf + j], kq).term((long) colLeaf[j] * kq, colLeaf[j + 1] - colLeaf[j], colLeaf[j]);
            }
            TaskGraph ulg = new TaskGraph("upsweep-leaves");
            add(ul).append(ulg, "upsweep-leaves", cb.leafBasis, xTree, xhat, nv, false, false);
            phases.add(ulg.snapshot());

            TaskGraph up = new TaskGraph("upsweep-transfers");
            for (int l = colTree.depth; l >= 1; l--) {
                int kp = cb.levelRank[l - 1], kc = cb.levelRank[l];
                BlockRowBatch u = new BlockRowBatch();
                for (int t = ClusterTree.levelStart(l - 1); kp > 0 && t < ClusterTree.levelStart(l); t++) {
                    u.block(cb.rankStart[t], kp);
                    for (int c = 2 * t + 1; kc > 0 && c <= 2 * t + 2; c++) u.term(cb.transferOffset[c], kc, cb.rankStart[c]);
                }
                add(u).append(up, "upsweep-l" + l, cb.transfers, xhat, xhat, nv, false, false);
            }
            phases.add(up.snapshot());

            BlockRowBatch cp = new BlockRowBatch();
            for (int t = 0; t < rowTree.nodes; t++) {
                int kt = rb.nodeRank(t); // each node's own rank: its coefficients past it stay zero
                if (kt == 0) continue;
                cp.block(rb.rankStart[t], kt);
                for (int b = partition.couplingRowPtr[t]; b < partition.couplingRowPtr[t + 1]; b++) {
                    int c = partition.couplingCol[b];
                    cp.term(couplingOffset[b], cb.nodeRank(c), cb.rankStart[c]);
                }
            }
            TaskGraph cg = new TaskGraph("coupling");
            add(cp).append(cg, "coupling", couplings, xhat, yhat, nv, false, false);
            phases.add(cg.snapshot());

            TaskGraph down = new TaskGraph("downsweep-transfers");
            for (int l = 1; l <= rowTree.depth; l++) {
                int kc = rb.levelRank[l], kp = rb.levelRank[l - 1];
                BlockRowBatch dn = new BlockRowBatch();
                for (int c = ClusterTree.levelStart(l); kc > 0 && kp > 0 && c < ClusterTree.levelStart(l + 1); c++) {
                    dn.block(rb.rankStart[c], kc).term(rb.transferOffset[c], kp, rb.rankStart[(c - 1) / 2]);
                }
                add(dn).append(down, "downsweep-l" + l, rb.transfers, yhat, yhat, nv, true, true);
            }
            phases.add(down.snapshot());

            int kl = rb.leafRank();
            BlockRowBatch dl = new BlockRowBatch();
            for (int i = 0; kl > 0 && i < rowTree.leaves; i++) {
                dl.block(rowLeaf[i], rowLeaf[i + 1] - rowLeaf[i]).term((long) rowLeaf[i] * kl, kl, rb.rankStart[rowTree.firstLeaf + i]);
            }
            TaskGraph dlg = new TaskGraph("downsweep-leaves");
            add(dl).append(dlg, "downsweep-leaves", rb.leafBasis, yhat, yTree, nv, true, true);
            phases.add(dlg.snapshot());
        }

        private BlockRowBatch add(BlockRowBatch b) {
            batches.add(b);
            return b;
        }

        /** The phases of the per-level kernels (and linalg batched GEMMs from {@link #GEMM_MIN_VECTORS} vectors on). */
        private void addLevelPhases(int nv) {
            BasisTree rb = rowBasis, cb = colBasis;
            if (gemm) {
                LaunchSequence seq = new LaunchSequence("dense", device);
                seq.graph().task("zero-y", H2Kernels::zero, yTree, (long) rowTree.size * nv);
                appendDenseGemms(seq, nv);
                phases.add(seq.graph().snapshot());
            } else {
                phases.add(new TaskGraph("dense")
                        .transferToDevice(DataTransferMode.FIRST_EXECUTION, denseRowPtr)
                        .task("dense", H2Kernels::dense, denseRowPtr, denseCol, denseOffset, rowPointLeaf, rowLeafStart, colLeafStart,
                                denseValues, xTree, yTree, (long) rowTree.size * nv, nv).snapshot());
            }
            int kq = cb.leafRank();
            phases.add(new TaskGraph("upsweep-leaves")
                    .task("upsweep-leaves", H2Kernels::leafUpsweep, cb.leafBasis, xTree, colLeafStart, xhat, cb.rankStartArray,
                            colTree.firstLeaf, (long) colTree.leaves * kq * nv, kq, nv).snapshot());
            TaskGraph up = new TaskGraph("upsweep-transfers");
            for (int l = colTree.depth; l >= 1; l--) {
                int kp = cb.levelRank[l - 1];
                up.task("upsweep-l" + l, H2Kernels::transferUpsweep, cb.transfers, cb.transferOffsetArray, xhat, cb.rankStartArray,
                        ClusterTree.levelStart(l - 1), (1L << (l - 1)) * kp * nv, kp, nv);
            }
            phases.add(up.snapshot());
            if (gemm) {
                LaunchSequence seq = new LaunchSequence("coupling", device);
                seq.graph().task("zero-yhat", H2Kernels::zero, yhat, (long) rb.coefficients() * nv);
                appendCouplingGemms(seq, nv);
                phases.add(seq.graph().snapshot());
            } else {
                TaskGraph cp = new TaskGraph("coupling").transferToDevice(DataTransferMode.FIRST_EXECUTION, couplingRowPtr);
                for (int l = 0; l <= rowTree.depth; l++) {
                    int kt = rb.levelRank[l];
                    cp.task("coupling-l" + l, H2Kernels::coupling, couplingRowPtr, couplingCol, couplings, couplingOffsetArray, xhat,
                            cb.rankStartArray, yhat, rb.rankStartArray, ClusterTree.levelStart(l), (1L << l) * kt * nv, kt, nv);
                }
                phases.add(cp.snapshot());
            }
            TaskGraph down = new TaskGraph("downsweep-transfers");
            for (int l = 1; l <= rowTree.depth; l++) {
                int kc = rb.levelRank[l];
                down.task("downsweep-l" + l, H2Kernels::transferDownsweep, rb.transfers, rb.transferOffsetArray, yhat, rb.rankStartArray,
                        ClusterTree.levelStart(l), (1L << l) * kc * nv, kc, nv);
            }
            phases.add(down.snapshot());
            int kl = rb.leafRank();
            phases.add(new TaskGraph("downsweep-leaves")
                    .task("downsweep-leaves", H2Kernels::leafDownsweep, rb.leafBasis, yhat, rb.rankStartArray, rowPointLeaf, yTree,
                            rowTree.firstLeaf, (long) rowTree.size * nv, kl, nv).snapshot());
        }

        /**
         * {@code Y_i += X_j D_ij^T} in the transposed view (vectors are {@code nv x m} column-major blocks of the
         * point-major arrays): for slot {@code s}, one batched GEMM over the row leaves that have an s-th dense block.
         */
        void appendDenseGemms(LaunchSequence seq, int nv) {
            int[] ptr = partition.denseRowPtr;
            int rowsN = rowTree.leaves;
            int slots = 0;
            for (int i = 0; i < rowsN; i++) slots = Math.max(slots, ptr[i + 1] - ptr[i]);
            for (int sl = 0; sl < slots; sl++) {
                List<int[]> e = new ArrayList<>();
                for (int i = 0; i < rowsN; i++) {
                    if (ptr[i + 1] - ptr[i] <= sl) continue;
                    int b = ptr[i] + sl, j = partition.denseCol[b];
                    int r0 = rowTree.leafStart[i], mi = rowTree.leafStart[i + 1] - r0;
                    int c0 = colTree.leafStart[j], mj = colTree.leafStart[j + 1] - c0;
                    e.add(new int[] {nv, mi, mj, c0 * nv, nv, (int) partition.denseOffset[b], mi, r0 * nv, nv});
                }
                BatchedGemm.append(seq, Transpose.N, Transpose.T, 1.0, xTree, denseValues, 1.0, yTree, descriptor(e), false);
            }
        }

        /**
         * {@code yhat_t += xhat_s S_ts^T} per level of the row tree and slot, as batched GEMMs ({@code nv x k} blocks of
         * the node vectors; ranks may differ between the two sides of a block).
         */
        void appendCouplingGemms(LaunchSequence seq, int nv) {
            int[] ptr = partition.couplingRowPtr;
            for (int l = 0; l <= rowTree.depth; l++) {
                int t0 = ClusterTree.levelStart(l), t1 = ClusterTree.levelStart(l + 1);
                int slots = 0;
                for (int t = t0; t < t1; t++) slots = Math.max(slots, ptr[t + 1] - ptr[t]);
                for (int sl = 0; sl < slots; sl++) {
                    List<int[]> e = new ArrayList<>();
                    for (int t = t0; t < t1; t++) {
                        if (ptr[t + 1] - ptr[t] <= sl) continue;
                        int b = ptr[t] + sl, c = partition.couplingCol[b];
                        int kt = rowBasis.rank(t), ks = colBasis.rank(c);
                        e.add(new int[] {nv, kt, ks, colBasis.rankStart[c] * nv, nv, (int) couplingOffset[b], Math.max(1, kt),
                                rowBasis.rankStart[t] * nv, nv});
                    }
                    BatchedGemm.append(seq, Transpose.N, Transpose.T, 1.0, xhat, couplings, 1.0, yhat, descriptor(e), false);
                }
            }
        }

        /**
         * Queues one product between the upload of x and the download of y: gather, then dense on the side queue
         * beside the tree phases on the main queue, then leaf downsweep and scatter after both.
         */
        void run(boolean transfers) {
            if (transfers) upload.execute();
            ExecutionHandle g = gather.executeAsync();
            ExecutionHandle d = dense.after(g.event()).executeAsync();
            ExecutionHandle t = tree.executeAsync();
            ExecutionHandle f = finish.after(d.event()).executeAsync();
            if (transfers) download.execute();
            g.await();
            d.await();
            t.await();
            f.await();
        }

        void free() {
            for (ExecutionPlan p : List.of(upload, gather, dense, tree, finish, download)) p.close();
            device.free(xUser, xTree, xhat, yhat, yTree, yUser);
            for (BlockRowBatch b : batches) device.free(b.arrays().toArray(KernelArray[]::new));
        }
    }

    /** Whether every offset the multi-vector GEMMs address fits the int offsets of the linalg batch descriptor. */
    private boolean gemmOffsetsFit(int nv) {
        long lim = Integer.MAX_VALUE;
        return partition.denseOffset[partition.denseBlocks()] < lim && couplingOffset[partition.couplingBlocks()] < lim
                && (long) rowTree.size * nv < lim && (long) colTree.size * nv < lim
                && (long) rowBasis.coefficients() * nv < lim && (long) colBasis.coefficients() * nv < lim;
    }

    private static BatchDescriptor descriptor(List<int[]> entries) {
        int b = entries.size();
        int[][] f = new int[9][b];
        for (int e = 0; e < b; e++) for (int k = 0; k < 9; k++) f[k][e] = entries.get(e)[k];
        return BatchDescriptor.variable(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
    }

    /** Number of rows (row points). */
    public int rows() {
        return rowTree.size;
    }

    /** Number of columns (column points). */
    public int cols() {
        return colTree.size;
    }

    /** Rank of the bases as built: {@code order^dim} (compression lowers it per level, see {@link #rowRanks()}). */
    public int rank() {
        return rank;
    }

    /** Rank of each level of the row basis, root first. */
    public int[] rowRanks() {
        return rowBasis.levelRank.clone();
    }

    /** Rank of each level of the column basis, root first. */
    public int[] colRanks() {
        return colBasis.levelRank.clone();
    }

    /** Depth of the row tree (leaves are at this level; the root is level 0). */
    public int rowDepth() {
        return rowTree.depth;
    }

    /** Depth of the column tree. */
    public int colDepth() {
        return colTree.depth;
    }

    /** Number of coupling (low-rank) blocks. */
    public int couplingBlocks() {
        return partition.couplingBlocks();
    }

    /** Number of dense leaf blocks. */
    public int denseBlocks() {
        return partition.denseBlocks();
    }

    public Device device() {
        return device;
    }

    public CovarianceKernel kernel() {
        return kernel;
    }

    public H2Options options() {
        return options;
    }

    /** Wall time of the whole construction: host part (trees, traversal) plus device part. */
    public double buildMillis() {
        return hostBuildMillis + deviceBuildMillis;
    }

    /** Wall time of the host part of construction: clustering, boxes, dual-tree traversal, block lists. */
    public double hostBuildMillis() {
        return hostBuildMillis;
    }

    /** Wall time of the device part of construction (bases, transfers, couplings, dense blocks), programs built included. */
    public double deviceBuildMillis() {
        return deviceBuildMillis;
    }

    /**
     * Device time of each batched part of construction in milliseconds (kernels only: program builds and the upload
     * of the structure excluded), in the order they run: {@code leaf-bases}, {@code transfers}, {@code couplings},
     * {@code dense-blocks}; each is one launch per basis for the whole tree (every level at once), plus the kernel
     * evaluation for couplings and dense blocks.
     */
    public Map<String, Double> buildPartMillis() {
        return buildPartMillis;
    }

    /**
     * Wall time of each host part of construction in milliseconds: {@code trees} (KD-trees of both point sets),
     * {@code traversal} (dual-tree traversal and block lists), {@code structure} (offsets and index arrays handed to
     * the device).
     */
    public Map<String, Double> buildHostPartMillis() {
        return buildHostPartMillis;
    }

    /** Row node of coupling block {@code b}. */
    int couplingRow(int b) {
        return partition.couplingRow[b];
    }

    /** Column node of coupling block {@code b}. */
    int couplingCol(int b) {
        return partition.couplingCol[b];
    }

    /** Each row node's rank (at most its level's; ranks vary within a level after compression). */
    synchronized int[] rowNodeRanks() {
        return rowBasis.nodeRank.clone();
    }

    /** Each column node's rank. */
    synchronized int[] colNodeRanks() {
        return colBasis.nodeRank.clone();
    }

    /** Bytes kept on the device, by part. */
    public synchronized H2Memory memory() {
        long bases = rowBasis.basisBytes() + (shared ? 0 : colBasis.basisBytes());
        long transfers = rowBasis.transferBytes() + (shared ? 0 : colBasis.transferBytes());
        long structure = bytes(rowPoints, rowBoxes, rowPointLeaf, rowLeafStart, rowPerm, couplingRowPtr, couplingRow, couplingCol,
                denseRowPtr, denseRow, denseCol, denseOffset, couplingOffsetArray, rowBasis.rankStartArray, rowBasis.transferOffsetArray);
        if (!shared) {
            structure += bytes(colPoints, colBoxes, colPointLeaf, colLeafStart, colPerm, colBasis.rankStartArray,
                    colBasis.transferOffsetArray);
        }
        long work = 8L * (2L * colTree.size + colBasis.coefficients() + rowBasis.coefficients() + 2L * rowTree.size);
        long dense = partition.denseOffset[partition.denseBlocks()] * 8;
        long coupling = couplingOffset[partition.couplingBlocks()] * 8;
        return new H2Memory(dense, coupling, bases, transfers, structure, work);
    }

    /** The arrays the device computes in construction and the product's workspace of each vector count built so far. */
    synchronized List<KernelArray> deviceComputedArrays() {
        List<KernelArray> out = new ArrayList<>(List.of(rowBasis.leafBasis, rowBasis.transfers, colBasis.leafBasis, colBasis.transfers,
                couplings, denseValues));
        for (Product p : products.values()) out.addAll(List.of(p.xTree, p.xhat, p.yhat, p.yTree));
        return out;
    }

    private static long bytes(KernelArray... arrays) {
        long s = 0;
        for (KernelArray a : arrays) s += a.byteSize();
        return s;
    }

    /** Frees the device copies of everything this matrix holds; later products fail. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (Product p : products.values()) p.free();
        products.clear();
        sideQueue.close();
        mainQueue.close();
        device.free(rowPoints, colPoints, rowBoxes, colBoxes, rowPointLeaf, colPointLeaf, rowLeafStart, colLeafStart, rowPerm,
                colPerm, couplingRowPtr, couplingRow, couplingCol, denseRowPtr, denseRow, denseCol, denseOffset, denseValues);
        freeLowRank();
    }

    private void freeLowRank() {
        device.free(couplings, couplingOffsetArray);
        for (BasisTree b : new BasisTree[] {rowBasis, colBasis}) {
            device.free(b.leafBasis, b.transfers, b.rankStartArray, b.transferOffsetArray);
        }
    }

    @Override
    public String toString() {
        return "H2Matrix[" + rows() + " x " + cols() + ", " + kernel + ", rank " + rank + ", leaf " + options.leafSize()
                + ", eta " + options.eta() + ", " + couplingBlocks() + " coupling and " + denseBlocks() + " dense blocks, on "
                + device.id() + "]";
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
