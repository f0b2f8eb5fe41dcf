package dev.squall.sparse.cli;

import dev.squall.sparse.bench.CopyBandwidth;
import dev.squall.sparse.bench.SpmvCounts;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.spmm.CsbExecutor;
import dev.squall.sparse.spmm.Layout;
import dev.squall.sparse.spmm.SpmmExecutor;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code squall spmm}: Y = A X with K dense vectors, times and counted bandwidth. */
@Command(name = "spmm", header = "Sparse matrix times K dense vectors (row- or column-major), with GB/s.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sparse matrix times a block of K dense vectors, Y = A X (CSR; X and Y row- or column-major).",
                "Reports inspector time, executor time per call (median of --repeat samples of --batch back-to-back",
                "calls), GFLOP/s (2 nnz K per call), GB/s of counted bytes (values, indices and row pointers once,",
                "X and Y once each), the ratio to this device's copy bandwidth.", "",
                "Matrices as for `squall spmv` (--matrix F.mtx or --generate NAME:SIZE).", "",
                "Examples:",
                "  squall spmm --generate 27pt:100x100x100 --vectors 8 --verify",
                "  squall spmm --matrix shared/data/ani4.mtx --vectors 16 --layout col --precision fp32 --json",
                "  squall spmm --generate rmat:16 --vectors 4 --layout row,col --transpose --verify     (Y = A^T X)",
                "  squall spmm --generate 27pt:60x60x60 --format csb --transpose --device jvm --verify  (CSB, no transpose built)",
                "", "Exit codes: 0 ok, 1 --verify failed, 2 bad input (file, line and value named), 3 device error."})
public final class SpmmCommand implements Callable<Integer> {
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

