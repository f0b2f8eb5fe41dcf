package dev.squall.spark.h2;

import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.h2.H2Structure;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.spark.TaskDevices;
import dev.squall.spark.permanent.DistributedPermanent.Fault;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * The symmetric H2 matrix of a covariance kernel over a point cloud ({@code hmatrix}'s {@link
 * dev.squall.hmatrix.h2.H2Matrix}, same structure and values) spread over Spark tasks: the cluster tree is cut at level
 * {@code L}, each of the {@code 2^L} tasks owns a subtree ({@link SubtreePart}: its points, i.e. its rows and columns,
 * bases, transfers, coupling rows and dense leaf rows, computed and kept on its device, {@link SubtreeSlice}), the
 * top of the tree lives on the driver ({@link TopTree}). A product {@code y = A x} is two jobs:
 * <ol>
 *   <li>each task runs its subtree's upsweep and returns its root's {@code xhat} and the {@code xhat} of its nodes that
 *       other subtrees' couplings read;</li>
 *   <li>the driver runs the top (upsweep above the roots, couplings of levels {@code <= L}, downsweep to the roots) and
 *       routes the halo {@code xhat}; each task multiplies its rows: couplings below its root (own and halo
 *       {@code xhat}), dense blocks (own and halo {@code x}), downsweep from its root's {@code yhat}.</li>
 * </ol>
 * Each entry of {@code y} is computed by one task in a fixed order, so {@code y} is the same bit for bit however tasks
 * are scheduled, retried or duplicated; it equals {@code H2Matrix.multiply} to rounding (the same kernels in the same
 * order; bit for bit where the devices are the same).
 *
 * <pre>{@code
 * try (DistributedH2 a = DistributedH2.build(sc, PointCloud.perturbedGrid(1 << 16, 3, 1L), CovarianceKernel.exponential(0.2),
 *         H2Options.defaults().withOrder(4), 2, TaskDevices.fallingBackTo("jvm"))) {
 *     DistributedH2.Product p = a.multiply(x);   // 4 tasks, one per subtree
 * }
 * }</pre>
 */
public final class DistributedH2 implements AutoCloseable {
    /**
     * One product.
     *
     * @param y            {@code A x}, in the order of the points
     * @param devices      each part's device, in part order
     * @param upsweepSeconds the first job (subtree upsweeps)
     * @param topSeconds   the driver's top and routing
     * @param rowsSeconds  the second job (each part's rows)
     * @param seconds      the whole product
     */
    public record Product(double[] y, List<String> devices, double upsweepSeconds, double topSeconds, double rowsSeconds, double seconds) {
    }

    /** A part's upsweep result: its root's xhat, then its send nodes'. */
    record Upsweep(int part, double[] xhat, String device) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** A part's rows of y (tree order). */
    record Rows(int part, double[] y, String device) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** What the second job's tasks read: per part, its halo xhat and its root's yhat. */
    record Inbound(double[][] haloXhat, double[][] rootYhat) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private final JavaSparkContext sc;
    private final String id = UUID.randomUUID().toString();
    private final H2Structure structure;
    private final SubtreeCut cut;
    private final int[] perm;
    /** The parts' host structure, one broadcast: a task takes its part by partition number, so a retried task or a new executor finds it. */
    private final Broadcast<List<SubtreePart>> partList;
    /** One partition per part, holding only its number: tasks carry no data. */
    private final JavaRDD<Integer> rdd;
    private final TopTree top;
    private final TaskDevices devices;
    private final double buildSeconds;
    private Fault fault = Fault.THROW;
    private int faultPart = -1;
    private int faultJob;

