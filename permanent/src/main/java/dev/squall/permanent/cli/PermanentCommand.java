package dev.squall.permanent.cli;

import dev.squall.permanent.Method;
import dev.squall.permanent.PermanentResult;
import dev.squall.permanent.PermanentSolver;
import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.ToleranceNotMetException;
import dev.squall.permanent.exact.RationalPermanent;
import dev.squall.permanent.matrix.RegressionMatrices;
import dev.squall.permanent.codegen.GeneratedKernelPermanent;
import dev.squall.permanent.cpu.BinaryPermanent;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import dev.squall.cli.CommandFailure;
import dev.squall.cli.CostEstimate;
import dev.squall.cli.ExitCode;
import dev.squall.cli.JsonOutput;
import dev.squall.cli.RunDefaults;
import dev.squall.cli.RunOptions;
import dev.squall.cli.SquallSubcommand;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code squall permanent}: the permanent of a Matrix Market file or a random matrix. */
@Command(name = "permanent", header = "Matrix permanent by Gray-code Ryser, generated kernels, exact 0/1.",
        sortOptions = false,
        description = {"Compute the permanent of a square matrix (n <= 63 per block) by Ryser's formula in Nijenhuis-Wilf Gray-code order:"
                + " dense or sparse sweeps, or kernels generated for the matrix (x in registers), or by the frontier program over open-column"
                + " sets (on the JVM or the device) where its estimated cost is lower. The matrix is first split into its block-triangular"
                + " blocks, rows/columns with 1 or 2 nonzeros are eliminated (the split is redone after each), and rows/columns with 3-4"
                + " nonzeros are expanded where that lowers the estimated cost (--no-expand: not; --no-decompose: none of it), all in exact"
                + " integer arithmetic. Rows are scaled by powers of two so the sweep cannot overflow; a result outside the double range is"
                + " reported as such.",
                "With --method auto, blocks of order <= 20 run on the JVM whatever the device (a launch costs more than their sweep):"
                + " the 'device' line and JSON ran_on say where each block ran.",
                "",
                "Examples (files from the repository root):",
                "  squall permanent --random 24:0.3   # 24x24, density 0.3, seed 1",
                "  squall permanent --matrix bench/data/derangements12.mtx --verify --json",
                "  squall permanent --matrix bench/data/derangements12.mtx --exact   # 0/1: counts the derangements of 12",
                "  squall permanent --random 22:0.3 --device jvm --accurate   # double-double",
                "  squall permanent --generate banded:40:7 --device jvm   # frontier program",
                "  squall permanent --generate dense34:36:2 --device jvm --method sparse --timings   # rows of 3-4 nonzeros: expansion; where the time went",
                "  squall permanent --generate sparse:30:2 --device jvm --exact --json",
                "  squall permanent --generate banded:18:3 --device jvm --method dense --no-decompose --tol 1e-6   # Ryser cancels: escalates, says to what",
                "  squall permanent --random 26:0.5 --device opencl:0:0 --method dense --verify",
                "  squall permanent --random 40:0.1:7 --device cuda:0 --method codegen-hybrid --no-decompose   # needs a GPU",
                "  squall permanent --random 32:0.5 --binary --exact --exact-kernel generic --device cuda:0 --repeat 3 --no-decompose   # needs a GPU",
                "",
                "Every result carries an absolute error bound ('error' line, JSON error_bound): rigorous for the frontier program, an"
                + " estimate from re-computing sampled chunks in double-double for Gray-code sweeps, 0 for exact arithmetic. Above --tol"
                + " the block is recomputed (frontier program, double-double, exact); when nothing in reach meets --tol the command fails"
                + " with exit code 5 and prints no value."},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 1, precisions = {"fp64"})
