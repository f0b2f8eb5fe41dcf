package dev.squall.sparse.cli;

import dev.squall.sparse.bench.CopyBandwidth;
import dev.squall.sparse.bench.GatherLimit;
import dev.squall.sparse.bench.SpmvCounts;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.io.CsrDump;
import dev.squall.sparse.io.MatrixMarketReader;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.spmv.BinnedTuning;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code squall spmv}: inspect a matrix into a format, run SpMV many times, report times and bandwidth. */
@Command(name = "spmv", header = "Sparse matrix-vector product in a chosen or automatic format, with GB/s.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sparse matrix-vector product y = A x: the inspector converts the matrix to a format once, the",
                "executor runs it --repeat times. Reports inspector time, executor time per call, GFLOP/s, GB/s of",
                "counted bytes (values, indices, row pointers, x and y once each), the ratio to this device's copy",
                "bandwidth (a STREAM-style copy kernel), the format and why it was chosen.", "",
                "Generated matrices (--generate NAME:SIZE): " + "3pt:1000000 5pt:1000x1000 7pt:100x100x100 9pt:1000x1000",
                "  27pt:100x100x100 (also written 27pt_100x100x100), hpcg:NXxNYxNZ, rmat:SCALE[xEDGEFACTOR],",
                "  banded:N[xHALFWIDTH], blocks:NBLOCKSxB[xPERROW], skewed:N[xLONG] (0.1%% rows with LONG entries).", "",
                "Examples:",
                "  squall spmv --generate 27pt:100x100x100 --format auto --verify",
                "  squall spmv --matrix shared/data/ani4.mtx --format sell --precision fp32 --device opencl:0:0",
                "  squall spmv --generate skewed:1000000 --format auto --trials --json",
                "  squall spmv --generate rmat:16 --format csr-binned --transpose --verify      (y = A^T x)",
                "", "Exit codes: 0 ok, 1 --verify failed, 2 bad input (file, line and value named), 3 device error."})
public final class SpmvCommand implements Callable<Integer> {
    static final class Source {
        @Option(names = "--matrix", paramLabel = "F.mtx", description = "Matrix Market file") Path matrix;
        @Option(names = "--generate", paramLabel = "NAME:SIZE", description = "generated matrix, e.g. 27pt:100x100x100") String generate;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--format", paramLabel = "F", defaultValue = "auto",
            description = {"csr, csr-vector, csr-merge, csr-binned, csr-binned-two-launch, csr-stream, csr-stream-64, coo, ell,",
                    "sell, dia, hyb, bcsr or auto (default auto); csr-binned and csr-binned-two-launch take knobs after",
                    "slashes: eN entries a lane (2), uN in flight (2 or 4), gN group (256), sN segment (8 per work-item),",
                    "wN longest sub-group row (512), len (bins by row length), e.g. csr-binned/e4/u4/len;",
                    "a comma-separated list runs each on the same matrix (one report each; a format that cannot",
                    "hold the matrix reports why and the others still run)"})
    String format;

    @Option(names = "--trials", description = "with --format auto: time the candidate formats and take the fastest")
    boolean trials;

    @Option(names = "--transpose", description = "compute y = A^T x instead (the inspector transposes A once, then the format runs on A^T)")
    boolean transpose;

