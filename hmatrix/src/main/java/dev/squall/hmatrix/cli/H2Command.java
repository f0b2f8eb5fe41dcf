package dev.squall.hmatrix.cli;

import dev.squall.hmatrix.h2.H2CompressionReport;
import dev.squall.hmatrix.h2.H2Kernels;
import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Memory;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.hmatrix.points.PointsCsv;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code squall h2}: build an H2 kernel matrix, time its matrix-vector product by phase, report memory and GB/s. */
@Command(name = "h2", header = "H2 kernel matrix: build, matrix-vector product by phase, memory and GB/s.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Builds the H2 approximation of a covariance kernel matrix over a point set (KD-tree leaves of",
                "--leaf points, tensor Chebyshev bases of --order per dimension, blocks admissible when",
                "max(diam) <= eta dist) on the device, then times y = A x (--vectors columns) phase by phase.",
                "Reports build time, memory by part, per-phase device time, GB/s counted as the H2 literature counts",
                "(bytes of dense blocks + couplings + leaf bases + transfers / time) and its ratio to this device's",
                "copy bandwidth (a STREAM-style copy kernel). --verify compares with the exact kernel sum on a sample",
                "of rows.", "",
                "Points: 2d or 3d (a randomly perturbed regular grid in the unit square/cube, --n points), or a CSV",
                "file of 2 or 3 numbers a line (--n, if given, keeps the first N).",
                "Kernels: exp, gauss, matern12, matern32, matern52, imq, each NAME:LENGTHSCALE.", "",
                "Examples:",
                "  squall h2 --points 2d --n 16384 --verify",
                "  squall h2 --points 3d --n 65536 --order 4 --kernel exp:0.2 --device cuda:0 --json",
                "  squall h2 --points sites.csv --kernel matern32:0.05 --vectors 16",
                "  squall h2 --points 2d --n 65536 --compress 1e-7 --verify",
                "", "Exit codes: 0 ok, 1 --verify failed, 2 bad input, 3 device error."})
public final class H2Command implements Callable<Integer> {
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

    @Option(names = "--kernel", paramLabel = "NAME:L", defaultValue = "exp:0.1", description = "covariance kernel (default exp:0.1)")
    String kernel;

    @Option(names = "--vectors", paramLabel = "NV", defaultValue = "1", description = "vectors per product (default 1)")
    int vectors;