public final class PermanentCommand implements SquallSubcommand {
    static final class Input {
        @Option(names = "--matrix", paramLabel = "F.mtx", description = "Matrix Market file (coordinate real/integer/pattern, general/symmetric)")
        Path matrix;
        @Option(names = "--random", paramLabel = "N:DENSITY[:SEED]", description = "Erdos-Renyi matrix, values uniform in [0,1), structurally singular draws rejected")
        String random;
        @Option(names = "--generate", paramLabel = "KIND:N[:SEED]", description = "regression matrix: banded:N, sparse:N, dense34:N (rows of 3-4 nonzeros) or mesh:N (5-point grid) (mixed signs,"
                + " magnitudes over many orders, where Ryser's sum cancels; see RegressionMatrices)")
        String generate;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    @Option(names = "--method", paramLabel = "M", defaultValue = "auto",
            description = "auto | dense | dense-local | sparse | codegen-reg | codegen-hybrid (default: ${DEFAULT-VALUE}). On --device jvm,"
                    + " dense and sparse run multi-threaded Java; elsewhere the generic kernels (x in private memory); dense-local is the"
                    + " generic kernel with x in local memory on any device; codegen-* need a CUDA or OpenCL device.")
    String method;

    @Option(names = "--no-decompose", description = "skip the block-triangular split and degree elimination (time the raw Gray-code phase)")
    boolean noDecompose;

    @Option(names = "--no-expand", description = "keep the split and elimination but never expand rows/columns with 3-4 nonzeros")
    boolean noExpand;

    @Option(names = "--timings", description = "print where the time went (preprocess, blocks, estimate, generate, build, kernel); always in --json")
    boolean timings;

    @Option(names = "--tol", paramLabel = "REL", defaultValue = "1e-8",
            description = "relative tolerance (default ${DEFAULT-VALUE}): blocks whose error estimate exceeds it are recomputed by a stronger method;"
                    + " exit 5 when none in reach meets it")
    double tol;

    @Option(names = "--no-escalate", description = "report the first method's error estimate, never recompute or fail on --tol")
    boolean noEscalate;

    @Option(names = "--exact", description = "Other matrices: the exact rational permanent (entries read as their shortest decimals, i.e. the"
            + " file's literals up to 15 significant digits; exact integer preprocessing, then per block the frontier program over"
            + " BigInteger or multi-modular Ryser), printed as an integer or fraction. 0/1 matrices: also the exact integer permanent (perfect matchings). On a CUDA/OpenCL device the exact"
            + " kernel (2^n Ryser steps in 64-bit integers, n <= 62): exact when below 2^64, which Bregman's bound certifies, else"
            + " printed as the residue mod 2^64. On jvm: 128-bit integers on all threads (n <= 40). Orders are per block-triangular"
            + " block (exact values multiply without limit) unless --no-decompose.")
    boolean exact;

    @Option(names = "--exact-kernel", paramLabel = "K", defaultValue = "generated",
            description = "generated | generic (default: ${DEFAULT-VALUE}): on a CUDA/OpenCL device, the exact kernel generated for the matrix"
                    + " (row sums in registers) or the generic one (row sums in a private array), for comparison")
    String exactKernel;

    @Option(names = "--binary", description = "with --random: entries 1 instead of uniform values (a random 0/1 matrix)")
    boolean binary;

    @Option(names = "--accurate", description = "the Gray-code phase as a double-double sweep on the JVM threads (about 10x slower; for matrices whose"
            + " alternating sum cancels badly). Needs --device jvm (the default with this flag) and --method auto.")
    boolean accurate;

    @Option(names = "--threads", paramLabel = "T", description = "JVM threads (default: all processors)")
    Integer threads;

    @Option(names = "--min-blocks", paramLabel = "B", defaultValue = "0",
            description = "CUDA codegen-*: __launch_bounds__(128, B) caps registers so B blocks of 128 fit per SM (0: the compiler's choice)")
    int minBlocks;

    @Option(names = "--restart", paramLabel = "R", defaultValue = "16",
            description = "generated kernels: each work-item rebuilds x every 2^R steps (default ${DEFAULT-VALUE}; 0: once per work-item),"
                    + " so the rounding of x's updates drifts over at most 2^R steps")
    int restartLog2;