    @Option(names = "--precision", paramLabel = "P", defaultValue = "fp64", description = "fp32 or fp64 (default fp64)")
    String precision;

    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0, jvm (default: best present)")
    String device;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "20", description = "timed executions (default 20)")
    int repeat;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "10",
            description = {"calls per timed sample (default 10): B products are enqueued back to back between two device",
                    "events, so the host's launch work does not count as device time; 1 times single calls"})
    int batch;

    @Option(names = "--verify", description = "compare y with the JVM reference; exit 1 if the relative error is too large")
    boolean verify;

    @Option(names = "--json", description = "print one JSON object per format on stdout instead of text")
    boolean json;

    @Option(names = "--dump", paramLabel = "DIR", description = "also write the matrix as raw arrays to DIR (for peers: NAME.ptr.i32, .col.i32, .val.f64, .shape.txt)")
    Path dump;

    @Option(names = "--dump-name", paramLabel = "NAME", defaultValue = "matrix", description = "file name stem for --dump (default matrix)")
    String dumpName;

    @Option(names = "--gather-limit", negatable = true, paramLabel = "",
            description = {"also time the gather-limit kernel (col and val streamed coalesced in schedule order, x[col]",
                    "gathered, one sum per work-item) and report its GB/s of the same counted bytes and each format's",
                    "ratio to it (default: on for GPUs, off elsewhere)"})
    Boolean gatherLimit;

    private double copyGbs;
    private double limitGbs = Double.NaN;

    @Override
    public Integer call() throws IOException {
        if (trials && !format.toLowerCase().contains("auto")) throw new IllegalArgumentException("--trials needs --format auto");
        if (repeat < 1) throw new IllegalArgumentException("--repeat " + repeat + " must be at least 1");
        if (batch < 1) throw new IllegalArgumentException("--batch " + batch + " must be at least 1");
        Precision p = Precision.parse(precision);
        Device dev = Devices.select(device);
        String name;
        CsrMatrix a;
        long t0 = System.nanoTime();
        if (source.matrix != null) {
            name = source.matrix.toString();
            if (!Files.isRegularFile(source.matrix)) throw new IllegalArgumentException("--matrix " + name + ": no such file");
            progress("reading " + name);
            try {
                a = MatrixMarketReader.read(source.matrix);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("--matrix " + name + ": no such file");
            }
        } else {
            name = source.generate;
            progress("generating " + name);
            a = MatrixGenerators.generate(source.generate);
        }
        double loadMs = (System.nanoTime() - t0) / 1e6;
        if (dump != null) {
            progress("writing raw arrays to " + dump);
            CsrDump.write(a, dump, dumpName);
        }
        // before any format, so that every format (auto first or not) runs on a device at full clocks
        progress("measuring copy bandwidth");
        copyGbs = CopyBandwidth.measure(dev, dev.info().isGpu() ? 1 << 25 : 1 << 22, dev.info().isGpu() ? 20 : 5);
        if (gatherLimit != null ? gatherLimit : dev.info().isGpu()) {
            CsrMatrix op = transpose ? CsrTranspose.of(a) : a;
            if (op.nnz() > 0) {
                progress("timing the gather limit");
                try (GatherLimit g = new GatherLimit(op, p, dev)) {
                    limitGbs = g.gbs(repeat, batch);
                }
            }
        }
        String[] formats = format.split(",");
        int worst = 0;
        for (String one : formats) {
            try {
                worst = Math.max(worst, runOne(one.strip(), a, name, loadMs, p, dev));
            } catch (IllegalArgumentException unfit) {
                if (formats.length == 1) throw unfit;
                if (json) System.out.println("{\"matrix\":" + q(name) + ",\"format\":" + q(one.strip()) + ",\"error\":" + q(unfit.getMessage()) + "}");
                else System.out.println("format     " + one.strip() + ": " + unfit.getMessage());
            }
        }
        return worst;
    }

    private int runOne(String format, CsrMatrix a, String name, double loadMs, Precision p, Device dev) {
        SpmvFormat f;
        String reason;
        BinnedTuning tuning = BinnedTuning.DEFAULT;
        double chooseMs = 0;
        if (format.strip().equalsIgnoreCase("auto")) {
            long c0 = System.nanoTime();
            CsrMatrix op = transpose ? CsrTranspose.of(a) : a;
            FormatChooser.Choice c = trials ? FormatChooser.tuned(op, p, dev, 5) : FormatChooser.choose(op, dev);
            chooseMs = (System.nanoTime() - c0) / 1e6;
            f = c.format();
            reason = "auto: " + c.reason();
        } else {
            int slash = format.indexOf('/');
            f = SpmvFormat.parse(slash < 0 ? format : format.substring(0, slash));
            if (slash >= 0) tuning = BinnedTuning.parse(format.substring(slash + 1));
            reason = "requested";
        }
        String fname = f.cliName() + tuning.suffix();
        progress("inspecting into " + fname + " on " + dev.id());
        CsrMatrix op = transpose ? CsrTranspose.of(a) : a;  // the operator whose product is verified and counted
        double[] x = new SplittableRandom(7).doubles(op.cols(), -1, 1).toArray();
        try (SpmvExecutor e = transpose ? SpmvExecutor.createTransposed(a, f, p, dev, tuning) : SpmvExecutor.create(a, f, p, dev, tuning)) {
            e.setX(x);
            double firstMs = e.execute().hostMicros() / 1e3; // builds kernels, copies the matrix
            progress("running " + repeat + " x " + batch + " executions");
            double[] single = new double[repeat];
            for (int r = 0; r < repeat; r++) single[r] = e.execute().kernelMillis();
            Arrays.sort(single);
            // warm-up batches: bind the batch's launches, bring clocks, caches and the JIT to their steady state
            for (int w = 0; w < Math.max(3, repeat / 5); w++) e.batchMillis(batch);
            double[] ms = new double[repeat];
            for (int r = 0; r < repeat; r++) ms[r] = e.batchMillis(batch);
            Arrays.sort(ms);
            double med = ms[repeat / 2];
            double best = ms[0];
            long bytes = SpmvCounts.bytes(op, p.bytes());
            double gflops = SpmvCounts.flops(op) / (med * 1e-3) / 1e9;
            double gbs = bytes / (med * 1e-3) / 1e9;
            double relErr = Double.NaN;
            boolean ok = true;
            if (verify) {
                double[] want = transpose ? transposedProduct(a, x) : ReferenceSpmv.multiply(a, x);
                double[] got = e.y();
                double num = 0, den = 0;
                for (int i = 0; i < want.length; i++) {
                    double d = got[i] - want[i];
                    num += Double.isNaN(d) ? Double.POSITIVE_INFINITY : d * d;
                    den += want[i] * want[i];
                }
                relErr = den == 0 ? Math.sqrt(num) : Math.sqrt(num / den);
                ok = relErr <= (p == Precision.FP64 ? 1e-12 : 1e-5);
            }
            if (json) {
                System.out.println(String.format(Locale.ROOT, "{\"matrix\":%s,\"rows\":%d,\"cols\":%d,\"nnz\":%d,\"device\":%s,\"precision\":%s,"
                                + "\"transpose\":%s,\"format\":%s,\"reason\":%s,\"detail\":%s,\"load_ms\":%.3f,\"choose_ms\":%.3f,\"inspector_ms\":%.3f,\"first_call_ms\":%.3f,"
                                + "\"executor_ms_median\":%.6f,\"executor_ms_min\":%.6f,\"repeat\":%d,\"batch\":%d,\"single_call_ms_median\":%.6f,\"gflops\":%.3f,\"counted_bytes\":%d,\"gbs\":%.3f,"
                                + "\"copy_gbs\":%.3f,\"ratio_to_copy\":%.4f,\"gather_limit_gbs\":%s,\"ratio_to_limit\":%s,\"rel_error\":%s,\"verified\":%s}",
                        q(name), a.rows(), a.cols(), a.nnz(), q(dev.id()), q(p.name().toLowerCase()), transpose, q(fname), q(reason), q(e.detail()),
                        loadMs, chooseMs, e.inspectorMillis(), firstMs, med, best, repeat, batch, single[repeat / 2], gflops, bytes, gbs, copyGbs, gbs / copyGbs,
                        Double.isNaN(limitGbs) ? "null" : String.format(Locale.ROOT, "%.3f", limitGbs),
                        Double.isNaN(limitGbs) ? "null" : String.format(Locale.ROOT, "%.4f", gbs / limitGbs),
                        verify ? String.format(Locale.ROOT, "%.3e", relErr) : "null", verify ? Boolean.toString(ok) : "null"));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %s: %d x %d, %d entries%n", name, a.rows(), a.cols(), a.nnz());
                System.out.printf(Locale.ROOT, "device     %s, %s%n", dev.id(), p.name().toLowerCase());
                System.out.printf(Locale.ROOT, "format     %s (%s; %s)%n", fname, reason, e.detail());
                System.out.printf(Locale.ROOT, "inspector  %.3f ms (load %.1f ms, choice %.1f ms, first call incl. build+upload %.1f ms)%n",
                        e.inspectorMillis(), loadMs, chooseMs, firstMs);
                System.out.printf(Locale.ROOT, "executor   %.4f ms per call (median of %d samples of %d back-to-back calls, best %.4f;"
                        + " one call alone %.4f)%n", med, repeat, batch, best, single[repeat / 2]);
                System.out.printf(Locale.ROOT, "rate       %.2f GFLOP/s, %.1f GB/s counted (%d bytes), %.0f%% of copy bandwidth %.1f GB/s%n",
                        gflops, gbs, bytes, 100 * gbs / copyGbs, copyGbs);
                if (!Double.isNaN(limitGbs)) {
                    System.out.printf(Locale.ROOT, "limit      gather limit %.1f GB/s counted (col, val streamed, x gathered, no rows): this format %.0f%% of it%n",
                            limitGbs, 100 * gbs / limitGbs);
                }
                if (verify) System.out.printf(Locale.ROOT, "verify     relative error %.3e: %s%n", relErr, ok ? "ok" : "FAILED");
            }
            return ok ? 0 : 1;
        }
    }

    /** A^T x by scattering A's entries (independent of the transposing inspector). */
    static double[] transposedProduct(CsrMatrix a, double[] x) {
        double[] y = new double[a.cols()];
        for (int i = 0; i < a.rows(); i++) for (int k = a.rowStart(i); k < a.rowStart(i + 1); k++) y[a.colIndex(k)] += a.value(k) * x[i];
        return y;
    }

    private void progress(String s) {
        System.err.println("spmv: " + s);
    }

    private static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
