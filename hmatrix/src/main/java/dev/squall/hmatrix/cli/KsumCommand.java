package dev.squall.hmatrix.cli;

import dev.squall.hmatrix.ksum.BlockSparseSum;
import dev.squall.hmatrix.ksum.Clustering;
import dev.squall.hmatrix.ksum.GridBlockSparseSum;
import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PairKernel;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.hmatrix.ksum.TolerantKernelSum;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import dev.squall.cli.CostEstimate;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.cli.Sizes;
import dev.squall.cli.SquallSubcommand;

/** {@code squall ksum}: a kernel sum over point clouds, dense, block-sparse or to a tolerance; time, pairs per second, error. */
@Command(name = "ksum", header = "Kernel sums a_i = sum_j k(x_i, y_j) b_j: dense, block-sparse, or to a tolerance.",
        sortOptions = false,
        description = {"Computes a = K b for M target and N source points without storing K: dense (tiled through local",
                "memory), block-sparse (--block-sparse: grid cells of side --cell, tiles kept when their clusters may hold",
                "points closer than --cutoff; clustering, ranges and sum all on the device while the grid over both",
                "clouds has at most 2^24 cells, else the clusters are sorted on the host), or to a relative tolerance",
                "(--tol: picks one and says why). b holds --cols",
                "columns of uniform [0, 1) values. Reports the kernel time (median of --repeat runs), pairs per second",
                "(pairs computed / kernel time), the kept fraction and the bound on what was dropped; --verify compares",
                "with the exact fp64 sum on --sample rows (max error / max value over those rows) and checks each row's",
                "error against its dropped-term bound plus the worst-case rounding of an N-term sum, gamma_N sum_j |k_ij b_j|",
                "(u: unit roundoff of the precision), and the relative error against --tol when given, else against",
                "1e-4 in fp32 and 1e-10 in fp64 plus the largest dropped-term bound over the largest value.", "",
                "Points: uniform (unit cube), gaussian (blob), spiral, in --dim dimensions (1 to 8), targets and sources",
                "drawn independently; or a CSV file of 2 or 3 numbers a line (targets: its first M points, sources: its first N).",
                "Kernels: gauss, exp, matern12, matern32, matern52, imq, cauchy, each NAME:LENGTHSCALE.", "",
                "Examples:",
                "  squall ksum --n 20000 --verify",
                "  squall ksum --n 30000 --kernel gauss:0.01 --block-sparse --cell 0.02 --cutoff 0.06 --verify",
                "  squall ksum --n 4000 --kernel cauchy:0.005 --tol 1e-6 --precision fp64 --verify",
                "  squall ksum --n 1000000 --kernel gauss:0.1 --precision fp32 --device cuda:0 --json   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5, precisions = {"fp32", "fp64"})
public final class KsumCommand implements SquallSubcommand {
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

    @Option(names = "--block-sparse", description = "block-sparse product with --cell and --cutoff")
    boolean blockSparse;

    @Option(names = "--cell", paramLabel = "H", defaultValue = "0.05", description = "grid cell side of --block-sparse (default 0.05)")
    double cell;

    @Option(names = "--cutoff", paramLabel = "R", defaultValue = "0.3", description = "distance cutoff of --block-sparse (default 0.3)")
    double cutoff;

    @Option(names = "--target-span", paramLabel = "K", defaultValue = "1",
            description = "--block-sparse on the device: target clusters span K cells along the first coordinate (wider tiles, more kept pairs; default 1)")
    int targetSpan;

    @Option(names = "--tol", paramLabel = "EPS", description = "relative tolerance: picks dense or block-sparse")
    Double tol;

    @Option(names = "--exponent", paramLabel = "FORM", defaultValue = "expanded",
            description = {"expanded (default): the Gaussian in 3 dimensions with one column is summed as",
                    "2^(-|u_i|^2) sum_j 2^(B_j + 2 u_i.v_j) about a centre of the targets, where the scaled reach keeps",
                    "its rounding small (else as direct); direct: |x - y|^2 per pair"})
    String exponent;

    @Option(names = "--points", paramLabel = "KIND|FILE", defaultValue = "uniform", description = "uniform, gaussian, spiral or a CSV file (default uniform)")
    String points;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of points and b (default 1)")
    long seed;

    @Option(names = "--sample", paramLabel = "S", defaultValue = "200", description = "rows checked by --verify (default 200)")
    int sample;

    @Mixin
    RunOptions run;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): sizes (m targets, n sources, dim, cols), kernel,
     * precision, points, device, the exponent form asked for (expanded, direct), the method (dense, block-sparse) and why, cell and cutoff (null for dense), clusters,
     * kernel/first-call/clustering/ranges/total times (ms; clustering null when inside the total), pairs computed, pairs per
     * second, kept fraction, the largest dropped-term bound, for --block-sparse with --repeat above 0 the phase
     * times of a warm pass through the whole product ({@link Phases}; null otherwise) and, on the device pipeline, that
     * pass's steps with the device's own times of each launch set (null otherwise), whether --verify ran, its relative error and rows checked,
     * whether every row stayed within its bound (null without --verify), and {@code ok}.
     */
    public record Result(String command, int m, int n, int dim, String kernel, int cols, String precision, String points, String device, String exponent, String method,
                         String reason, Double cell, Double cutoff, int targetClusters, int sourceClusters, double kernelMs, double firstCallMs,
                         Double clusteringMs, double rangesMs, double totalMs, long pairs, double pairsPerS, double keptFraction, double maxDroppedBound,
                         Phases warmPhases, List<GridBlockSparseSum.Step> warmSteps, boolean verified, Double relError, int rowsChecked, Boolean boundHeld, boolean ok) {
    }

    @Override
    public Integer call() {
        if (blockSparse && tol != null) throw new IllegalArgumentException("give --block-sparse or --tol, not both");
        int repeat = run.repeat();
        boolean verify = run.verify();
        Sizes.inRange("--sample", sample, 1, Integer.MAX_VALUE);
        Sizes.inRange("--n", n, 1, Integer.MAX_VALUE);
        if (m != null) Sizes.inRange("--m", m, 1, Integer.MAX_VALUE);
        Sizes.inRange("--cols", cols, 1, Integer.MAX_VALUE);
        Sizes.intElements("--n x --cols", n, cols);
        int mm = m == null ? n : m;
        PairKernel k = PairKernel.parse(kernel);
        Precision p = run.precision();
        Device dev = run.device();
        CostEstimate.warnIfSlow(System.err, dev, 20.0 * mm * n * cols * (repeat + 1), String.format(Locale.ROOT, "ksum of %d x %d pairs, %d column(s), %d runs", mm, n, cols, repeat + 1));
        PointSet y = PointSet.named(points, n, dim, seed + 1);
        PointSet x = PointSet.named(points, mm, dim, seed);
        double[] b = new SplittableRandom(seed + 2).doubles((long) y.size() * cols, 0, 1).toArray();
        if (!exponent.equals("expanded") && !exponent.equals("direct")) {
            throw new IllegalArgumentException("--exponent must be expanded or direct, got '" + exponent + "'");
        }
        KernelSum engine = new KernelSum(k, p, dev).withExpansion(exponent.equals("expanded"));
        progress(String.format(Locale.ROOT, "%d targets x %d sources, %dd, %s, %s, on %s", x.size(), y.size(), x.dim(), k, p, dev.id()));

        String method, reason;
        double clusterMs = 0, usedCell = Double.NaN, usedCutoff = Double.NaN;
        Phases warm = null;
        List<GridBlockSparseSum.Step> warmSteps = null;
        String sumKernel = null;
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
        } else if (blockSparse && GridBlockSparseSum.fits(x, y, cell)) {
            Sizes.inRange("--target-span", targetSpan, 1, Integer.MAX_VALUE);
            try (GridBlockSparseSum gs = new GridBlockSparseSum(engine, cell).withTargetSpan(targetSpan)) {
                GridBlockSparseSum.Outcome o = gs.apply(x, y, b, cols, BlockSparseSum.KeepRule.within(cutoff), repeat);
                r = o.result();
                clusterMs = o.phases().stagingMs() + o.phases().clusteringMs();
                targetClusters = o.targetClusters();
                sourceClusters = o.sourceClusters();
                sumKernel = o.sumKernel();
                // later passes reuse the device memory of the first (a caller's repeated products)
                if (repeat > 0) {
                    GridBlockSparseSum.Outcome median = warmPasses(gs, x, y, b, Math.min(repeat, 10));
                    GridBlockSparseSum.Phases w = median.phases();
                    warm = new Phases(w.stagingMs(), w.clusteringMs(), w.rangesMs(), w.sumMs(), w.totalMs());
                    warmSteps = median.steps();
                }
            }
            method = "block-sparse";
            reason = "asked for; clustering, ranges and sum on the device"
                    + (targetSpan > 1 ? "; target clusters " + targetSpan + " cells wide" : "") + "; sum kernel " + sumKernel;
            usedCell = cell;
            usedCutoff = cutoff;
        } else if (blockSparse) {
            long c0 = System.nanoTime();
            Clustering cx = Clustering.grid(x, cell, dev), cy = Clustering.grid(y, cell, dev);
            BlockSparseSum bs = BlockSparseSum.build(engine, x, y, cx, cy);
            clusterMs = (System.nanoTime() - c0) / 1e6;
            targetClusters = cx.clusters();
            sourceClusters = cy.clusters();
            r = bs.apply(b, cols, BlockSparseSum.KeepRule.within(cutoff), repeat);
            method = "block-sparse";
            reason = String.format(Locale.ROOT, "asked for; host clustering (%.3g grid cells, more than the device pipeline's %d)",
                    GridBlockSparseSum.cellCount(x, y, cell), GridBlockSparseSum.MAX_CELLS);
            usedCell = cell;
            usedCutoff = cutoff;
            if (repeat > 0) warm = endToEnd(engine, x, y, b);
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
                // the reference sum is compensated (Kahan), so its own rounding stays near one unit of fp64
                double[] exact = new double[cols], carry = new double[cols];
                double absSum = 0;
                for (int j = 0; j < y.size(); j++) {
                    double v = k.evaluate(x.distance(i, y, j));
                    for (int c = 0; c < cols; c++) {
                        double term = v * b[j * cols + c] - carry[c];
                        double sum = exact[c] + term;
                        carry[c] = (sum - exact[c]) - term;
                        exact[c] = sum;
                        absSum += Math.abs(v * b[j * cols + c]);
                    }
                }
                for (int c = 0; c < cols; c++) {
                    double e = Math.abs(r.values()[i * cols + c] - exact[c]);
                    if (Double.isNaN(e)) e = Double.POSITIVE_INFINITY;
                    err = Math.max(err, e);
                    scale = Math.max(scale, Math.abs(exact[c]));
                    // rigorous rounding allowance of the device's sum of the kept terms: a recursive sum of N terms
                    // errs by at most gamma_N = N u / (1 - N u) times sum |k b| (Higham, Accuracy and Stability of
                    // Numerical Algorithms, 2nd ed., eq. 4.4), plus a few units for each term's kernel evaluation
                    double nu = y.size() * u;
                    double allowance = (nu < 0.5 ? nu / (1 - nu) + 8 * u : Double.POSITIVE_INFINITY) * absSum;
                    worstOverBound = Math.max(worstOverBound, e - r.rowBounds()[i] - allowance);
                }
            }
            relError = err / scale;
            // without --tol: the precision's expected accuracy plus what the dropped tiles may contribute
            double expected = tol != null ? tol : (u > 1e-10 ? 1e-4 : 1e-10) + r.maxBound() / scale;
            ok = worstOverBound <= 0 && relError <= expected;
        }

        if (run.json()) {
            JsonOutput.print(new Result("ksum", x.size(), y.size(), x.dim(), k.toString(), cols, p.toString(), points, dev.id(), exponent, method, reason,
                    Double.isNaN(usedCell) ? null : usedCell, Double.isNaN(usedCutoff) ? null : usedCutoff, targetClusters, sourceClusters, kernelMs,
                    r.firstMillis(), Double.isNaN(clusterMs) ? null : clusterMs, r.rangesMillis(), totalMs, r.pairs(), pairsPerSecond, r.keptFraction(),
                    r.maxBound(), warm, warmSteps, verify, verify ? relError : null, checked, verify ? worstOverBound <= 0 : null, ok));
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
            if (warm != null) {
                System.out.printf(Locale.ROOT, "warm pass  %.1f ms end to end: staging %.1f, clustering %.1f, ranges %.1f, sum %.1f ms%n",
                        warm.totalMs(), warm.stagingMs(), warm.clusteringMs(), warm.rangesMs(), warm.sumMs());
            }
            System.out.printf(Locale.ROOT, "rate       %.4g pairs/s (%d pairs)%n", pairsPerSecond, r.pairs());
            if (verify) {
                System.out.printf(Locale.ROOT, "verify     relative error %.3e on %d rows; every row within its dropped-term bound: %s; %s%n",
                        relError, checked, worstOverBound <= 0 ? "yes" : "NO", ok ? "ok" : "FAILED");
            }
        }
        return ok ? 0 : 1;
    }

    /**
     * Block-sparse phase times (ms) of a warm pass through the whole product in the same process (with the device
     * pipeline, the median by total of --repeat passes, at most 10: the JIT keeps compiling the launch code over the
     * first few): staging (device pipeline: checks, bounding boxes and page-locked copies of the inputs; 0 on the host
     * path), clustering of both clouds with the sorted clouds, centroids and radii (device pipeline: uploads, cell keys,
     * counting sort, boundaries, geometry, gathers in one launch set; host path: keys on the device, the key sort and
     * the build on the host), the kept ranges, the sum (kernel, results back in the caller's order) and all of it.
     */
    public record Phases(double stagingMs, double clusteringMs, double rangesMs, double sumMs, double totalMs) {
    }

    /** Warm passes through the device pipeline: the one with the median total. */
    private GridBlockSparseSum.Outcome warmPasses(GridBlockSparseSum gs, PointSet x, PointSet y, double[] b, int passes) {
        GridBlockSparseSum.Outcome[] runs = new GridBlockSparseSum.Outcome[passes];
        for (int i = 0; i < passes; i++) {
            GridBlockSparseSum.Outcome o = gs.apply(x, y, b, cols, BlockSparseSum.KeepRule.within(cutoff), 0);
            runs[i] = o;
            progress(String.format(Locale.ROOT, "warm pass %d: %.1f ms (%s)", i + 1, o.phases().totalMs(),
                    o.steps().stream().map(Object::toString).collect(java.util.stream.Collectors.joining(", "))));
        }
        java.util.Arrays.sort(runs, java.util.Comparator.comparingDouble(o -> o.phases().totalMs()));
        return runs[passes / 2];
    }

    private Phases endToEnd(KernelSum engine, PointSet x, PointSet y, double[] b) {
        Device dev = engine.device();
        long t0 = System.nanoTime();
        Clustering cx = Clustering.grid(x, cell, dev), cy = Clustering.grid(y, cell, dev);
        BlockSparseSum bs = BlockSparseSum.build(engine, x, y, cx, cy);
        long t2 = System.nanoTime();
        KernelSum.Result r = bs.apply(b, cols, BlockSparseSum.KeepRule.within(cutoff));
        long t3 = System.nanoTime();
        return new Phases(0, (t2 - t0) / 1e6, r.rangesMillis(), (t3 - t2) / 1e6 - r.rangesMillis(), (t3 - t0) / 1e6);
    }

    private static void progress(String s) {
        System.err.println("ksum: " + s);
    }
}