    @Option(names = "--print-source", description = "print the generated kernel source(s) to stdout")
    boolean printSource;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() throws IOException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        int repeat = run.repeat();
        boolean verify = run.verify(), json = run.json();
        Method m = Method.parse(method);
        if (binary && input.random == null) throw new IllegalArgumentException("--binary applies to --random only (a --matrix file has its own values)");
        if (accurate && m != Method.AUTO) throw new IllegalArgumentException("--accurate runs the double-double JVM sweep; it does not combine with --method " + m.cliName());
        long l0 = System.nanoTime();
        SquareMatrix a = load();
        double loadMs = (System.nanoTime() - l0) / 1e6;
        Device dev = accurate && run.deviceId() == null ? Devices.jvm() : run.device();
        if (accurate && dev.info().type() != DeviceType.JVM) throw new IllegalArgumentException("--accurate runs on the JVM threads; use --device jvm (got --device " + run.deviceId() + ")");
        if (exact && !a.isBinary()) return rational(out, a, json);
        StderrProgress bar = new StderrProgress(run.progress(), "permanent n=" + a.n());
        PermanentSolver solver = new PermanentSolver().device(dev).method(m).decompose(!noDecompose).expand(!noExpand).accurate(accurate).progress(bar)
                .tolerance(tol).escalate(!noEscalate);
        if (threads != null) solver.threads(threads);
        solver.restartLog2(restartLog2);
        warnIfSlow(dev, a, solver, repeat);
        solver.minBlocksPerSm(minBlocks);
        // the exact path first: its limits (per block) are checked before the long float sweep starts
        ExactRun exactRun = null;
        if (!exactKernel.equals("generated") && !exactKernel.equals("generic")) {
            throw new IllegalArgumentException("--exact-kernel must be generated or generic, got '" + exactKernel + "'");
        }
        // repeated like the float solve, fastest kept: the first run pays the kernel build, later ones hit the cache
        for (int r = 0; exact && r < repeat; r++) {
            ExactRun e = ExactRun.on(dev, a, !noDecompose, exactKernel.equals("generated"), jvmThreads(), bar);
            if (exactRun == null || e.seconds() < exactRun.seconds()) exactRun = e;
        }
        PermanentResult best = null;
        List<Double> repeatMs = new ArrayList<>();
        for (int r = 0; r < repeat; r++) {
            PermanentResult res;
            try {
                res = solver.solve(a);
            } catch (ToleranceNotMetException e) {
                throw new CommandFailure(ExitCode.TOLERANCE_NOT_MET, e.getMessage(), e);
            }
            repeatMs.add(res.totalSeconds() * 1e3);
            if (best == null || res.totalSeconds() < best.totalSeconds()) best = res;
        }
        bar.close();
        if (exactRun == null && verify && a.isBinary() && a.n() <= ExactRun.JVM_MAX_N) exactRun = ExactRun.on(Devices.jvm(), a, !noDecompose, false, jvmThreads(), ProgressListener.NONE);
        Verification v = verify ? verify(a, best, exactRun == null ? null : exactRun.result()) : null;
        Verification ve = verify && exactRun != null && exactRun.device().info().type() != DeviceType.JVM ? verifyExact(a, exactRun) : null;
        if (json) JsonOutput.print(out, json(a, dev, best, exactRun, v, ve, loadMs, repeatMs));
        else text(out, a, dev, best, exactRun, v, ve, loadMs, repeatMs);
        if (printSource) for (GeneratedKernelPermanent.Run g : best.generated()) out.println(g.source());
        return (v != null && !v.ok) || (ve != null && !ve.ok) ? ExitCode.VERIFY_FAILED : ExitCode.OK;
    }

