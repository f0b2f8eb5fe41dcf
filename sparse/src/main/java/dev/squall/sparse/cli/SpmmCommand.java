package dev.squall.sparse.cli;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.limits.CopyBandwidth;
import dev.squall.sparse.spmm.CsbExecutor;
import dev.squall.sparse.spmm.Layout;
import dev.squall.sparse.spmm.SpmmExecutor;
import dev.squall.sparse.spmv.SpmvCounts;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import picocli.CommandLine.ArgGroup;
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

/** {@code squall spmm}: Y = A X with K dense vectors, times and counted bandwidth. */
@Command(name = "spmm", header = "Sparse matrix times K dense vectors (row- or column-major), with GB/s.",
        sortOptions = false,
        description = {"Sparse matrix times a block of K dense vectors, Y = A X (CSR; X and Y row- or column-major). Reports inspector"
                + " time, executor time per call (median of --repeat samples of --batch back-to-back calls), GFLOP/s (2 nnz K per call),"
                + " GB/s of counted bytes (values, indices and row pointers once, X and Y once each), the ratio to this device's copy"
                + " bandwidth.",
                "",
                "Matrices as for `squall spmv` (--matrix F.mtx or --generate NAME:SIZE).",
                "",
                "Examples (files from the repository root):",
                "  squall spmm --generate 27pt:30x30x30 --vectors 8 --verify",
                "  squall spmm --matrix bench/data/1138_bus.mtx --vectors 16 --layout col --precision fp32 --json",
                "  squall spmm --generate rmat:12 --vectors 4 --layout row,col --transpose --verify   # Y = A^T X",
                "  squall spmm --generate 27pt:20x20x20 --format csb --transpose --device jvm --verify   # CSB: no transpose built",
                "  squall spmm --generate 27pt:100x100x100 --vectors 16 --device cuda:0 --verify   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 20)
public final class SpmmCommand implements SquallSubcommand {
    static final class Source {
        @Option(names = "--matrix", paramLabel = "F.mtx", description = "Matrix Market file") Path matrix;
        @Option(names = "--generate", paramLabel = "NAME:SIZE", description = "generated matrix, e.g. rmat:16 (see squall spmv --help)") String generate;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--vectors", paramLabel = "K", defaultValue = "8", description = "number of dense vectors K (default 8)")
    int vectors;

    @Option(names = "--layout", paramLabel = "L", defaultValue = "row",
            description = "row (X[j * K + c], default) or col (X[c * n + j]); a comma-separated list runs each")
    String layout;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "10", description = "back-to-back calls per timed sample (default 10)")
    int batch;

    @Option(names = "--format", paramLabel = "F", defaultValue = "csr",
            description = {"csr (default: rows binned by length on GPUs, a work-item per output on CPUs) or csb",
                    "(compressed sparse blocks: A X and A^T X from one copy, no transpose built; for CPUs)"})
    String format;

    @Option(names = "--transpose", description = "compute Y = A^T X instead (csr: the inspector transposes A once; csb: the same blocks by column)")
    boolean transpose;

    @Mixin
    RunOptions run;

    /**
     * {@code --json} result, one per layout (schema in tornado-tasks/cli/JSON.md): the matrix and its shape, K, layout, whether A^T X
     * was computed, device, precision, inspector and first-call times (ms), the executor's median and best time per call
     * (ms) over {@code repeat} samples of {@code batch} calls, GFLOP/s, counted bytes, GB/s, the copy bandwidth and the
     * ratio to it, whether --verify ran, its relative error, {@code ok}, and the executor's detail.
     */
    public record Result(String command, String matrix, int rows, int cols, long nnz, int vectors, String layout, boolean transpose, String device,
                         String precision, String format, double inspectorMs, double firstCallMs, double executorMsMedian, double executorMsMin, int repeat,
                         int batch, double gflops, long countedBytes, double gbs, double copyGbs, double ratioToCopy, boolean verified, Double relError,
                         boolean ok, String detail) {
    }

    @Override
    public Integer call() throws IOException {
        Sizes.inRange("--batch", batch, 1, Integer.MAX_VALUE);
        Sizes.inRange("--vectors", vectors, 1, Integer.MAX_VALUE);
        Precision p = run.precision();
        if (!format.equals("csr") && !format.equals("csb")) throw new IllegalArgumentException("--format " + format + ": expected csr or csb");
        Layout[] layouts = Arrays.stream(layout.split(",")).map(Layout::parse).toArray(Layout[]::new);
        Device dev = run.device();
        String name;
        CsrMatrix a;
        if (source.matrix != null) {
            name = source.matrix.toString();
            System.err.println("spmm: reading " + name);
            a = MatrixFile.read(source.matrix, run.progress());
        } else {
            name = source.generate;
            System.err.println("spmm: generating " + name);
            a = MatrixGenerators.generate(source.generate);
        }
        Sizes.intElements("--vectors x the matrix's columns and rows", vectors, Math.max(a.rows(), a.cols()));
        System.err.println("spmm: measuring copy bandwidth");
        double copyGbs = CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, dev.info().isGpu() ? 20 : 5);
        int worst = 0;
        // the operator whose product is verified and counted; the executor transposes A itself
        CsrMatrix op = transpose ? CsrTranspose.of(a) : a;
        for (Layout l : layouts) worst = Math.max(worst, runOne(a, op, name, l, p, dev, copyGbs));
        return worst;
    }

    private int runOne(CsrMatrix given, CsrMatrix a, String name, Layout l, Precision p, Device dev, double copyGbs) {
        int repeat = run.repeat();
        double[] x = new SplittableRandom(11).doubles((long) a.cols() * vectors, -1, 1).toArray();
        try (Product m = open(given, l, p, dev)) {
            double firstMs = m.first(x);
            System.err.println("spmm: " + l + ", running " + repeat + " x " + batch + " executions");
            double[] ms = new double[repeat];
            int warm = Math.max(3, repeat / 5);
            try (Progress bar = Progress.open(run.progress(), "spmm " + l, (long) warm + repeat, "samples")) {
                // warm-up batches: bind the batch's launches, bring clocks, caches and the JIT to their steady state
                for (int w = 0; w < warm; w++, bar.step()) m.batchMillis(batch);
                for (int r = 0; r < repeat; r++, bar.step()) ms[r] = m.batchMillis(batch);
            }
            Arrays.sort(ms);
            double med = ms[repeat / 2];
            long bytes = bytes(a, p.bytes(), vectors);
            double gflops = 2.0 * a.nnz() * vectors / (med * 1e-3) / 1e9;
            double gbs = bytes / (med * 1e-3) / 1e9;
            double relErr = Double.NaN;
            boolean ok = true;
            if (run.verify()) {
                double[] got = m.y();
                double num = 0, den = 0;
                for (int c = 0; c < vectors; c++) {
                    for (int i = 0; i < a.rows(); i++) {
                        double s = 0;
                        for (int q = a.rowStart(i); q < a.rowStart(i + 1); q++) s += a.value(q) * x[l.index(a.colIndex(q), c, a.cols(), vectors)];
                        double d = got[l.index(i, c, a.rows(), vectors)] - s;
                        num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
                        den += s * s;
                    }
                }
                relErr = den == 0 ? Math.sqrt(num) : Math.sqrt(num / den);
                ok = relErr <= (p == Precision.FP64 ? 1e-12 : 1e-5);
            }
            String layoutName = l == Layout.ROW_MAJOR ? "row" : "col";
            if (run.json()) {
                JsonOutput.print(new Result("spmm", name, a.rows(), a.cols(), a.nnz(), vectors, layoutName, transpose, dev.id(), p.name().toLowerCase(Locale.ROOT),
                        format, m.inspectorMillis(), firstMs, med, ms[0], repeat, batch, gflops, bytes, gbs, copyGbs, gbs / copyGbs, run.verify(),
                        run.verify() ? relErr : null, ok, m.detail()));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %s: %d x %d, %d entries; K = %d, %s-major%n", name, a.rows(), a.cols(), a.nnz(), vectors, layoutName);
                System.out.printf(Locale.ROOT, "device     %s, %s (%s)%n", dev.id(), p.name().toLowerCase(Locale.ROOT), m.detail());
                System.out.printf(Locale.ROOT, "inspector  %.3f ms (first call incl. build+upload %.1f ms)%n", m.inspectorMillis(), firstMs);
                System.out.printf(Locale.ROOT, "executor   %.4f ms per call (median of %d samples of %d back-to-back calls, best %.4f)%n",
                        med, repeat, batch, ms[0]);
                System.out.printf(Locale.ROOT, "rate       %.2f GFLOP/s, %.1f GB/s counted (%d bytes), %.0f%% of copy bandwidth %.1f GB/s%n",
                        gflops, gbs, bytes, 100 * gbs / copyGbs, copyGbs);
                if (run.verify()) System.out.printf(Locale.ROOT, "verify     relative error %.3e: %s%n", relErr, ok ? "ok" : "FAILED");
            }
            return ok ? 0 : 1;
        }
    }

    /** What runOne times: the CSR executors (binned or per output) or CSB's, behind one face. */
    private interface Product extends AutoCloseable {
        /** Sets X, runs once, returns the first call's milliseconds (kernel build and uploads included). */
        double first(double[] x);

        double batchMillis(int calls);

        double[] y();

        double inspectorMillis();

        String detail();

        @Override
        void close();
    }

    private Product open(CsrMatrix given, Layout l, Precision p, Device dev) {
        if (format.equals("csb")) {
            CsbExecutor c = CsbExecutor.create(given, vectors, l, p, dev);
            return new Product() {
                public double first(double[] x) {
                    long t0 = System.nanoTime();
                    c.multiply(transpose, 1, x, 0, null);
                    return (System.nanoTime() - t0) / 1e6;
                }

                public double batchMillis(int calls) {
                    return c.batchMillis(transpose, calls);
                }

                public double[] y() {
                    return c.y(transpose);
                }

                public double inspectorMillis() {
                    return c.inspectorMillis();
                }

                public String detail() {
                    return c.detail();
                }

                public void close() {
                    c.close();
                }
            };
        }
        SpmmExecutor m = transpose ? SpmmExecutor.createTransposed(given, vectors, l, p, dev) : SpmmExecutor.create(given, vectors, l, p, dev);
        return new Product() {
            public double first(double[] x) {
                m.setX(x);
                return m.execute().hostMicros() / 1e3;
            }

            public double batchMillis(int calls) {
                return m.batchMillis(calls);
            }

            public double[] y() {
                return m.y();
            }

            public double inspectorMillis() {
                return m.inspectorMillis();
            }

            public String detail() {
                return m.detail();
            }

            public void close() {
                m.close();
            }
        };
    }

    /** Counted bytes of one SpMM: the matrix once (as SpMV) plus X and Y once each. */
    static long bytes(CsrMatrix a, int valueBytes, int k) {
        return SpmvCounts.bytes(a, valueBytes) - (long) valueBytes * (a.cols() + a.rows()) + (long) valueBytes * k * (a.cols() + a.rows());
    }
}