    @Option(names = "--precision", paramLabel = "P", defaultValue = "fp64", description = "fp32 or fp64 (default fp64)")
    String precision;

    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0, jvm (default: best present)")
    String device;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "20", description = "timed samples (default 20)")
    int repeat;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "10", description = "back-to-back calls per timed sample (default 10)")
    int batch;

    @Option(names = "--format", paramLabel = "F", defaultValue = "csr",
            description = {"csr (default: rows binned by length on GPUs, a work-item per output on CPUs) or csb",
                    "(compressed sparse blocks: A X and A^T X from one copy, no transpose built; for CPUs)"})
    String format;

    @Option(names = "--transpose", description = "compute Y = A^T X instead (csr: the inspector transposes A once; csb: the same blocks by column)")
    boolean transpose;

    @Option(names = "--verify", description = "compare Y with a JVM product; exit 1 if the relative error is too large")
    boolean verify;

    @Option(names = "--json", description = "print one JSON object per layout on stdout instead of text")
    boolean json;

    @Override
    public Integer call() throws IOException {
        if (repeat < 1) throw new IllegalArgumentException("--repeat " + repeat + " must be at least 1");
        if (batch < 1) throw new IllegalArgumentException("--batch " + batch + " must be at least 1");
        if (vectors < 1) throw new IllegalArgumentException("--vectors " + vectors + " must be at least 1");
        Precision p = Precision.parse(precision);
        if (!format.equals("csr") && !format.equals("csb")) throw new IllegalArgumentException("--format " + format + ": expected csr or csb");
        Layout[] layouts = Arrays.stream(layout.split(",")).map(Layout::parse).toArray(Layout[]::new);
        Device dev = Devices.select(device);
        String name;
        CsrMatrix a;
        if (source.matrix != null) {
            name = source.matrix.toString();
            if (!Files.isRegularFile(source.matrix)) throw new IllegalArgumentException("--matrix " + name + ": no such file");
            System.err.println("spmm: reading " + name);
            a = MatrixMarketReader.read(source.matrix);
        } else {
            name = source.generate;
            System.err.println("spmm: generating " + name);
            a = MatrixGenerators.generate(source.generate);
        }
        System.err.println("spmm: measuring copy bandwidth");
        double copyGbs = CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, dev.info().isGpu() ? 20 : 5);
        int worst = 0;
        // the operator whose product is verified and counted; the executor transposes A itself
        CsrMatrix op = transpose ? CsrTranspose.of(a) : a;
        for (Layout l : layouts) worst = Math.max(worst, runOne(a, op, name, l, p, dev, copyGbs));
        return worst;
    }

    private int runOne(CsrMatrix given, CsrMatrix a, String name, Layout l, Precision p, Device dev, double copyGbs) {
        double[] x = new SplittableRandom(11).doubles((long) a.cols() * vectors, -1, 1).toArray();
        try (Product m = open(given, l, p, dev)) {
            double firstMs = m.first(x);
            System.err.println("spmm: " + l + ", running " + repeat + " x " + batch + " executions");
            // warm-up batches: bind the batch's launches, bring clocks, caches and the JIT to their steady state
            for (int w = 0; w < Math.max(3, repeat / 5); w++) m.batchMillis(batch);
            double[] ms = new double[repeat];
            for (int r = 0; r < repeat; r++) ms[r] = m.batchMillis(batch);
            Arrays.sort(ms);
            double med = ms[repeat / 2];
            long bytes = bytes(a, p.bytes(), vectors);
            double gflops = 2.0 * a.nnz() * vectors / (med * 1e-3) / 1e9;
            double gbs = bytes / (med * 1e-3) / 1e9;
            double relErr = Double.NaN;
            boolean ok = true;
            if (verify) {
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
            if (json) {
                System.out.println(String.format(Locale.ROOT, "{\"matrix\":\"%s\",\"rows\":%d,\"cols\":%d,\"nnz\":%d,\"vectors\":%d,\"layout\":\"%s\",\"transpose\":%s,"
                                + "\"device\":\"%s\",\"precision\":\"%s\",\"inspector_ms\":%.3f,\"first_call_ms\":%.3f,\"executor_ms_median\":%.6f,"
                                + "\"executor_ms_min\":%.6f,\"repeat\":%d,\"batch\":%d,\"gflops\":%.3f,\"counted_bytes\":%d,\"gbs\":%.3f,\"copy_gbs\":%.3f,"
                                + "\"ratio_to_copy\":%.4f,\"rel_error\":%s,\"verified\":%s,\"detail\":\"%s\"}",
                        name.replace("\\", "\\\\").replace("\"", "\\\""), a.rows(), a.cols(), a.nnz(), vectors, layoutName, transpose, dev.id(),
                        p.name().toLowerCase(Locale.ROOT), m.inspectorMillis(), firstMs, med, ms[0], repeat, batch, gflops, bytes, gbs, copyGbs,
                        gbs / copyGbs, verify ? String.format(Locale.ROOT, "%.3e", relErr) : "null", verify ? Boolean.toString(ok) : "null",
                        m.detail().replace("\\", "\\\\").replace("\"", "\\\"")));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %s: %d x %d, %d entries; K = %d, %s-major%n", name, a.rows(), a.cols(), a.nnz(), vectors, layoutName);
                System.out.printf(Locale.ROOT, "device     %s, %s (%s)%n", dev.id(), p.name().toLowerCase(Locale.ROOT), m.detail());
                System.out.printf(Locale.ROOT, "inspector  %.3f ms (first call incl. build+upload %.1f ms)%n", m.inspectorMillis(), firstMs);
                System.out.printf(Locale.ROOT, "executor   %.4f ms per call (median of %d samples of %d back-to-back calls, best %.4f)%n",
                        med, repeat, batch, ms[0]);
                System.out.printf(Locale.ROOT, "rate       %.2f GFLOP/s, %.1f GB/s counted (%d bytes), %.0f%% of copy bandwidth %.1f GB/s%n",
                        gflops, gbs, bytes, 100 * gbs / copyGbs, copyGbs);
                if (verify) System.out.printf(Locale.ROOT, "verify     relative error %.3e: %s%n", relErr, ok ? "ok" : "FAILED");
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