    /** {@code --exact} on a matrix with values other than 0/1: the exact rational path on the JVM. */
    private int rational(PrintStream out, SquareMatrix a, boolean json) {
        RationalPermanent.Outcome o = RationalPermanent.of(a, true, !noDecompose, jvmThreads());
        if (json) {
            JsonOutput.print(out, new RationalResult("permanent", a.n(), a.nonzeros(), o.value().numerator().toString(), o.value().denominator().toString(),
                    o.value().toScaled().toDouble(), o.value().toScaled().toText(), 0, "exact", o.methods(), o.blocks(), o.eliminated(), o.seconds()));
        } else {
            out.printf(Locale.ROOT, "matrix      %dx%d, %d nonzeros%n", a.n(), a.n(), a.nonzeros());
            out.printf(Locale.ROOT, "exact       %s%n", o.value().toText());
            out.printf(Locale.ROOT, "permanent   %s%n", o.value().toScaled().toText());
            out.printf(Locale.ROOT, "error       0 (exact rational arithmetic; entries read as their shortest decimals)%n");
            out.printf(Locale.ROOT, "method      %s%n", o.methods().isEmpty() ? "none (closed by exact preprocessing)" : String.join(", ", o.methods()));
            out.printf(Locale.ROOT, "preprocess  %d row(s)/column(s) eliminated exactly, blocks left %s%n", o.eliminated(), o.blocks());
            out.printf(Locale.ROOT, "time        %.4f s%n", o.seconds());
        }
        return 0;
    }

    private int jvmThreads() {
        return threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    }

    /** The device's exact result against the JVM's 128-bit path (same residue modulo 2^64), where that is affordable. */
    private Verification verifyExact(SquareMatrix a, ExactRun r) {
        if (a.n() > 30) return new Verification("none", Double.NaN, Double.NaN, true, "exact: skipped, the JVM 128-bit check needs 2^" + (a.n() - 1) + " steps; verify at n <= 30");
        BinaryPermanent.Result jvm = new BinaryPermanent(jvmThreads()).of(a);
        // the whole matrix on the JVM (no split): the same value, or the same residue where the device reports one
        boolean ok = jvm.exact() && (r.result().exact() ? jvm.value().equals(r.result().value())
                : jvm.value().mod(java.math.BigInteger.ONE.shiftLeft(r.result().modulusBits())).equals(r.result().value()));
        return new Verification("JVM 128-bit integer path", jvm.value().doubleValue(), ok ? 0 : Double.NaN, ok,
                "exact: " + (ok ? "OK" : "FAILED") + " against the JVM 128-bit integer path (" + jvm.value() + ")");
    }

    private SquareMatrix load() throws IOException {
        if (input.generate != null) return RegressionMatrices.parse(input.generate);
        if (input.random != null) return binary ? RandomSquareMatrices.parse(input.random).pattern() : RandomSquareMatrices.parse(input.random);
        Path f = input.matrix;
        if (!Files.exists(f)) throw new IllegalArgumentException("--matrix " + f + ": no such file");
        if (!Files.isRegularFile(f)) throw new IllegalArgumentException("--matrix " + f + ": not a regular file");
        try {
            return SquareMatrix.read(f);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("--matrix " + f + ": not a text file (" + e.getMessage() + ")");
        }
    }

    /**
     * Warns before a sweep expected to run past half a minute: the solver's estimate for the whole matrix (the method it
     * would use, before preprocessing, which may split it), times the repeats.
     */
    private static void warnIfSlow(Device dev, SquareMatrix a, PermanentSolver solver, int repeat) {
        int n = a.n();
        if (n < 2) return;
        CostEstimate.warnIfSlowSeconds(System.err, dev, solver.expectedSeconds(a) * repeat,
                String.format(Locale.ROOT, "the permanent of a %d x %d matrix (up to 2^%d Gray steps; preprocessing may split it)", n, n, n - 1));
    }

    record Verification(String against, double reference, double relError, boolean ok, String note) {
    }

    /** Reference: exact integers for 0/1, else the JVM dense sweep if it is affordable. */
    private Verification verify(SquareMatrix a, PermanentResult r, BinaryPermanent.Result exact) {
        if (exact != null && exact.exact()) {
            double ref = exact.value().doubleValue();
            double err = Math.abs(r.value() - ref) / Math.max(Math.abs(ref), Double.MIN_NORMAL);
            if (ref == 0) err = Math.abs(r.value());
            return new Verification("exact integer path", ref, err, err <= 1e-9, "");
        }
        if (a.n() > 30 && r.graySteps() > (1L << 31)) {
            return new Verification("none", Double.NaN, Double.NaN, true, "skipped: the JVM reference would need " + r.graySteps() + " steps; verify at n <= 30");
        }
        PermanentSolver ref = new PermanentSolver().device(Devices.jvm()).method(Method.DENSE).decompose(false);
        if (threads != null) ref.threads(threads);
        double want = a.n() <= 63 ? ref.solve(a).value() : Double.NaN;
        double err = Math.abs(r.value() - want) / Math.max(Math.abs(want), Double.MIN_NORMAL);
        return new Verification("JVM dense sweep without preprocessing", want, err, err <= 1e-9, "");
    }

