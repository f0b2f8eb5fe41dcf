package dev.squall.spark.sparse;

import dev.squall.permanent.numeric.KahanSum;
import dev.squall.spark.TaskDevices;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.tasks.runtime.Device;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * A square sparse matrix spread over a Spark cluster as row blocks ({@link RowBlock}): a persisted pair RDD keyed by
 * block number with a fixed {@link HashPartitioner} (block k is partition k), each block's device copy cached in the
 * executor that runs it ({@link BlockCache}). It multiplies vectors and solves SPD systems by conjugate gradients in
 * two ways:
 * <ul>
 *   <li>{@link #cgBarrier}: one barrier stage ({@code rdd.barrier()}, all blocks' tasks at once, one per GPU) runs the
 *       whole CG; per iteration two {@link BlockExchange} rounds carry the partial dot products and the halo values of
 *       r (each task keeps its halo of p up to date from them), nothing goes through the driver. The rounds go over
 *       TCP between the tasks after one {@code BarrierTaskContext.allGather} of their addresses, or, slower, through
 *       an allGather each;</li>
 *   <li>{@link #cgDriver}, the baseline: the driver keeps the vectors; per iteration one Spark job gets p out (a
 *       broadcast) and {@code A p} and the partial {@code p.Ap} back, two trips through the driver.</li>
 * </ul>
 * Both add partial dot products in block order with compensation and do the same arithmetic, so they agree bit for
 * bit with each other whatever the schedule; with a single-process CG they agree to rounding.
 *
 * <pre>{@code
 * try (DistributedCsr a = DistributedCsr.of(sc, Stencils.hpcg(32, 32, 32), 4, TaskDevices.fallingBackTo("jvm"))) {
 *     DistributedCsr.CgResult r = a.cgBarrier(b, 1e-10, 500);
 * }
 * }</pre>
 */
public final class DistributedCsr implements AutoCloseable {
    /**
     * @param x           the solution
     * @param iterations  iterations run
     * @param relResidual the recurrence's final {@code ||r|| / ||b||}
     * @param converged   whether it reached the tolerance
     * @param history     {@code ||r|| / ||b||} before the first iteration and after each
     * @param devices     each block's device, in block order
     * @param seconds     wall time of the solve
     */
    public record CgResult(double[] x, int iterations, double relResidual, boolean converged, double[] history, List<String> devices,
                           double seconds) {
    }

    /** One block's share of a barrier CG. */
    record BlockSolution(int block, double[] x, int iterations, double relResidual, boolean converged, double[] history, String device)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** One block's product and partial dot product in the driver-driven CG. */
    record BlockProduct(int block, double[] q, double pq, String device) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private final JavaSparkContext sc;
    private final String id = UUID.randomUUID().toString();
    private final int n;
    private final int parts;
    private final int[] bounds;
    private final List<RowBlock> blocks;
    private final JavaPairRDD<Integer, RowBlock> rdd;
    private final TaskDevices devices;

    private DistributedCsr(JavaSparkContext sc, CsrMatrix a, int parts, TaskDevices devices) {
        this.sc = sc;
        this.n = a.rows();
        this.parts = parts;
        this.bounds = RowBlocks.boundaries(a.rows(), parts);
        this.blocks = RowBlocks.split(a, parts);
        this.devices = devices;
        List<Tuple2<Integer, RowBlock>> keyed = new ArrayList<>();
        for (RowBlock b : blocks) keyed.add(new Tuple2<>(b.id(), b));
        this.rdd = sc.parallelizePairs(keyed, parts).partitionBy(new HashPartitioner(parts)).persist(StorageLevel.MEMORY_ONLY());
        rdd.count(); // materialise the blocks where they will stay
    }

    /** Cuts {@code a} into {@code parts} row blocks and persists them (one job). */
    public static DistributedCsr of(JavaSparkContext sc, CsrMatrix a, int parts, TaskDevices devices) {
        return new DistributedCsr(sc, a, parts, devices);
    }

    public int blocks() {
        return parts;
    }

    /** The row blocks as the driver cut them. */
    public List<RowBlock> rowBlocks() {
        return blocks;
    }

    /** {@code A x} in one job: x broadcast, each block multiplied on its task's device. */
    public double[] multiply(double[] x) {
        checkLength("x", x);
        Broadcast<double[]> bx = sc.broadcast(x);
        String key = id;
        TaskDevices td = devices;
        try {
            List<BlockProduct> ys = new ArrayList<>(rdd.values().map(blk -> td.run(d -> new BlockProduct(blk.id(),
                    BlockCache.multiply(key, blk, d, blk.extendFromGlobal(bx.value())), 0, d.id()))).collect());
            double[] y = new double[n];
            for (BlockProduct p : ys) System.arraycopy(p.q(), 0, y, bounds[p.block()], p.q().length);
            return y;
        } finally {
            bx.destroy();
        }
    }

    /** {@link #cgBarrier(double[], double, int, BlockExchange.Kind)} over sockets between the tasks. */
    public CgResult cgBarrier(double[] b, double tol, int maxIter) {
        return cgBarrier(b, tol, maxIter, BlockExchange.Kind.SOCKETS);
    }

    /**
     * CG from x0 = 0 in one barrier stage; stops when {@code ||r|| / ||b|| <= tol} or after {@code maxIter} iterations.
     * The tasks exchange partial dot products and halos through {@code exchange}.
     */
    public CgResult cgBarrier(double[] b, double tol, int maxIter, BlockExchange.Kind exchange) {
        checkSolve(b, tol, maxIter);
        long t0 = System.nanoTime();
        Broadcast<double[]> bb = sc.broadcast(b);
        try {
            RDD<RowBlock> values = rdd.values().rdd();
            RDD<BlockSolution> solved = values.barrier().mapPartitions(new BarrierCg(id, bb, tol, maxIter, devices, exchange), false,
                    ClassTag$.MODULE$.apply(BlockSolution.class));
            List<BlockSolution> out = new ArrayList<>(solved.toJavaRDD().collect());
            out.sort(Comparator.comparingInt(BlockSolution::block));
            double[] x = new double[n];
            for (BlockSolution s : out) System.arraycopy(s.x(), 0, x, bounds[s.block()], s.x().length);
            BlockSolution first = out.get(0);
            return new CgResult(x, first.iterations(), first.relResidual(), first.converged(), first.history(),
                    out.stream().map(BlockSolution::device).toList(), (System.nanoTime() - t0) / 1e9);
        } finally {
            bb.destroy();
        }
    }

    /** The whole CG inside one barrier task (block = partition). */
    static final class BarrierCg extends AbstractFunction1<scala.collection.Iterator<RowBlock>, scala.collection.Iterator<BlockSolution>>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String key;
        private final Broadcast<double[]> b;
        private final double tol;
        private final int maxIter;
        private final TaskDevices devices;
        private final BlockExchange.Kind exchange;

        BarrierCg(String key, Broadcast<double[]> b, double tol, int maxIter, TaskDevices devices, BlockExchange.Kind exchange) {
            this.exchange = exchange;
            this.key = key;
            this.b = b;
            this.tol = tol;
            this.maxIter = maxIter;
            this.devices = devices;
        }

        @Override
        public scala.collection.Iterator<BlockSolution> apply(scala.collection.Iterator<RowBlock> it) {
            BarrierTaskContext ctx = BarrierTaskContext.get();
            RowBlock blk = it.next();
            if (blk.id() != ctx.partitionId()) throw new IllegalStateException("block " + blk.id() + " is in partition " + ctx.partitionId());
            // one task per GPU: a barrier stage's tasks must all run at once, so they take no slot (TaskDevices.run)
            Device d = devices.current();
            int m = blk.rows();
            double[] x = new double[m];
            int k = 0;
            boolean converged;
            double rel;
            List<Double> history = new ArrayList<>();
            try (BlockExchange net = BlockExchange.open(exchange, ctx, blk)) {
                double[] r = new double[m], p = new double[m];
                System.arraycopy(b.value(), blk.firstRow(), r, 0, m);
                System.arraycopy(r, 0, p, 0, m);
                // round 0: |b|^2 and r's halo (= p's)
                BlockExchange.Gathered g = net.exchange(dot(r, r), blk.sendValues(r));
                double rr = g.sum();
                double bnorm = Math.sqrt(rr);
                double[] pHalo = blk.extend(p, g.sent());
                history.add(bnorm == 0 ? 0.0 : 1.0);
                converged = bnorm == 0;
                rel = bnorm == 0 ? 0 : 1;
                while (!converged && k < maxIter) {
                    double[] q = BlockCache.multiply(key, blk, d, pHalo);
                    double pq = net.exchange(dot(p, q), new double[0]).sum();
                    double alpha = rr / pq;
                    for (int i = 0; i < m; i++) {
                        x[i] += alpha * p[i];
                        r[i] -= alpha * q[i];
                    }
                    k++;
                    g = net.exchange(dot(r, r), blk.sendValues(r));
                    double rrNew = g.sum();
                    rel = Math.sqrt(rrNew) / bnorm;
                    history.add(rel);
                    if (rel <= tol || !(pq > 0)) {
                        converged = rel <= tol;
                        break;
                    }
                    double beta = rrNew / rr;
                    rr = rrNew;
                    double[] rHalo = blk.extend(r, g.sent());
                    for (int i = 0; i < m; i++) p[i] = r[i] + beta * p[i];
                    for (int i = 0; i < pHalo.length; i++) pHalo[i] = i < m ? p[i] : rHalo[i] + beta * pHalo[i];
                }
            }
            double[] h = history.stream().mapToDouble(Double::doubleValue).toArray();
            BlockSolution s = new BlockSolution(blk.id(), x, k, rel, converged, h, d.id());
            return scala.jdk.javaapi.CollectionConverters.asScala(List.of(s).iterator());
        }
    }

    /** Plain left-to-right dot product of a block's segment (both CG variants use it). */
    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }

    /** CG from x0 = 0 with the vectors on the driver: one Spark job per iteration for {@code A p} (the baseline). */
    public CgResult cgDriver(double[] b, double tol, int maxIter) {
        checkSolve(b, tol, maxIter);
        long t0 = System.nanoTime();
        double[] x = new double[n], r = b.clone(), p = b.clone();
        double rr = blockDot(r, r);
        double bnorm = Math.sqrt(rr);
        List<Double> history = new ArrayList<>();
        history.add(bnorm == 0 ? 0.0 : 1.0);
        int k = 0;
        boolean converged = bnorm == 0;
        double rel = bnorm == 0 ? 0 : 1;
        List<String> used = List.of();
        String key = id;
        TaskDevices td = devices;
        while (!converged && k < maxIter) {
            Broadcast<double[]> bp = sc.broadcast(p);
            List<BlockProduct> prods;
            try {
                prods = new ArrayList<>(rdd.values().map(blk -> td.run(d -> {
                    double[] q = BlockCache.multiply(key, blk, d, blk.extendFromGlobal(bp.value()));
                    double[] own = new double[blk.rows()];
                    System.arraycopy(bp.value(), blk.firstRow(), own, 0, own.length);
                    return new BlockProduct(blk.id(), q, dot(own, q), d.id());
                })).collect());
            } finally {
                bp.destroy();
            }
            prods.sort(Comparator.comparingInt(BlockProduct::block));
            used = prods.stream().map(BlockProduct::device).toList();
            double[] q = new double[n];
            KahanSum pqSum = new KahanSum();
            for (BlockProduct bpq : prods) {
                System.arraycopy(bpq.q(), 0, q, bounds[bpq.block()], bpq.q().length);
                pqSum.add(bpq.pq());
            }
            double pq = pqSum.value();
            double alpha = rr / pq;
            for (int i = 0; i < n; i++) {
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            k++;
            double rrNew = blockDot(r, r);
            rel = Math.sqrt(rrNew) / bnorm;
            history.add(rel);
            if (rel <= tol || !(pq > 0)) {
                converged = rel <= tol;
                break;
            }
            double beta = rrNew / rr;
            rr = rrNew;
            for (int i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
        }
        return new CgResult(x, k, rel, converged, history.stream().mapToDouble(Double::doubleValue).toArray(), used,
                (System.nanoTime() - t0) / 1e9);
    }

    /** The dot product as the blocks form it: per-block partials added in block order with compensation. */
    private double blockDot(double[] a, double[] b) {
        KahanSum s = new KahanSum();
        for (int k = 0; k < parts; k++) {
            double part = 0;
            for (int i = bounds[k]; i < bounds[k + 1]; i++) part += a[i] * b[i];
            s.add(part);
        }
        return s.value();
    }

    private void checkLength(String what, double[] v) {
        if (v.length != n) throw new IllegalArgumentException(what + " has " + v.length + " entries, the matrix has " + n + " rows");
    }

    private void checkSolve(double[] b, double tol, int maxIter) {
        checkLength("b", b);
        if (!(tol > 0 && tol < 1)) throw new IllegalArgumentException("tolerance " + tol + " must lie in (0, 1)");
        if (maxIter < 0) throw new IllegalArgumentException("max iterations " + maxIter + " must be at least 0");
    }

    /** Unpersists the blocks and frees their device copies in the executors that run the job doing so. */
    @Override
    public void close() {
        String key = id;
        try {
            rdd.values().foreachPartition(it -> BlockCache.evict(key));
        } finally {
            rdd.unpersist(false);
        }
    }
}