    @Option(names = "--compress", paramLabel = "EPS",
            description = "recompress the low-rank part to relative tolerance EPS before timing (ranks, error estimate, memory before/after)")
    Double compress;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the points and vectors (default 1)")
    long seed;

    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0, jvm (default: best present)")
    String device;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "10", description = "timed products (default 10; medians are reported)")
    int repeat;

    @Option(names = "--verify", description = "compare with the exact kernel sum on a sample of rows; exit 1 above --tolerance")
    boolean verify;

    @Option(names = "--sample", paramLabel = "S", defaultValue = "200", description = "rows checked by --verify (default 200)")
    int sample;

    @Option(names = "--tolerance", paramLabel = "T", defaultValue = "1e-6", description = "largest relative error --verify accepts (default 1e-6)")
    double tolerance;

    @Option(names = "--json", description = "print one JSON object on stdout instead of text")
    boolean json;

    @Override
    public Integer call() {
        if (vectors < 1) throw new IllegalArgumentException("--vectors " + vectors + " must be at least 1");
        if (repeat < 1) throw new IllegalArgumentException("--repeat " + repeat + " must be at least 1");
        if (sample < 1) throw new IllegalArgumentException("--sample " + sample + " must be at least 1");
        CovarianceKernel k = CovarianceKernel.parse(kernel);
        PointCloud pts = points();
        Device dev = Devices.select(device);
        H2Options opts = new H2Options(leaf, order, eta, dev);
        progress("building on " + dev.id() + ": " + pts + ", " + k + ", leaf " + leaf + ", order " + order + ", eta " + eta);
        try (H2Matrix a = H2Matrix.build(pts, k, opts)) {
            H2CompressionReport cr = null;
            if (compress != null) {
                progress("compressing to " + compress);
                cr = a.compress(compress);
            }
            int size = a.cols();
            double[] x = new SplittableRandom(seed + 1).doubles((long) size * vectors, -1, 1).toArray();
            long f0 = System.nanoTime();
            double[] y = a.multiply(x, vectors);
            double firstMs = (System.nanoTime() - f0) / 1e6;
            double[] wall = new double[repeat];
            for (int r = 0; r < repeat; r++) {
                long t0 = System.nanoTime();
                y = a.multiply(x, vectors);
                wall[r] = (System.nanoTime() - t0) / 1e6;
            }
            Arrays.sort(wall);
            progress("timing phases");
            Map<String, Double> phases = a.phaseMillis(vectors, repeat);
            double deviceMs = phases.values().stream().mapToDouble(Double::doubleValue).sum();
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
            if (json) {
                StringBuilder ph = new StringBuilder("{");
                for (var e : phases.entrySet()) {
                    if (ph.length() > 1) ph.append(',');
                    ph.append(q(e.getKey())).append(':').append(num(e.getValue()));
                }
                ph.append('}');
                System.out.println(String.format(Locale.ROOT, "{\"points\":%s,\"n\":%d,\"dim\":%d,\"kernel\":%s,\"leaf\":%d,\"order\":%d,"
                                + "\"rank\":%d,\"eta\":%s,\"vectors\":%d,\"device\":%s,\"depth\":%d,\"coupling_blocks\":%d,\"dense_blocks\":%d,"
                                + "\"build_ms\":%s,\"build_host_ms\":%s,\"build_device_ms\":%s,"
                                + "\"memory_bytes\":{\"dense\":%d,\"coupling\":%d,\"bases\":%d,\"transfers\":%d,\"structure\":%d,\"workspace_per_vector\":%d,\"total\":%d},"
                                + "\"first_product_ms\":%s,\"product_wall_ms_median\":%s,\"phase_ms\":%s,\"product_device_ms\":%s,"
                                + "\"counted_bytes\":%d,\"gbs\":%s,\"copy_gbs\":%s,\"ratio_to_copy\":%s,\"gflops\":%s,\"compression\":%s,\"rel_error\":%s,\"verified\":%s}",
                        q(points), size, pts.dim(), q(k.toString()), leaf, order, a.rank(), num(eta), vectors, q(dev.id()), a.rowDepth(),
                        a.couplingBlocks(), a.denseBlocks(), num(a.buildMillis()), num(a.hostBuildMillis()), num(a.deviceBuildMillis()),
                        mem.dense(), mem.coupling(), mem.bases(), mem.transfers(), mem.structure(), mem.workspacePerVector(), mem.total(),
                        num(firstMs), num(wall[repeat / 2]), ph, num(deviceMs), mem.streamedBytes(), num(gbs), num(copyGbs), num(gbs / copyGbs),
                        num(gflops), compressionJson(cr), verify ? String.format(Locale.ROOT, "%.3e", err) : "null", verify ? Boolean.toString(ok) : "null"));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %d x %d %dD points (%s), kernel %s, leaf %d, order %d (rank %d), eta %s%n",
                        size, size, pts.dim(), points, k, leaf, order, a.rank(), eta);
                System.out.printf(Locale.ROOT, "structure  depth %d, %d coupling blocks, %d dense blocks%n", a.rowDepth(), a.couplingBlocks(), a.denseBlocks());
                System.out.printf(Locale.ROOT, "device     %s (%s)%n", dev.id(), dev.info().name());
                System.out.printf(Locale.ROOT, "build      %.1f ms (host: trees and traversal %.1f ms; device: bases, transfers, couplings, dense %.1f ms)%n",
                        a.buildMillis(), a.hostBuildMillis(), a.deviceBuildMillis());
                if (cr != null) {
                    System.out.printf(Locale.ROOT, "compress   to %.1e in %.1f ms: estimated relative error %.3e, row ranks %s, memory %.2f -> %.2f MB%n",
                            cr.tolerance(), cr.millis(), cr.relativeErrorEstimate(), Arrays.toString(cr.rowRanks()),
                            cr.memoryBefore().total() / 1e6, cr.memoryAfter().total() / 1e6);
                }
                System.out.printf(Locale.ROOT, "memory     %s%n", mem);
                System.out.printf(Locale.ROOT, "product    %d vector(s): %.4f ms device (sum of phases, medians of %d), %.4f ms per call on the host"
                        + " (first call incl. build+upload %.1f ms)%n", vectors, deviceMs, repeat, wall[repeat / 2], firstMs);
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

    private static String compressionJson(H2CompressionReport r) {
        if (r == null) return "null";
        return String.format(Locale.ROOT, "{\"tolerance\":%s,\"error_estimate\":%s,\"ms\":%s,\"memory_before\":%d,\"memory_after\":%d,"
                        + "\"row_ranks\":%s,\"col_ranks\":%s}", num(r.tolerance()), num(r.relativeErrorEstimate()), num(r.millis()),
                r.memoryBefore().total(), r.memoryAfter().total(), Arrays.toString(r.rowRanks()).replace(" ", ""),
                Arrays.toString(r.colRanks()).replace(" ", ""));
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

    /** Best of several copies of a large array with the copy kernel, in GB/s (bytes read + written). */
    static double copyBandwidth(Device dev) {
        int len = dev.info().isGpu() ? 1 << 25 : 1 << 22;
        DoubleArray a = new DoubleArray(len), b = new DoubleArray(len);
        a.init(1.0);
        TaskGraph g = new TaskGraph("h2-copy-bandwidth").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
                .task("copy", H2Kernels::copy, a, b, (long) len);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(dev).withProfiler(true);
            plan.execute();
            double best = Double.POSITIVE_INFINITY;
            for (int r = 0; r < 10; r++) best = Math.min(best, plan.execute().profile().kernelMillis());
            plan.freeDeviceMemory();
            return 16.0 * len / (best * 1e-3) / 1e9;
        }
    }

    private static void progress(String s) {
        System.err.println("h2: " + s);
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
    }

    private static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