    private void text(PrintStream out, SquareMatrix a, Device dev, PermanentResult r, ExactRun exactRun, Verification v, Verification ve, double loadMs,
                      List<Double> repeatMs) {
        BinaryPermanent.Result exact = exactRun == null ? null : exactRun.result();
        out.printf(Locale.ROOT, "matrix      %dx%d, %d nonzeros%s%n", a.n(), a.n(), a.nonzeros(), a.isBinary() ? " (0/1)" : "");
        out.printf(Locale.ROOT, "permanent   %s%s%n", r.scaled().toText(), r.outsideDoubleRange() ? "   (outside the double range; log10|perm| = "
                + String.format(Locale.ROOT, "%.6f", r.scaled().log10Abs()) + ")" : "");
        if (exact != null) {
            out.printf(Locale.ROOT, "exact       %s%s   [%s on %s, blocks %s, %.4f s, %.3e steps/s]%n", exact.value(),
                    exact.exact() ? (exact.fitsLong() ? "" : " (exceeds 64 bits)") : " (only modulo 2^" + exact.modulusBits() + ": the count may exceed it)",
                    exactRun.path(), exactRun.device().id(), exactRun.blocks(), exactRun.seconds(), exactRun.stepsPerSecond());
        }
        out.printf(Locale.ROOT, "error       %s absolute (%s; relative %s)%n", r.errorBound().toText(), r.errorKind(), relative(r));
        if (r.exactValue() != null) out.printf(Locale.ROOT, "exact       %s   (of the matrix's binary values)%n", r.exactValue().toText());
        List<String> ranOn = ranOn(r);
        if (ranOn.isEmpty() || ranOn.equals(List.of(dev.id()))) out.printf(Locale.ROOT, "device      %s%n", dev);
        else out.printf(Locale.ROOT, "device      %s; blocks ran on %s (see method and why)%n", dev, String.join(", ", ranOn));
        out.printf(Locale.ROOT, "method      %s%n", r.methodsUsed().isEmpty() ? "none (closed by preprocessing)" : String.join(", ", r.methodsUsed()));
        int shown = Math.min(r.reasons().size(), 8);
        for (int k = 0; k < shown; k++) out.printf(Locale.ROOT, "why         block %d (%dx%d): %s%n", k, r.blocks().get(k).order(), r.blocks().get(k).order(), r.reasons().get(k));
        if (shown < r.reasons().size()) out.printf(Locale.ROOT, "why         ... %d more block(s): see --json blocks_detail%n", r.reasons().size() - shown);
        out.printf(Locale.ROOT, "preprocess  %s (%.1f ms)%n", r.describeBlocks(), r.preprocessMillis());
        out.printf(Locale.ROOT, "time        %.4f s total, %.4f s sweeps (without generation, builds, estimates), %.4f s error estimates, %.3e Gray steps/s (%d steps)%n",
                r.totalSeconds(), r.sweepSeconds(), r.timings().estimateMs() / 1e3, r.stepsPerSecond(), r.graySteps());
        if (repeatMs.size() > 1) {
            out.printf(Locale.ROOT, "repeats     %d solves in this process: median %.2f ms, fastest %.2f ms (the lines above are the fastest's)%n",
                    repeatMs.size(), median(repeatMs), repeatMs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN));
        }
        for (GeneratedKernelPermanent.Run g : r.generated()) {
            out.printf(Locale.ROOT, "generated   %d register rows, %d global rows, %d work-items; generate %.1f ms, build %.1f ms%s, kernel %.4f s; %s%n",
                    g.registerRows(), g.globalRows(), g.threads(), g.generateMillis(), g.buildMillis(), g.fromCache() ? " (cached)" : "",
                    g.kernelSeconds(), g.resources().isEmpty() ? "no resource report" : g.resources());
            out.printf(Locale.ROOT, "layout      %s%n", g.layout());
        }
        if (timings) {
            PermanentResult.Timings t = r.timings();
            out.printf(Locale.ROOT, "timings     read/generate input %.2f ms; preprocess %.2f ms, blocks %.2f ms (error estimate %.2f, generate %.2f, build %.2f%s, kernel %.2f"
                            + " of which on the device %.2f, copies %.2f), total %.2f ms%n",
                    loadMs, t.preprocessMs(), t.blocksMs(), t.estimateMs(), t.generateMs(), t.buildMs(), t.buildCached() == null ? "" : t.buildCached() ? " cached" : " compiled",
                    t.kernelMs(), t.deviceKernelMs(), t.transferMs(), t.totalMs());
            if (t.estimateFraction() != null) {
                out.printf(Locale.ROOT, "estimate    %.2f ms against %.2f ms of Ryser sweep: %.1f%% of its time, %.1f%% of its work (re-computed steps in double-step units)%s%n",
                        t.estimateMs(), t.sweepMs(), 100 * t.estimateFraction(), 100 * t.estimateWorkFraction(),
                        t.estimateDeviceMs() > 0 ? String.format(Locale.ROOT, "; %.2f ms of it on the device", t.estimateDeviceMs()) : "");
            }
        }
        if (v != null) {
            out.printf(Locale.ROOT, "verify      %s%n", v.note.isEmpty()
                    ? String.format(Locale.ROOT, "%s against %s: reference %s, relative error %.2e", v.ok ? "OK" : "FAILED", v.against, v.reference, v.relError)
                    : v.note);
        }
        if (ve != null) out.printf(Locale.ROOT, "verify      %s%n", ve.note);
    }

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md). Every field is always present; those that do not apply are null.
     * value, value_text, log10_abs: the permanent (value null outside the double range); error_bound (absolute),
     * error_kind (exact, rigorous, estimate) and the relative bound; the exact fraction when every block was exact;
     * exact_*: the --exact integer path (value or residue mod 2^64, path, device, blocks, time, steps); device: the
     * device asked for, ran_on: the devices the blocks ran on (blocks of order <= 20 run on the JVM under --method auto);
     * methods and reasons per block; the block-triangular and Gray-code block orders; Gray steps, times (seconds: the
     * whole solve; sweep_seconds: the sweeps alone, computing the blocks without kernel generation, builds and error
     * estimates; estimate_seconds: the estimates) and rate;
     * generated-kernel runs; verify / verify_exact: the check against an independent path ({@code ok} overall);
     * expansions (Laplace expansions taken), leaf_blocks (blocks in the expansion tree, once per term using them),
     * blocks_summary (the text output's preprocess line), blocks_detail (per distinct block: order, method, uses,
     * relative_error, seconds, reason), timings (milliseconds: preprocess, blocks, estimate, generate, build, build_cached,
     * kernel, total, device_kernel, transfer, sweep; estimate_fraction and estimate_work_fraction: the error estimate against the Ryser sweeps,
     * estimate_device_ms its device time; see {@link PermanentResult.Timings}), load_ms (reading or generating the input),
     * repeat_ms (every solve's total milliseconds with --repeat, in run order; the other fields are the fastest run's) and
     * median_ms (their median).
     */
    public record Result(String command, int n, long nonzeros, String precision, Double value, String valueText, double log10Abs, boolean outsideDoubleRange,
                         Double errorBound, String errorBoundText, String errorKind, String relativeErrorBound, String exactNumerator,
                         String exactDenominator, List<String> reasons, String exact, Boolean exactIsValue, Integer exactModulusBits, String exactPath,
                         String exactDevice, List<Integer> exactBlocks, Double exactSeconds, Long exactSteps, Double exactStepsPerSecond, String device,
                         String deviceName, List<String> ranOn, List<String> methods, List<Integer> blocks, List<Integer> grayBlocks, int eliminated,
                         boolean singular, long graySteps, double seconds, double sweepSeconds, double estimateSeconds, double preprocessMs, double stepsPerSecond,
                         List<Generated> generated, boolean verified, VerifyResult verify, VerifyResult verifyExact, boolean ok,
                         int expansions, int leafBlocks, String blocksSummary, List<PermanentResult.BlockReport> blocksDetail, PermanentResult.Timings timings,
                         double loadMs, List<Double> repeatMs, double medianMs) {
    }

    /** One generated-kernel run of {@link Result#generated()}. */
    public record Generated(int registerRows, int globalRows, long threads, double generateMs, double buildMs, boolean fromCache, double kernelSeconds,
                            String resources, String layout) {
    }

    /** A check against an independent path: passed, against what, the reference value and relative error, a note. */
    public record VerifyResult(boolean ok, String against, Double reference, Double relativeError, String note) {
    }

    /** {@code --exact --json} for a matrix with values other than 0/1: the exact rational permanent. */
    public record RationalResult(String command, int n, long nonzeros, String exactNumerator, String exactDenominator, double value, String valueText,
                                 double errorBound, String errorKind, List<String> methods, Object grayBlocks, int eliminated, double seconds) {
    }

    /** The devices the blocks ran on, from the solver's "method@device" per block, in order of first use. */
    static List<String> ranOn(PermanentResult r) {
        return r.methodsUsed().stream().map(m -> m.substring(m.lastIndexOf('@') + 1)).distinct().toList();
    }

    /** The median of the repeats' milliseconds (the mean of the middle two for an even count). */
    static double median(List<Double> ms) {
        double[] s = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static Result json(SquareMatrix a, Device dev, PermanentResult r, ExactRun exactRun, Verification v, Verification ve, double loadMs,
                               List<Double> repeatMs) {
        BinaryPermanent.Result exact = exactRun == null ? null : exactRun.result();
        List<Generated> gens = new ArrayList<>();
        for (GeneratedKernelPermanent.Run g : r.generated()) {
            gens.add(new Generated(g.registerRows(), g.globalRows(), g.threads(), g.generateMillis(), g.buildMillis(), g.fromCache(), g.kernelSeconds(),
                    g.resources(), g.layout()));
        }
        return new Result("permanent", a.n(), a.nonzeros(), "fp64", r.value(), r.scaled().toText(), r.scaled().log10Abs(), r.outsideDoubleRange(),
                r.errorBound().toDouble(), r.errorBound().toText(), r.errorKind(), relative(r),
                r.exactValue() == null ? null : r.exactValue().numerator().toString(), r.exactValue() == null ? null : r.exactValue().denominator().toString(),
                r.reasons(), exact == null ? null : exact.value().toString(), exact == null ? null : exact.exact(), exact == null ? null : exact.modulusBits(),
                exact == null ? null : exactRun.path(), exact == null ? null : exactRun.device().id(), exact == null ? null : exactRun.blocks(),
                exact == null ? null : exactRun.seconds(), exact == null ? null : exactRun.steps(), exact == null ? null : exactRun.stepsPerSecond(),
                dev.id(), dev.info().name(), ranOn(r), r.methodsUsed(), r.reduction().btfBlockSizes(),
                r.reduction().blocks().stream().map(SquareMatrix::n).toList(), r.reduction().eliminated(), r.reduction().singular(), r.graySteps(),
                r.totalSeconds(), r.sweepSeconds(), r.timings().estimateMs() / 1e3, r.preprocessMillis(), r.stepsPerSecond(), gens, v != null,
                v == null ? null : new VerifyResult(v.ok, v.against, v.reference, v.relError, v.note),
                ve == null ? null : new VerifyResult(ve.ok, ve.against, ve.reference, ve.relError, ve.note),
                (v == null || v.ok) && (ve == null || ve.ok), r.expansions(), r.leafBlocks(), r.describeBlocks(), r.blocks(), r.timings(), loadMs, repeatMs,
                median(repeatMs));
    }

    private static String relative(PermanentResult r) {
        if (r.errorBound().isZero()) return "0";
        if (r.scaled().isZero()) return "unbounded (value 0)";
        return String.format(Locale.ROOT, "%.2e", Math.pow(10, r.errorBound().log10Abs() - r.scaled().log10Abs()));
    }
}