    private DistributedH2(JavaSparkContext sc, PointCloud points, CovarianceKernel kernel, H2Options options, int level, TaskDevices devices,
                          Device topDevice) {
        long t0 = System.nanoTime();
        this.sc = sc;
        this.devices = devices;
        structure = H2Structure.of(points, options);
        cut = SubtreeCut.of(structure, kernel.toString(), level);
        perm = structure.permutation();
        top = new TopTree(structure, kernel, level, topDevice);
        int parts = cut.parts().size();
        partList = sc.broadcast(cut.parts());
        List<Integer> ids = new ArrayList<>();
        for (int a = 0; a < parts; a++) ids.add(a);
        rdd = sc.parallelize(ids, parts);
        buildSeconds = (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Cuts the H2 matrix of {@code kernel} over {@code points} at tree level {@code level} ({@code 2^level} parts, one task
     * each) and broadcasts the parts' host structure; the top runs on the JVM in the driver. The parts' device values are computed by the
     * first product's tasks and cached in their executors.
     *
     * @throws IllegalArgumentException for a level outside {@code [0, depth]}, a kernel {@code CovarianceKernel.parse}
     *                                  cannot read back (a user's own kernel), or bad options
     */
    public static DistributedH2 build(JavaSparkContext sc, PointCloud points, CovarianceKernel kernel, H2Options options, int level,
                                      TaskDevices devices) {
        CovarianceKernel.parse(kernel.toString()); // tasks rebuild the kernel from its name
        return new DistributedH2(sc, points, kernel, options, level, devices, Devices.jvm());
    }

    /** Number of parts (tasks of a product). */
    public int parts() {
        return cut.parts().size();
    }

    public int level() {
        return cut.level();
    }

    /** The whole matrix's structure (the same as the single-process matrix's). */
    public H2Structure structure() {
        return structure;
    }

    /** Driver time of the cut: tree, traversal, parts, top, the parts' broadcast. */
    public double buildSeconds() {
        return buildSeconds;
    }

    /** Points of each part, in part order. */
    public int[] partSizes() {
        return cut.parts().stream().mapToInt(SubtreePart::size).toArray();
    }

    /** Halo volume of one product in values: the xhat each part receives plus the x of its halo leaves. */
    public long haloValues() {
        long v = 0;
        for (SubtreePart p : cut.parts()) v += (long) p.haloNodes().length * p.rank() + (p.columnPoints().length / p.dim() - p.size());
        return v;
    }

    /** Test hook: {@code f} strikes the first attempt of part {@code part}'s task in job {@code job} (1 or 2) of each product (-1: none). */
    public DistributedH2 injectFault(Fault f, int part, int job) {
        this.fault = f;
        this.faultPart = part;
        this.faultJob = job;
        return this;
    }

    /** {@code y = A x} for {@code x} in the order of the points: two jobs of one task per part. */
    public Product multiply(double[] x) {
        if (x.length != perm.length) throw new IllegalArgumentException("x has " + x.length + " values; the matrix has " + perm.length + " points");
        long t0 = System.nanoTime();
        double[] xt = new double[x.length];
        for (int a = 0; a < xt.length; a++) xt[a] = x[perm[a]];
        Broadcast<double[]> bx = sc.broadcast(xt);
        String key = id;
        TaskDevices td = devices;
        Fault f = fault;
        int fp = faultPart, fj = faultJob;
        Broadcast<Inbound> in = null;
        try {
            Broadcast<List<SubtreePart>> all = partList;
            List<Upsweep> ups = new ArrayList<>(rdd.map(a -> {
                SubtreePart p = part(all, a);
                if (fj == 1) strike(f, p.part(), fp);
                return td.run(d -> {
                    double[] own = Arrays.copyOfRange(bx.value(), p.firstPoint(), p.firstPoint() + p.size());
                    return new Upsweep(p.part(), SliceCache.slice(key, p, d).upsweep(own), d.id());
                });
            }).collect());
            ups.sort(Comparator.comparingInt(Upsweep::part));
            long t1 = System.nanoTime();
            in = sc.broadcast(route(ups));
            long t2 = System.nanoTime();
            Broadcast<Inbound> inbound = in;
            List<Rows> rows = new ArrayList<>(rdd.map(a -> {
                SubtreePart p = part(all, a);
                if (fj == 2) strike(f, p.part(), fp);
                return td.run(d -> {
                    double[] xe = extended(p, bx.value());
                    Inbound b = inbound.value();
                    return new Rows(p.part(), SliceCache.slice(key, p, d).multiply(xe, b.haloXhat()[p.part()], b.rootYhat()[p.part()]), d.id());
                });
            }).collect());
            rows.sort(Comparator.comparingInt(Rows::part));
            double[] y = new double[x.length];
            for (Rows r : rows) {
                SubtreePart p = cut.parts().get(r.part());
                for (int i = 0; i < r.y().length; i++) y[perm[p.firstPoint() + i]] = r.y()[i];
            }
            long t3 = System.nanoTime();
            return new Product(y, rows.stream().map(Rows::device).toList(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, (t3 - t0) / 1e9);
        } finally {
            bx.destroy();
            if (in != null) in.destroy();
        }
    }

    /** The top on the driver and the halo routing: each part's halo xhat (from its owners' sends) and its root's yhat. */
    private Inbound route(List<Upsweep> ups) {
        List<SubtreePart> parts = cut.parts();
        int n = parts.size(), k = structure.rank(), level = cut.level();
        if (ups.size() != n) throw new IllegalStateException("expected " + n + " upsweep results, got " + ups.size());
        double[] roots = new double[n * k];
        for (Upsweep u : ups) System.arraycopy(u.xhat(), 0, roots, u.part() * k, k);
        double[] yRoots = top.run(roots);
        double[][] halo = new double[n][], rootY = new double[n][];
        for (SubtreePart p : parts) {
            int[] h = p.haloNodes();
            double[] v = new double[h.length * k];
            for (int i = 0; i < h.length; i++) {
                int owner = SubtreeCut.owner(h[i], level);
                int at = Arrays.binarySearch(parts.get(owner).sendNodes(), h[i]);
                System.arraycopy(ups.get(owner).xhat(), (at + 1) * k, v, i * k, k);
            }
            halo[p.part()] = v;
            rootY[p.part()] = Arrays.copyOfRange(yRoots, p.part() * k, (p.part() + 1) * k);
        }
        return new Inbound(halo, rootY);
    }

    /** Part {@code a} of the broadcast, checked against the task's partition. */
    private static SubtreePart part(Broadcast<List<SubtreePart>> all, int a) {
        if (a != TaskContext.getPartitionId()) throw new IllegalStateException("part " + a + " is in partition " + TaskContext.getPartitionId());
        return all.value().get(a);
    }

    /** A part's x then its halo leaves' x, from x in tree order. */
    private static double[] extended(SubtreePart p, double[] xt) {
        int own = p.ownLeaves();
        int[] cls = p.columnLeafStart();
        double[] out = new double[cls[cls.length - 1]];
        System.arraycopy(xt, p.firstPoint(), out, 0, p.size());
        for (int h = 0; h < p.haloLeaves().length; h++) {
            int len = cls[own + h + 1] - cls[own + h];
            System.arraycopy(xt, p.haloLeafFirstPoint()[h], out, cls[own + h], len);
        }
        return out;
    }

    private static void strike(Fault f, int part, int faulty) throws InterruptedException {
        if (part != faulty || TaskContext.get().attemptNumber() != 0) return;
        switch (f) {
            case THROW -> throw new IllegalStateException("injected failure of part " + part + " (first attempt)");
            case WAIT_FOR_KILL -> {
                long until = System.nanoTime() + 60_000_000_000L;
                while (!TaskContext.get().isInterrupted() && System.nanoTime() < until) Thread.sleep(10);
                TaskContext.get().killTaskIfInterrupted();
            }
            case HALT_EXECUTOR -> {
                if ("driver".equals(SparkEnv.get().executorId())) throw new IllegalStateException("HALT_EXECUTOR would end the driver: use it under local-cluster");
                Runtime.getRuntime().halt(77);
            }
        }
    }

    /** Frees the top, the parts' broadcast and, where the eviction tasks land, the executors' device copies (else they go when their cache needs the room). */
    @Override
    public void close() {
        partList.destroy();
        top.close();
        String key = id;
        int parts = parts();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < parts; i++) ids.add(i);
        sc.parallelize(ids, parts).foreach(i -> SliceCache.evict(key));
        SliceCache.evict(key); // local mode: the driver's JVM
    }
}
