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
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code squall permanent}: the permanent of a Matrix Market file or a random matrix. */
@Command(name = "permanent", header = "Matrix permanent by Gray-code Ryser, generated kernels, exact 0/1.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compute the permanent of a square matrix (n <= 63 per block) by Ryser's",
                "formula in Nijenhuis-Wilf Gray-code order: dense or sparse sweeps, or kernels",
                "generated for the matrix (x in registers). The matrix is first split into its",
                "block-triangular blocks and rows/columns with 1 or 2 nonzeros are expanded",
                "away (--no-decompose: off). Rows are scaled by powers of two so the sweep",
                "cannot overflow; a result outside the double range is reported as such.", "",
                "Examples:",
                "  squall permanent --random 24:0.3        # 24x24, density 0.3, seed 1",
                "  squall permanent --random 40:0.1:7 --device cuda:0 \\",
                "                   --method codegen-hybrid --no-decompose",
                "  squall permanent --matrix bcspwr02.mtx --verify --json",
                "  squall permanent --matrix graph.mtx --exact  # 0/1: count matchings",
                "  squall permanent --random 32:0.5 --binary --exact --device cuda:0",
                "  squall permanent --random 32:0.5 --binary --exact --exact-kernel generic \\",
                "                   --device cuda:0 --repeat 3 --no-decompose  # compare kernels",
                "  squall permanent --random 22:0.3 --device jvm --accurate   # double-double",
                "  squall permanent --generate banded:40:7 --device jvm       # frontier program",
                "  squall permanent --generate sparse:30:2 --device jvm --exact --json",
                "  squall permanent --generate banded:18:3 --device jvm --method dense --no-decompose \\",
                "                   --tol 1e-6   # Ryser cancels: escalates, says to what", "",
                "Every result carries an absolute error bound ('error' line, JSON error_bound):",
                "rigorous for the frontier program, an estimate from re-computing sampled chunks",
                "in double-double for Gray-code sweeps, 0 for exact arithmetic. Above --tol the",
                "block is recomputed (frontier program, double-double, exact); when nothing in",
                "reach meets --tol the command fails with exit code 5 and prints no value.", "",
                "Exit codes: 0 ok, 1 verification failed, 2 bad input, 3 device error,",
                "4 internal error, 5 tolerance not met."})
public final class PermanentCommand implements Callable<Integer> {
    static final int VERIFY_FAILED = 1, BAD_INPUT = 2, TOLERANCE_NOT_MET = 5;

    static final class Input {
        @Option(names = "--matrix", paramLabel = "F.mtx", description = "Matrix Market file (coordinate real/integer/pattern, general/symmetric)")
        Path matrix;
        @Option(names = "--random", paramLabel = "N:DENSITY[:SEED]", description = "Erdos-Renyi matrix, values uniform in [0,1), structurally singular draws rejected")
        String random;
        @Option(names = "--generate", paramLabel = "KIND:N[:SEED]", description = "regression matrix: banded:N or sparse:N (mixed signs,"
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

    @Option(names = "--device", paramLabel = "D", description = "cuda:0, opencl:0:0, jvm (default: best present)")
    String device;

    @Option(names = "--precision", paramLabel = "P", defaultValue = "fp64", description = "fp64 only: the alternating sum needs double precision")
    String precision;

    @Option(names = "--no-decompose", description = "skip the block-triangular split and degree elimination (time the raw Gray-code phase)")
    boolean noDecompose;

    @Option(names = "--verify", description = "check against an independent path (JVM sweep, or exact integers for 0/1 matrices); exit 1 on mismatch")
    boolean verify;

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

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1", description = "run N times; times are reported for the fastest")
    int repeat;

    @Option(names = "--min-blocks", paramLabel = "B", defaultValue = "0",
            description = "CUDA codegen-*: __launch_bounds__(128, B) caps registers so B blocks of 128 fit per SM (0: the compiler's choice)")
    int minBlocks;

    @Option(names = "--print-source", description = "print the generated kernel source(s) to stdout")
    boolean printSource;

    @Option(names = "--json", description = "one JSON object on stdout")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        if (!precision.equalsIgnoreCase("fp64")) {
            throw new IllegalArgumentException("--precision " + precision + " is not supported: permanents are computed in fp64 (Ryser's alternating sum loses too much in fp32)");
        }
        if (repeat < 1) throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        Method m = Method.parse(method);
        if (binary && input.random == null) throw new IllegalArgumentException("--binary applies to --random only (a --matrix file has its own values)");
        if (accurate && m != Method.AUTO) throw new IllegalArgumentException("--accurate runs the double-double JVM sweep; it does not combine with --method " + m.cliName());
        SquareMatrix a = load();
        Device dev = accurate && device == null ? Devices.jvm() : Devices.select(device);
        if (accurate && dev.info().type() != DeviceType.JVM) throw new IllegalArgumentException("--accurate runs on the JVM threads; use --device jvm (got --device " + device + ")");
        if (exact && !a.isBinary()) return rational(out, a);
        PermanentSolver solver = new PermanentSolver().device(dev).method(m).decompose(!noDecompose).accurate(accurate).progress(new StderrProgress(err))
                .tolerance(tol).escalate(!noEscalate);
        if (threads != null) solver.threads(threads);
        solver.minBlocksPerSm(minBlocks);
        // the exact path first: its limits (per block) are checked before the long float sweep starts
        ExactRun exactRun = null;
        if (!exactKernel.equals("generated") && !exactKernel.equals("generic")) {
            throw new IllegalArgumentException("--exact-kernel must be generated or generic, got '" + exactKernel + "'");
        }
        // repeated like the float solve, fastest kept: the first run pays the kernel build, later ones hit the cache
        for (int r = 0; exact && r < repeat; r++) {
            ExactRun e = ExactRun.on(dev, a, !noDecompose, exactKernel.equals("generated"), jvmThreads(), new StderrProgress(err));
            if (exactRun == null || e.seconds() < exactRun.seconds()) exactRun = e;
        }
        PermanentResult best = null;
        for (int r = 0; r < repeat; r++) {
            PermanentResult res;
            try {
                res = solver.solve(a);
            } catch (ToleranceNotMetException e) {
                err.println("squall permanent: " + e.getMessage());
                if (json) out.println("{\"error\":" + str(e.getMessage()) + ",\"exit_code\":" + TOLERANCE_NOT_MET + "}");
                return TOLERANCE_NOT_MET;
            }
            if (best == null || res.totalSeconds() < best.totalSeconds()) best = res;
        }
        if (exactRun == null && verify && a.isBinary() && a.n() <= ExactRun.JVM_MAX_N) exactRun = ExactRun.on(Devices.jvm(), a, !noDecompose, false, jvmThreads(), ProgressListener.NONE);
        Verification v = verify ? verify(a, best, exactRun == null ? null : exactRun.result()) : null;
        Verification ve = verify && exactRun != null && exactRun.device().info().type() != DeviceType.JVM ? verifyExact(a, exactRun) : null;
        if (json) out.println(json(a, dev, best, exactRun, v, ve));
        else text(out, a, dev, best, exactRun, v, ve);
        if (printSource) for (GeneratedKernelPermanent.Run g : best.generated()) out.println(g.source());
        return (v != null && !v.ok) || (ve != null && !ve.ok) ? VERIFY_FAILED : 0;
    }

