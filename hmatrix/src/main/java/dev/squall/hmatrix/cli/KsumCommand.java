package dev.squall.hmatrix.cli;

import dev.squall.hmatrix.ksum.BlockSparseSum;
import dev.squall.hmatrix.ksum.Clustering;
import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PairKernel;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.hmatrix.ksum.TolerantKernelSum;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code squall ksum}: a kernel sum over point clouds, dense, block-sparse or to a tolerance; time, pairs per second, error. */
@Command(name = "ksum", header = "Kernel sums a_i = sum_j k(x_i, y_j) b_j: dense, block-sparse, or to a tolerance.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Computes a = K b for M target and N source points without storing K: dense (tiled through local",
                "memory), block-sparse (--block-sparse: grid cells of side --cell, tiles kept when their clusters may hold",
                "points closer than --cutoff), or to a relative tolerance (--tol: picks one and says why). b holds --cols",
                "columns of uniform [0, 1) values. Reports the kernel time (median of --repeat runs), pairs per second",
                "(pairs computed / kernel time), the kept fraction and the bound on what was dropped; --verify compares",
                "with the exact fp64 sum on --sample rows (max error / max value over those rows) and checks each row's",
                "error against its dropped-term bound plus a rounding allowance of 4 u sqrt(N) sum_j |k_ij b_j| (u: unit",
                "roundoff of the precision), and against --tol when given.", "",
                "Points: uniform (unit cube), gaussian (blob), spiral, in --dim dimensions (1 to 8), targets and sources",
                "drawn independently; or a CSV file of 2 or 3 numbers a line (targets: its first M points, sources: its first N).",
                "Kernels: gauss, exp, matern12, matern32, matern52, imq, cauchy, each NAME:LENGTHSCALE.", "",
                "Examples:",
                "  squall ksum --n 100000 --verify",
                "  squall ksum --n 1000000 --kernel gauss:0.1 --precision fp32 --device cuda:0 --json",
                "  squall ksum --n 1000000 --kernel gauss:0.01 --block-sparse --cell 0.02 --cutoff 0.06 --verify",
                "  squall ksum --n 200000 --kernel cauchy:0.005 --tol 1e-6 --precision fp64 --verify",
                "", "Exit codes: 0 ok, 1 --verify failed, 2 bad input, 3 device error."})
public final class KsumCommand implements Callable<Integer> {
    @Option(names = "--n", paramLabel = "N", required = true, description = "source points")
    int n;

    @Option(names = "--m", paramLabel = "M", description = "target points (default N)")
    Integer m;

    @Option(names = "--dim", paramLabel = "D", defaultValue = "3", description = "dimension, 1 to 8 (default 3)")
    int dim;

    @Option(names = "--kernel", paramLabel = "NAME:L", defaultValue = "gauss:0.1", description = "kernel (default gauss:0.1)")
    String kernel;

    @Option(names = "--cols", paramLabel = "C", defaultValue = "1", description = "columns of b (default 1)")
    int cols;

    @Option(names = "--precision", paramLabel = "P", defaultValue = "fp32", description = "fp32 or fp64 (default fp32)")
    String precision;

    @Option(names = "--block-sparse", description = "block-sparse product with --cell and --cutoff")
    boolean blockSparse;

    @Option(names = "--cell", paramLabel = "H", defaultValue = "0.05", description = "grid cell side of --block-sparse (default 0.05)")
    double cell;

    @Option(names = "--cutoff", paramLabel = "R", defaultValue = "0.3", description = "distance cutoff of --block-sparse (default 0.3)")
    double cutoff;

    @Option(names = "--tol", paramLabel = "EPS", description = "relative tolerance: picks dense or block-sparse")
    Double tol;

