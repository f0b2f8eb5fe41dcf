package dev.squall.hmatrix.cli;

import dev.squall.hmatrix.h2.H2CompressionReport;
import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Memory;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.hmatrix.points.PointsCsv;
import dev.squall.sparse.limits.CopyBandwidth;
import dev.squall.tasks.runtime.Device;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.Progress;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.cli.Sizes;
import dev.squall.cli.SquallSubcommand;

/** {@code squall h2}: build an H2 kernel matrix, time its matrix-vector product by phase, report memory and GB/s. */
@Command(name = "h2", header = "H2 kernel matrix: build, matrix-vector product by phase, memory and GB/s.",
        sortOptions = false,
        description = {"Builds the H2 approximation of a covariance kernel matrix over a point set (KD-tree leaves of --leaf points, tensor"
                + " Chebyshev bases of --order per dimension, blocks admissible when max(diam) <= eta dist) on the device, then times"
                + " y = A x (--vectors columns) phase by phase. Reports build time, memory by part, per-phase device time, GB/s counted as"
                + " the H2 literature counts (bytes of dense blocks + couplings + leaf bases + transfers / time) and its ratio to this"
                + " device's copy bandwidth (a STREAM-style copy kernel). --verify compares with the exact kernel sum on a sample of rows.",
                "",
                "Points: 2d or 3d (a randomly perturbed regular grid in the unit square/cube, --n points), or a CSV file of 2 or 3 numbers"
                + " a line (--n, if given, keeps the first N). Kernels: exp, gauss, matern12, matern32, matern52, imq, each NAME:LENGTHSCALE.",
                "",
                "Examples (files from the repository root):",
                "  squall h2 --points 2d --n 4096 --verify",
                "  squall h2 --points 3d --n 8192 --order 4 --kernel exp:0.2 --device jvm --json",
                "  squall h2 --points bench/data/sites.csv --kernel matern32:0.05 --vectors 4 --device jvm --verify",
                "  squall h2 --points 2d --n 8192 --compress 1e-7 --verify",
                "  squall h2 --points 3d --n 16384 --order 4 --kernel exp:0.2 --admissibility center --vectors 32 --device jvm --verify --tolerance 1e-2",
                "  squall h2 --points 3d --n 65536 --order 4 --kernel exp:0.2 --device cuda:0 --json   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 10, precisions = {"fp64"})
public final class H2Command implements SquallSubcommand {
    @Option(names = "--points", paramLabel = "2d|3d|FILE", required = true,
            description = "2d or 3d perturbed grid, or a CSV file of points")
    String points;

    @Option(names = "--n", paramLabel = "N", description = "number of points (required for 2d/3d; for a file, the first N)")
    Integer n;

    @Option(names = "--leaf", paramLabel = "M", defaultValue = "64", description = "leaf size (default 64)")
    int leaf;

    @Option(names = "--order", paramLabel = "P", defaultValue = "8", description = "Chebyshev order per dimension (default 8)")
    int order;

    @Option(names = "--eta", paramLabel = "E", defaultValue = "1.0", description = "admissibility parameter (default 1.0)")
    double eta;

    @Option(names = "--admissibility", paramLabel = "box|center", defaultValue = "box",
            description = "box: max(diam) <= eta * box distance (default); center: (diam_t + diam_s) / 2 <= eta * distance of the box centers"
                    + " (H2Opus's; fewer, larger blocks)")
    String admissibility;

    @Option(names = "--kernel", paramLabel = "NAME:L", defaultValue = "exp:0.1", description = "covariance kernel (default exp:0.1)")
    String kernel;

    @Option(names = "--vectors", paramLabel = "NV", defaultValue = "1", description = "vectors per product (default 1)")
    int vectors;

    @Option(names = "--compress", paramLabel = "EPS",
            description = "recompress the low-rank part to relative tolerance EPS before timing (ranks, error estimate, memory before/after)")
    Double compress;

    @Option(names = "--warm-build",
            description = "build twice in the process and report the second (warm: kernels compiled, JIT warm) build, the first as cold_build")
    boolean warmBuild;

    @Option(names = "--warm-compress",
            description = "with --compress: also compress the first of two builds in the process and report it as cold_compression,"
                    + " the second compression (kernels compiled, JIT warm) as compression")
    boolean warmCompress;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the points and vectors (default 1)")
    long seed;

    @Option(names = "--sample", paramLabel = "S", defaultValue = "200", description = "rows checked by --verify (default 200)")
    int sample;

    @Option(names = "--tolerance", paramLabel = "T", defaultValue = "1e-6", description = "largest relative error --verify accepts (default 1e-6)")
    double tolerance;

    @Mixin
    RunOptions run;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the points, their number and dimension, kernel, leaf size, order,
     * rank, eta, vectors, device, precision (fp64), tree depth and block counts, build times (ms), memory by part (bytes),
     * the device time of each construction part (ms), the first product's and the median product's host time (ms), the
     * device time of each phase run alone and their sum, the device time of whole products with the dense part
     * overlapping the tree phases (ms; GB/s and GFLOP/s use it), whether the dense and coupling phases ran as batched
     * GEMMs, counted bytes, GB/s, copy bandwidth and the ratio to it, GFLOP/s, the recompression report (null without
     * --compress), whether --verify ran, the sampled relative error, {@code ok}, the host parts of the build, and with
     * --warm-build or --warm-compress the first build (and its compression) in the process.
     */
    public record Result(String command, String points, int n, int dim, String kernel, int leaf, int order, int rank, double eta, String admissibility, int vectors,
                         String device, String precision, int depth, int couplingBlocks, int denseBlocks, double buildMs, double buildHostMs,
                         double buildDeviceMs, Map<String, Double> buildPartsMs, Memory memoryBytes, double firstProductMs, double productWallMsMedian,
                         Map<String, Double> phaseMs, double phaseSumMs, double productDeviceMs, boolean gemm, long countedBytes, double gbs, double copyGbs,
                         double ratioToCopy, double gflops, Compression compression, boolean verified, Double relError, boolean ok,
                         Map<String, Double> buildHostPartsMs, Build coldBuild, Compression coldCompression) {
    }

    /** One construction: wall time, host and device parts (ms), each host part and each device part. */
    public record Build(double ms, double hostMs, double deviceMs, Map<String, Double> hostPartsMs, Map<String, Double> devicePartsMs) {
        static Build of(H2Matrix a) {
            return new Build(a.buildMillis(), a.hostBuildMillis(), a.deviceBuildMillis(), a.buildHostPartMillis(), a.buildPartMillis());
        }
    }

    /** Memory of each part of the H2 matrix, in bytes. */
    public record Memory(long dense, long coupling, long bases, long transfers, long structure, long workspacePerVector, long total) {
    }

    /**
     * What --compress did: tolerance, estimated relative error, time, memory before and after, ranks per level, the
     * time of each step, and the flops, device time and GFLOP/s of the coupling projections (batched GEMMs when
     * {@code projectionGemm}).
     */
    public record Compression(double tolerance, double errorEstimate, double ms, long memoryBefore, long memoryAfter, int[] rowRanks, int[] colRanks,
                              Map<String, Double> stepsMs, double projectionGflop, double projectionDeviceMs, double projectionGflops,
                              boolean projectionGemm, Map<String, Part> parts) {
    }

    /**
     * Where a step's time went: per {@code step/plan} the plans run, their wall time, the time preparing them (kernel
     * builds or loads) and the device time from their first to last kernel; {@code step/host} is the step's time
     * outside its plans (ms).
     */
    public record Part(int plans, double wallMs, double prepareMs, double kernelMs) {
    }

    @Override
    public Integer call() {
        Sizes.inRange("--vectors", vectors, 1, Integer.MAX_VALUE);
        Sizes.inRange("--sample", sample, 1, Integer.MAX_VALUE);
        int repeat = run.repeat();
        boolean verify = run.verify();
        CovarianceKernel k = CovarianceKernel.parse(kernel);
        PointCloud pts = points();
        Device dev = run.device();
        H2Options opts = new H2Options(leaf, order, eta, dev, switch (admissibility.strip().toLowerCase(Locale.ROOT)) {
            case "box" -> H2Options.Admissibility.BOX_DISTANCE;
            case "center" -> H2Options.Admissibility.BOX_CENTER;
            default -> throw new IllegalArgumentException("--admissibility " + admissibility + ": use box or center");
        });
        progress("building on " + dev.id() + ": " + pts + ", " + k + ", leaf " + leaf + ", order " + order + ", eta " + eta);
        Build cold = null;
        Compression coldCompression = null;
        if (warmCompress && compress == null) throw new IllegalArgumentException("--warm-compress needs --compress EPS");
        if (warmBuild || warmCompress) {
            try (H2Matrix first = H2Matrix.build(pts, k, opts)) {
                cold = Build.of(first);
                if (warmCompress) {
                    progress("compressing the first build to " + compress);
                    coldCompression = compression(first.compress(compress));
                }
            }
            progress("building again (warm)");
        }
        try (H2Matrix a = H2Matrix.build(pts, k, opts)) {
            H2CompressionReport cr = null;
            if (compress != null) {
                progress("compressing to " + compress);
                cr = a.compress(compress);
            }
            int size = a.cols();
            double[] x = new SplittableRandom(seed + 1).doubles(Sizes.intElements("--vectors x points", size, vectors), -1, 1).toArray();
            long f0 = System.nanoTime();
            double[] y = a.multiply(x, vectors);
            double firstMs = (System.nanoTime() - f0) / 1e6;
            double[] wall = new double[repeat];
            try (Progress bar = Progress.open(run.progress(), "h2 products", repeat, "products")) {
                for (int r = 0; r < repeat; r++, bar.step()) {
                    long t0 = System.nanoTime();
                    y = a.multiply(x, vectors);
                    wall[r] = (System.nanoTime() - t0) / 1e6;
                }
            }
            Arrays.sort(wall);
            progress("timing phases");
            Map<String, Double> phases = a.phaseMillis(vectors, repeat);
            double phaseSum = phases.values().stream().mapToDouble(Double::doubleValue).sum();
            progress("timing whole products (dense part beside the tree phases)");
            double deviceMs = a.productMillis(vectors, repeat);
            progress("measuring copy bandwidth");
            double copyGbs = copyBandwidth(dev);
            H2Memory mem = a.memory();
            double gbs = mem.streamedBytes() / (deviceMs * 1e-3) / 1e9;
            double gflops = flops(a, mem) * vectors / (deviceMs * 1e-3) / 1e9;
            double err = Double.NaN;
            boolean ok = true;
            if (verify) {
                progress("verifying " + Math.min(sample, a.rows()) + " rows against the exact kernel sum");
                err = sampledError(pts, k, x, y, vectors);
                ok = err <= tolerance;
            }
            if (run.json()) {
                JsonOutput.print(new Result("h2", points, size, pts.dim(), k.toString(), leaf, order, a.rank(), eta, admissibility, vectors, dev.id(), "fp64", a.rowDepth(),
                        a.couplingBlocks(), a.denseBlocks(), a.buildMillis(), a.hostBuildMillis(), a.deviceBuildMillis(), a.buildPartMillis(),
                        new Memory(mem.dense(), mem.coupling(), mem.bases(), mem.transfers(), mem.structure(), mem.workspacePerVector(), mem.total()),
                        firstMs, wall[repeat / 2], phases, phaseSum, deviceMs, a.usesGemm(vectors), mem.streamedBytes(), gbs, copyGbs, gbs / copyGbs,
                        gflops, compression(cr), verify, verify ? err : null, ok,
                        a.buildHostPartMillis(), cold, coldCompression));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %d x %d %dD points (%s), kernel %s, leaf %d, order %d (rank %d), eta %s%n",
                        size, size, pts.dim(), points, k, leaf, order, a.rank(), eta);
                System.out.printf(Locale.ROOT, "structure  depth %d, %d coupling blocks, %d dense blocks%n", a.rowDepth(), a.couplingBlocks(), a.denseBlocks());
                System.out.printf(Locale.ROOT, "device     %s (%s)%n", dev.id(), dev.info().name());
                System.out.printf(Locale.ROOT, "build      %.1f ms (host: trees and traversal %.1f ms; device: bases, transfers, couplings, dense %.1f ms)%n",
                        a.buildMillis(), a.hostBuildMillis(), a.deviceBuildMillis());
                for (var e : a.buildHostPartMillis().entrySet()) System.out.printf(Locale.ROOT, "  %-20s %.1f ms host%n", e.getKey(), e.getValue());
                for (var e : a.buildPartMillis().entrySet()) System.out.printf(Locale.ROOT, "  %-20s %.4f ms device%n", e.getKey(), e.getValue());
                if (cold != null) {
                    System.out.printf(Locale.ROOT, "cold build %.1f ms (host %.1f ms, device %.1f ms); the build above is the second in this process%n",
                            cold.ms(), cold.hostMs(), cold.deviceMs());
                }
                if (cr != null) {
                    System.out.printf(Locale.ROOT, "compress   to %.1e in %.1f ms: estimated relative error %.3e, row ranks %s, memory %.2f -> %.2f MB%n",
                            cr.tolerance(), cr.millis(), cr.relativeErrorEstimate(), Arrays.toString(cr.rowRanks()),
                            cr.memoryBefore().total() / 1e6, cr.memoryAfter().total() / 1e6);
                    System.out.printf(Locale.ROOT, "           steps %s ms; coupling projections %.3f GFLOP in %.3f ms on the device, %.1f GFLOP/s (%s)%n",
                            cr.stepMillis(), cr.projectionFlops() / 1e9, cr.projectionDeviceMillis(), cr.projectionGflops(),
                            cr.projectionGemm() ? "batched GEMM" : "kernels with 64-bit offsets");
                    for (var e : cr.parts().entrySet()) {
                        H2CompressionReport.Part p = e.getValue();
                        System.out.printf(Locale.ROOT, "  %-40s %4d plans %10.2f ms wall %9.2f ms prepare %9.2f ms device%n", e.getKey(), p.plans(),
                                p.wallMillis(), p.prepareMillis(), p.kernelMillis());
                    }
                }
                System.out.printf(Locale.ROOT, "memory     %s%n", mem);
                System.out.printf(Locale.ROOT, "product    %d vector(s)%s: %.4f ms device (dense part beside the tree phases; phases alone sum to %.4f ms),"
                        + " %.4f ms per call on the host (first call incl. plan build %.1f ms), medians of %d%n", vectors,
                        a.usesGemm(vectors) ? ", dense and couplings as batched GEMMs" : "", deviceMs, phaseSum, wall[repeat / 2], firstMs, repeat);
                for (var e : phases.entrySet()) System.out.printf(Locale.ROOT, "  %-20s %.4f ms%n", e.getKey(), e.getValue());
                System.out.printf(Locale.ROOT, "rate       %.1f GB/s counted (%d bytes: dense + couplings + bases + transfers), %.0f%% of copy bandwidth %.1f GB/s; %.2f GFLOP/s%n",
                        gbs, mem.streamedBytes(), 100 * gbs / copyGbs, copyGbs, gflops);
                if (verify) {
                    System.out.printf(Locale.ROOT, "verify     relative error %.3e on %d sampled rows (tolerance %.1e): %s%n",
                            err, Math.min(sample, a.rows()), tolerance, ok ? "ok" : "FAILED");
                }
            }
            return ok ? 0 : 1;
        }
    }

    private static Compression compression(H2CompressionReport r) {
        if (r == null) return null;
        return new Compression(r.tolerance(), r.relativeErrorEstimate(), r.millis(), r.memoryBefore().total(), r.memoryAfter().total(), r.rowRanks(),
                r.colRanks(), r.stepMillis(), r.projectionFlops() / 1e9, r.projectionDeviceMillis(), r.projectionGflops(), r.projectionGemm(),
                parts(r.parts()));
    }

    private static Map<String, Part> parts(Map<String, H2CompressionReport.Part> m) {
        Map<String, Part> out = new java.util.LinkedHashMap<>();
        for (var e : m.entrySet()) {
            H2CompressionReport.Part p = e.getValue();
            out.put(e.getKey(), new Part(p.plans(), p.wallMillis(), p.prepareMillis(), p.kernelMillis()));
        }
        return out;
    }

    private PointCloud points() {
        String s = points.strip().toLowerCase(Locale.ROOT);
        if (s.equals("2d") || s.equals("3d")) {
            if (n == null) throw new IllegalArgumentException("--points " + points + " needs --n");
            if (n < 1) throw new IllegalArgumentException("--n " + n + " must be at least 1");
            return PointCloud.perturbedGrid(n, s.equals("2d") ? 2 : 3, seed);
        }
        PointCloud p = PointsCsv.read(Path.of(points));
        if (n == null || n >= p.size()) return p;
        if (n < 1) throw new IllegalArgumentException("--n " + n + " must be at least 1");
        return PointCloud.of(p.dim(), Arrays.copyOf(p.coordinates(), n * p.dim()));
    }

    /** Flops of one product with one vector: two per stored value of each part read (bases and transfers twice when shared). */
    private static double flops(H2Matrix a, H2Memory m) {
        return 2.0 * (m.dense() + m.coupling() + 2 * m.bases() + 2 * m.transfers()) / 8.0;
    }

    /** Relative 2-norm error of {@code y} on a sample of rows against the exact kernel sums. */
    private double sampledError(PointCloud pts, CovarianceKernel k, double[] x, double[] y, int nv) {
        int rows = pts.size();
        int s = Math.min(sample, rows);
        int[] pick = new SplittableRandom(seed + 2).ints(0, rows).distinct().limit(s).toArray();
        double num = 0, den = 0;
        for (int i : pick) {
            double[] exact = new double[nv];
            for (int j = 0; j < rows; j++) {
                double v = k.evaluate(pts, i, pts, j);
                for (int c = 0; c < nv; c++) exact[c] += v * x[j * nv + c];
            }
            for (int c = 0; c < nv; c++) {
                double d = y[i * nv + c] - exact[c];
                num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
                den += exact[c] * exact[c];
            }
        }
        return Math.sqrt(num / den);
    }

    /** Best of ten copies of a large array with the project's copy kernel ({@link CopyBandwidth}), in GB/s (bytes read + written). */
    static double copyBandwidth(Device dev) {
        return CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, 10);
    }

    private static void progress(String s) {
        System.err.println("h2: " + s);
    }

}