    /** {@code --exact} on a matrix with values other than 0/1: the exact rational path on the JVM. */
    private int rational(PrintStream out, SquareMatrix a) {
        RationalPermanent.Outcome o = RationalPermanent.of(a, true, !noDecompose, jvmThreads());
        if (json) {
            out.println("{\"n\":" + a.n() + ",\"nonzeros\":" + a.nonzeros() + ",\"exact_numerator\":" + str(o.value().numerator().toString())
                    + ",\"exact_denominator\":" + str(o.value().denominator().toString()) + ",\"value\":" + num(o.value().toScaled().toDouble())
                    + ",\"value_text\":" + str(o.value().toScaled().toText()) + ",\"error_bound\":0,\"error_kind\":\"exact\",\"methods\":["
                    + String.join(",", o.methods().stream().map(PermanentCommand::str).toList()) + "],\"gray_blocks\":" + o.blocks()
                    + ",\"eliminated\":" + o.eliminated() + ",\"seconds\":" + num(o.seconds()) + "}");
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
        return SquareMatrix.read(input.matrix);
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

    private static void text(PrintStream out, SquareMatrix a, Device dev, PermanentResult r, ExactRun exactRun, Verification v, Verification ve) {
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
        out.printf(Locale.ROOT, "device      %s%n", dev);
        out.printf(Locale.ROOT, "method      %s%n", r.methodsUsed().isEmpty() ? "none (closed by preprocessing)" : String.join(", ", r.methodsUsed()));
        for (int k = 0; k < r.reasons().size(); k++) out.printf(Locale.ROOT, "why         block %d: %s%n", k, r.reasons().get(k));
        out.printf(Locale.ROOT, "preprocess  %s (%.1f ms)%n", r.reduction().describe(), r.preprocessMillis());
        out.printf(Locale.ROOT, "time        %.4f s total, %.4f s Gray-code phase, %.3e Gray steps/s (%d steps)%n",
                r.totalSeconds(), r.sweepSeconds(), r.stepsPerSecond(), r.graySteps());
        for (GeneratedKernelPermanent.Run g : r.generated()) {
            out.printf(Locale.ROOT, "generated   %d register rows, %d global rows, %d work-items; generate %.1f ms, build %.1f ms%s, kernel %.4f s; %s%n",
                    g.registerRows(), g.globalRows(), g.threads(), g.generateMillis(), g.buildMillis(), g.fromCache() ? " (cached)" : "",
                    g.kernelSeconds(), g.resources().isEmpty() ? "no resource report" : g.resources());
            out.printf(Locale.ROOT, "layout      %s%n", g.layout());
        }
        if (v != null) {
            out.printf(Locale.ROOT, "verify      %s%n", v.note.isEmpty()
                    ? String.format(Locale.ROOT, "%s against %s: reference %s, relative error %.2e", v.ok ? "OK" : "FAILED", v.against, v.reference, v.relError)
                    : v.note);
        }
        if (ve != null) out.printf(Locale.ROOT, "verify      %s%n", ve.note);
    }

    private static String json(SquareMatrix a, Device dev, PermanentResult r, ExactRun exactRun, Verification v, Verification ve) {
        BinaryPermanent.Result exact = exactRun == null ? null : exactRun.result();
        List<String> f = new ArrayList<>();
        f.add("\"n\":" + a.n());
        f.add("\"nonzeros\":" + a.nonzeros());
        f.add("\"value\":" + num(r.value()));
        f.add("\"value_text\":" + str(r.scaled().toText()));
        f.add("\"log10_abs\":" + num(r.scaled().log10Abs()));
        f.add("\"outside_double_range\":" + r.outsideDoubleRange());
        f.add("\"error_bound\":" + num(r.errorBound().toDouble()) + ",\"error_bound_text\":" + str(r.errorBound().toText())
                + ",\"error_kind\":" + str(r.errorKind()) + ",\"relative_error_bound\":" + str(relative(r)));
        if (r.exactValue() != null) f.add("\"exact_numerator\":" + str(r.exactValue().numerator().toString()) + ",\"exact_denominator\":" + str(r.exactValue().denominator().toString()));
        f.add("\"reasons\":[" + String.join(",", r.reasons().stream().map(PermanentCommand::str).toList()) + "]");
        if (exact != null) {
            f.add("\"exact\":" + str(exact.value().toString()) + ",\"exact_is_value\":" + exact.exact() + ",\"exact_modulus_bits\":" + exact.modulusBits()
                    + ",\"exact_path\":" + str(exactRun.path()) + ",\"exact_device\":" + str(exactRun.device().id())
                    + ",\"exact_blocks\":" + exactRun.blocks() + ",\"exact_seconds\":" + num(exactRun.seconds()) + ",\"exact_steps\":" + exactRun.steps()
                    + ",\"exact_steps_per_second\":" + num(exactRun.stepsPerSecond()));
        }
        f.add("\"device\":" + str(dev.id()));
        f.add("\"device_name\":" + str(dev.info().name()));
        f.add("\"methods\":[" + String.join(",", r.methodsUsed().stream().map(PermanentCommand::str).toList()) + "]");
        f.add("\"blocks\":" + r.reduction().btfBlockSizes());
        f.add("\"gray_blocks\":" + r.reduction().blocks().stream().map(SquareMatrix::n).toList());
        f.add("\"eliminated\":" + r.reduction().eliminated());
        f.add("\"singular\":" + r.reduction().singular());
        f.add("\"gray_steps\":" + r.graySteps());
        f.add("\"seconds\":" + num(r.totalSeconds()));
        f.add("\"sweep_seconds\":" + num(r.sweepSeconds()));
        f.add("\"preprocess_ms\":" + num(r.preprocessMillis()));
        f.add("\"steps_per_second\":" + num(r.stepsPerSecond()));
        List<String> gens = new ArrayList<>();
        for (GeneratedKernelPermanent.Run g : r.generated()) {
            gens.add("{\"register_rows\":" + g.registerRows() + ",\"global_rows\":" + g.globalRows() + ",\"threads\":" + g.threads()
                    + ",\"generate_ms\":" + num(g.generateMillis()) + ",\"build_ms\":" + num(g.buildMillis()) + ",\"from_cache\":" + g.fromCache()
                    + ",\"kernel_seconds\":" + num(g.kernelSeconds()) + ",\"resources\":" + str(g.resources()) + ",\"layout\":" + str(g.layout()) + "}");
        }
        f.add("\"generated\":[" + String.join(",", gens) + "]");
        if (v != null) {
            f.add("\"verify\":{\"ok\":" + v.ok + ",\"against\":" + str(v.against) + ",\"reference\":" + num(v.reference)
                    + ",\"relative_error\":" + num(v.relError) + ",\"note\":" + str(v.note) + "}");
        }
        if (ve != null) f.add("\"verify_exact\":{\"ok\":" + ve.ok + ",\"note\":" + str(ve.note) + "}");
        return "{" + String.join(",", f) + "}";
    }

    private static String relative(PermanentResult r) {
        if (r.errorBound().isZero()) return "0";
        if (r.scaled().isZero()) return "unbounded (value 0)";
        return String.format(Locale.ROOT, "%.2e", Math.pow(10, r.errorBound().log10Abs() - r.scaled().log10Abs()));
    }

    private static String num(double d) {
        return Double.isFinite(d) ? Double.toString(d) : "null";
    }

    private static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