    @Option(names = "--points", paramLabel = "KIND|FILE", defaultValue = "uniform", description = "uniform, gaussian, spiral or a CSV file (default uniform)")
    String points;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of points and b (default 1)")
    long seed;

    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0, jvm (default: best present)")
    String device;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "5", description = "timed runs after the first (default 5; the median is reported)")
    int repeat;

    @Option(names = "--verify", description = "compare with the exact fp64 sum on --sample rows; exit 1 when above tolerance or a bound")
    boolean verify;

    @Option(names = "--sample", paramLabel = "S", defaultValue = "200", description = "rows checked by --verify (default 200)")
    int sample;

    @Option(names = "--json", description = "print one JSON object on stdout instead of text")
    boolean json;

    @Override
    public Integer call() {
        if (blockSparse && tol != null) throw new IllegalArgumentException("give --block-sparse or --tol, not both");
        if (repeat < 0) throw new IllegalArgumentException("--repeat " + repeat + " must not be negative");
        if (sample < 1) throw new IllegalArgumentException("--sample " + sample + " must be at least 1");
        if (n < 1) throw new IllegalArgumentException("--n " + n + " must be at least 1");
        if (m != null && m < 1) throw new IllegalArgumentException("--m " + m + " must be at least 1");
        int mm = m == null ? n : m;
        PairKernel k = PairKernel.parse(kernel);
        Precision p = Precision.parse(precision);
        PointSet y = PointSet.named(points, n, dim, seed + 1);
        PointSet x = PointSet.named(points, mm, dim, seed);
        double[] b = new SplittableRandom(seed + 2).doubles((long) y.size() * cols, 0, 1).toArray();
        Device dev = Devices.select(device);
        KernelSum engine = new KernelSum(k, p, dev);
        progress(String.format(Locale.ROOT, "%d targets x %d sources, %dd, %s, %s, on %s", x.size(), y.size(), x.dim(), k, p, dev.id()));

        String method, reason;
        double clusterMs = 0, usedCell = Double.NaN, usedCutoff = Double.NaN;
        int targetClusters = 0, sourceClusters = 0;
        long t0 = System.nanoTime();
        KernelSum.Result r;
        if (tol != null) {
            TolerantKernelSum.Outcome o = TolerantKernelSum.compute(engine, x, y, b, cols, tol, repeat);
            r = o.result();
            method = o.method();
            reason = o.reason();
            usedCell = o.cell();
            usedCutoff = o.cutoff();
            clusterMs = Double.NaN;  // inside total_ms: the tolerance may cluster more than once
        } else if (blockSparse) {
            long c0 = System.nanoTime();
            Clustering cx = Clustering.grid(x, cell, dev), cy = Clustering.grid(y, cell, dev);
            BlockSparseSum bs = BlockSparseSum.build(engine, x, y, cx, cy);
            clusterMs = (System.nanoTime() - c0) / 1e6;
            targetClusters = cx.clusters();
            sourceClusters = cy.clusters();
            r = bs.apply(b, cols, BlockSparseSum.KeepRule.within(cutoff), repeat);
            method = "block-sparse";
            reason = "asked for";
            usedCell = cell;
            usedCutoff = cutoff;
        } else {
            r = engine.apply(x, y, b, cols, repeat);
            method = "dense";
            reason = "asked for";
        }
        double totalMs = (System.nanoTime() - t0) / 1e6;
        double kernelMs = r.profile().kernelMillis();
        double pairsPerSecond = r.pairs() / (kernelMs * 1e-3);

        double relError = Double.NaN, worstOverBound = Double.NaN;
        boolean ok = true;
        int checked = 0;
        if (verify) {
            checked = Math.min(sample, x.size());
            progress("verifying " + checked + " rows against the exact fp64 sum");
            int[] rows = new SplittableRandom(seed + 3).ints(0, x.size()).distinct().limit(checked).toArray();
            double err = 0, scale = 0;
            worstOverBound = 0;
            double u = p.epsilon();
            for (int i : rows) {
                double[] exact = new double[cols];
                double absSum = 0;
                for (int j = 0; j < y.size(); j++) {
                    double v = k.evaluate(x.distance(i, y, j));
                    for (int c = 0; c < cols; c++) {
                        exact[c] += v * b[j * cols + c];
                        absSum += Math.abs(v * b[j * cols + c]);
                    }
                }
                for (int c = 0; c < cols; c++) {
                    double e = Math.abs(r.values()[i * cols + c] - exact[c]);
                    if (Double.isNaN(e)) e = Double.POSITIVE_INFINITY;
                    err = Math.max(err, e);
                    scale = Math.max(scale, Math.abs(exact[c]));
                    // rounding allowance of the kept terms: a few units of the precision times sqrt(N) times sum |k b|
                    double allowance = 4 * u * Math.sqrt(y.size()) * absSum;
                    worstOverBound = Math.max(worstOverBound, e - r.rowBounds()[i] - allowance);
                }
            }
            relError = err / scale;
            ok = worstOverBound <= 0 && (tol == null || relError <= tol);
        }

        if (json) {
            System.out.println(String.format(Locale.ROOT, "{\"m\":%d,\"n\":%d,\"dim\":%d,\"kernel\":%s,\"cols\":%d,\"precision\":%s,\"points\":%s,"
                            + "\"device\":%s,\"method\":%s,\"reason\":%s,\"cell\":%s,\"cutoff\":%s,\"target_clusters\":%d,\"source_clusters\":%d,"
                            + "\"kernel_ms\":%s,\"first_call_ms\":%s,\"clustering_ms\":%s,\"ranges_ms\":%s,\"total_ms\":%s,\"pairs\":%d,"
                            + "\"pairs_per_s\":%s,\"kept_fraction\":%s,\"max_dropped_bound\":%s,\"rel_error\":%s,\"rows_checked\":%d,"
                            + "\"bound_held\":%s,\"verified\":%s}",
                    x.size(), y.size(), x.dim(), q(k.toString()), cols, q(p.toString()), q(points), q(dev.id()), q(method), q(reason),
                    num(usedCell), num(usedCutoff), targetClusters, sourceClusters, num(kernelMs), num(r.firstMillis()), num(clusterMs),
                    num(r.rangesMillis()), num(totalMs), r.pairs(), num(pairsPerSecond), num(r.keptFraction()), num(r.maxBound()),
                    verify ? num(relError) : "null", checked, verify ? Boolean.toString(worstOverBound <= 0) : "null",
                    verify ? Boolean.toString(ok) : "null"));
        } else {
            System.out.printf(Locale.ROOT, "sum        %d targets x %d sources, %dd %s points, kernel %s, %d column(s), %s%n",
                    x.size(), y.size(), x.dim(), points, k, cols, p);
            System.out.printf(Locale.ROOT, "device     %s (%s)%n", dev.id(), dev.info().name());
            System.out.printf(Locale.ROOT, "method     %s: %s%n", method, reason);
            if (!method.equals("dense")) {
                System.out.printf(Locale.ROOT, "tiles      cell %.4g, cutoff %.4g%s; kept %.4f%% of pairs; dropped terms bounded by %.3e per row%n",
                        usedCell, usedCutoff, targetClusters > 0 ? String.format(Locale.ROOT, ", %d x %d clusters", targetClusters, sourceClusters) : "",
                        100 * r.keptFraction(), r.maxBound());
            }
            System.out.printf(Locale.ROOT, "time       kernel %.4f ms (median of %d), first call %.1f ms; clustering %s, ranges %.1f ms; %.1f ms in all%n",
                    kernelMs, Math.max(1, repeat), r.firstMillis(), Double.isNaN(clusterMs) ? "(within the total)" : String.format(Locale.ROOT, "%.1f ms", clusterMs),
                    r.rangesMillis(), totalMs);
            System.out.printf(Locale.ROOT, "rate       %.4g pairs/s (%d pairs)%n", pairsPerSecond, r.pairs());
            if (verify) {
                System.out.printf(Locale.ROOT, "verify     relative error %.3e on %d rows; every row within its dropped-term bound: %s; %s%n",
                        relError, checked, worstOverBound <= 0 ? "yes" : "NO", ok ? "ok" : "FAILED");
            }
        }
        return ok ? 0 : 1;
    }

    private static void progress(String s) {
        System.err.println("ksum: " + s);
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
    }

    private static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
