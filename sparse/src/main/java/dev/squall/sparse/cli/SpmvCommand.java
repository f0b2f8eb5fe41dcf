package dev.squall.sparse.cli;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.io.CsrDump;
import dev.squall.sparse.limits.CopyBandwidth;
import dev.squall.sparse.limits.GatherLimit;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.spmv.BinnedTuning;
import dev.squall.sparse.spmv.SpmvCounts;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.sparse.spmv.SpmvFormat;
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

/** {@code squall spmv}: inspect a matrix into a format, run SpMV many times, report times and bandwidth. */
@Command(name = "spmv", header = "Sparse matrix-vector product in a chosen or automatic format, with GB/s.",
        sortOptions = false,
        description = {"Sparse matrix-vector product y = A x: the inspector converts the matrix to a format once, the executor runs it"
                + " --repeat times. Reports inspector time, executor time per call, GFLOP/s, GB/s of counted bytes (values, indices, row"
                + " pointers, x and y once each), the ratio to this device's copy bandwidth (a STREAM-style copy kernel), the format and"
                + " why it was chosen.",
                "",
                "Generated matrices (--generate NAME:SIZE): 3pt:1000000 5pt:1000x1000 7pt:100x100x100 9pt:1000x1000 27pt:100x100x100"
                + " (also written 27pt_100x100x100), hpcg:NXxNYxNZ, rmat:SCALE[xEDGEFACTOR], banded:N[xHALFWIDTH],"
                + " blocks:NBLOCKSxB[xPERROW], skewed:N[xLONG] (0.1%% rows with LONG entries).",
                "",
                "Examples (files from the repository root):",
                "  squall spmv --generate 27pt:30x30x30 --format auto --verify",
                "  squall spmv --matrix bench/data/1138_bus.mtx --format sell --precision fp32 --device jvm --verify",
                "  squall spmv --generate skewed:100000 --format auto --trials --json",
                "  squall spmv --generate rmat:12 --format csr-binned --transpose --verify   # y = A^T x",
                "  squall spmv --generate 27pt:100x100x100 --format csr,sell,auto --device cuda:0 --verify   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 20)
public final class SpmvCommand implements SquallSubcommand {
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

    @Option(names = "--batch", paramLabel = "B", defaultValue = "10",
            description = {"calls per timed sample (default 10): B products are enqueued back to back between two device",
                    "events, so the host's launch work does not count as device time; 1 times single calls"})
    int batch;

    @Mixin
    RunOptions run;

    @Option(names = "--dump", paramLabel = "DIR", description = "also write the matrix as raw arrays to DIR (for peers: NAME.ptr.i32, .col.i32, .val.f64, .shape.txt)")
    Path dump;

    @Option(names = "--dump-name", paramLabel = "NAME", defaultValue = "matrix", description = "file name stem for --dump (default matrix)")
    String dumpName;

    @Option(names = "--gather-limit", negatable = true, paramLabel = "",
            description = {"also time the gather-limit kernel (col and val streamed coalesced in schedule order, x[col]",
                    "gathered, one sum per work-item) and report its GB/s of the same counted bytes and each format's",
                    "ratio to it (default: on for GPUs, off elsewhere)"})
    Boolean gatherLimit;

    /**
     * {@code --json} result, one per format (schema in tornado-tasks/cli/JSON.md): the matrix and its shape, device, precision,
     * whether A^T x was computed, the format, why it was chosen and its detail, load/choice/inspector/first-call times (ms),
     * the executor's median and best time per call (ms) over {@code repeat} samples of {@code batch} calls, one call
     * alone, GFLOP/s, counted bytes, GB/s, the copy bandwidth and the ratio to it, the gather limit and the ratio to it
     * (null when not timed), whether --verify ran, its relative error, and {@code ok}.
     */
    public record Result(String command, String matrix, int rows, int cols, long nnz, String device, String precision, boolean transpose,
                         String format, String reason, String detail, double loadMs, double chooseMs, double inspectorMs, double firstCallMs,
                         double executorMsMedian, double executorMsMin, int repeat, int batch, double singleCallMsMedian, double gflops,
                         long countedBytes, double gbs, double copyGbs, double ratioToCopy, Double gatherLimitGbs, Double ratioToLimit,
                         boolean verified, Double relError, boolean ok) {
    }

    /** {@code --json} line for a format of a list that cannot hold the matrix (the others still run). */
    public record FormatError(String command, String matrix, String format, String error) {
    }

    private double copyGbs;
    private double limitGbs = Double.NaN;

    @Override
    public Integer call() throws IOException {
        if (trials && !format.toLowerCase().contains("auto")) throw new IllegalArgumentException("--trials needs --format auto");
        int repeat = run.repeat();
        Sizes.inRange("--batch", batch, 1, Integer.MAX_VALUE);
        Precision p = run.precision();
        Device dev = run.device();
        String name;
        CsrMatrix a;
        long t0 = System.nanoTime();
        if (source.matrix != null) {
            name = source.matrix.toString();
            progress("reading " + name);
            a = MatrixFile.read(source.matrix, run.progress());
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
                if (run.json()) JsonOutput.print(new FormatError("spmv", name, one.strip(), unfit.getMessage()));
                else System.out.println("format     " + one.strip() + ": " + unfit.getMessage());
            }
        }
        return worst;
    }

    private int runOne(String format, CsrMatrix a, String name, double loadMs, Precision p, Device dev) {
        int repeat = run.repeat();
        SpmvFormat f;
        String reason;
        BinnedTuning tuning = BinnedTuning.DEFAULT;
        double chooseMs = 0;
        if (format.strip().equalsIgnoreCase("auto")) {
            long c0 = System.nanoTime();
            CsrMatrix op = transpose ? CsrTranspose.of(a) : a;
            FormatChooser.Choice c;
            if (trials) {
                progress("timing the candidate formats");
                try (Progress bar = Progress.open(run.progress(), "spmv trials", 1, "trials")) {
                    c = FormatChooser.tuned(op, p, dev, 5);
                    bar.step();
                }
            } else {
                c = FormatChooser.choose(op, dev);
            }
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
            double[] ms = new double[repeat];
            int warm = Math.max(3, repeat / 5);
            try (Progress bar = Progress.open(run.progress(), "spmv " + fname, 2L * repeat + warm, "samples")) {
                for (int r = 0; r < repeat; r++, bar.step()) single[r] = e.execute().kernelMillis();
                // warm-up batches: bind the batch's launches, bring clocks, caches and the JIT to their steady state
                for (int w = 0; w < warm; w++, bar.step()) e.batchMillis(batch);
                for (int r = 0; r < repeat; r++, bar.step()) ms[r] = e.batchMillis(batch);
            }
            Arrays.sort(single);
            Arrays.sort(ms);
            double med = ms[repeat / 2];
            double best = ms[0];
            long bytes = SpmvCounts.bytes(op, p.bytes());
            double gflops = SpmvCounts.flops(op) / (med * 1e-3) / 1e9;
            double gbs = bytes / (med * 1e-3) / 1e9;
            double relErr = Double.NaN;
            boolean ok = true;
            if (run.verify()) {
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
            if (run.json()) {
                JsonOutput.print(new Result("spmv", name, a.rows(), a.cols(), a.nnz(), dev.id(), p.name().toLowerCase(Locale.ROOT), transpose, fname, reason,
                        e.detail(), loadMs, chooseMs, e.inspectorMillis(), firstMs, med, best, repeat, batch, single[repeat / 2], gflops, bytes, gbs, copyGbs,
                        gbs / copyGbs, Double.isNaN(limitGbs) ? null : limitGbs, Double.isNaN(limitGbs) ? null : gbs / limitGbs, run.verify(),
                        run.verify() ? relErr : null, ok));
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
                if (run.verify()) System.out.printf(Locale.ROOT, "verify     relative error %.3e: %s%n", relErr, ok ? "ok" : "FAILED");
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

}
