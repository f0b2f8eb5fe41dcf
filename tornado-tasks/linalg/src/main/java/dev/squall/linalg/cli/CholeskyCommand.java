package dev.squall.linalg.cli;

import dev.squall.linalg.cholesky.BatchStatus;
import dev.squall.linalg.cholesky.BatchedCholesky;
import dev.squall.linalg.cholesky.BlockedCholesky;
import dev.squall.linalg.cholesky.CholeskyFactor;
import dev.squall.linalg.cholesky.CholeskyRun;
import dev.squall.linalg.cholesky.LoopCholesky;
import dev.squall.linalg.cholesky.PhaseProfile;
import dev.squall.linalg.cholesky.SmallCholeskyKernel;
import dev.squall.linalg.gemm.GemmKernel;
import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.NotPositiveDefiniteException;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.*;
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
import java.io.IOException;
import java.nio.file.Path;

import java.io.PrintStream;
import java.util.Locale;

/** {@code squall cholesky}: blocked Cholesky of one large matrix, or batched Cholesky of many small ones. */
@Command(name = "cholesky", header = "Cholesky factor of a covariance matrix, a batch of small ones, or a matrix from a file, with GFLOP/s.",
        description = {"Cholesky-factor the covariance matrix of a random 3-D point cloud (Gaussian kernel, length scale 0.3, nugget 0.1),"
                + " or a symmetric positive definite matrix read from a Matrix Market file (--matrix), on a device, and print the device time,"
                + " GFLOP/s (n^3/3 per matrix) and, with --verify, the residual |L L^T v - A v| / |A v| over 3 random probe vectors v,"
                + " the log-determinant and the Gaussian-process log-likelihood of a random y.",
                "One matrix: blocked right-looking Cholesky (outer blocks of 256, 1024 from n = 4096, 2048 from 8192; Stan's triangular"
                + " inverse for their panels; inner 64-column steps of one fused factor-and-panel launch each); on the jvm device loop-style"
                + " kernels (96-wide blocks, 4x3 register tiles) over the fork-join pool. --profile also prints the device time and launch"
                + " count of each phase (diagonal factor, diagonal inverse, panel solve, trailing update, copies).",
                "--batch B > 1: B matrices of order n <= 64. --kernel warp-loop (default) factors each in one warp's registers, columns"
                + " broadcast through local memory, the steps a loop, one rsqrt per step, out of place; group, the baseline, works in one"
                + " work-group's local memory.",
                "",
                "Examples:",
                "  squall cholesky --n 1000 --device jvm --verify",
                "  squall cholesky --n 64 --batch 1000 --repeat 3 --json",
                "  squall cholesky --matrix bench/data/bcsstk01.mtx --device jvm --verify",
                "  squall cholesky --matrix bench/data/mycielskian6.mtx --device jvm   # a graph, not positive definite: exit 2",
                "  squall cholesky --n 8192 --device cuda:0 --verify   # needs a GPU",
                "  squall cholesky --n 16384 --device cuda:0 --profile --block 1024   # needs a GPU",
                "  squall cholesky --n 16384 --device cuda:0 --verify   # needs a GPU; look-ahead on a second queue by default",
                "  squall cholesky --n 16384 --device cuda:0 --no-lookahead   # needs a GPU; one queue, to compare",
                "  squall cholesky --n 16384 --device cuda:0 --lookahead --gemm-kernel mma   # needs a GPU; the outer GEMMs on mma, to compare",
                "  squall cholesky --n 64 --batch 10000 --kernel group --device cuda:0 --verify   # needs a GPU",
                "",
                "A matrix that is not positive definite is bad input (exit 2, with the failing pivot)."},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5)
public final class CholeskyCommand implements SquallSubcommand {
    @Option(names = "--n", paramLabel = "N", description = "matrix order (random covariance input)")
    Integer n;

    @Option(names = "--matrix", paramLabel = "F.mtx", description = "factor this symmetric positive definite Matrix Market file instead (coordinate or array)")
    Path matrix;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "1", description = "number of matrices (B > 1 needs n <= 64)")
    int batch;

    @Option(names = "--block", paramLabel = "B", description = "outer block of the device path, a multiple of 64 (default: 256, 1024 from n = 4096, 2048 from n = 8192)")
    Integer block;

    @Option(names = "--kernel", paramLabel = "K", defaultValue = "warp-loop", description = "batched kernel: warp-loop or group (default ${DEFAULT-VALUE})")
    String kernel;

    @Option(names = "--gemm-kernel", paramLabel = "G", defaultValue = "auto",
            description = "panel and trailing GEMMs: auto (fp64 on CUDA 8.0+: the FP64 tensor cores, each product through the kernel squall gemm"
                    + " --kernel auto picks for its shape; else tiles), tiles (the portable kernels throughout), or a squall gemm --kernel name"
                    + " (mma, chunk-w8-d32-s3, ...) for the outer steps' panel solves and trailing updates, to compare (default ${DEFAULT-VALUE})")
    String gemmKernel;

    @Option(names = "--lookahead", negatable = true, description = "one matrix: factor the next diagonal block on a second device queue while"
            + " the trailing update runs (events order the steps; the time spans both queues); on jvm too, which then runs the blocked kernels"
            + " instead of the loop ones. Default: on for one matrix of n >= 4096 on a GPU without --profile, else off; --no-lookahead"
            + " runs one queue")
    Boolean lookaheadOption;

    @Option(names = "--rest-groups", paramLabel = "G", defaultValue = "0",
            description = "with --lookahead: the bulk of each trailing update as a persistent launch of G work-groups looping over its tiles"
                    + " (fewer than the GPU's SMs, 116 of an H100's 132 say, so that the next diagonal block's launches find SMs free), the panel"
                    + " solves then on the update queue; 0: one work-group a tile (default ${DEFAULT-VALUE})")
    int restGroups;

    @Option(names = "--split-next", description = "with --lookahead: each step's update of the next block column split in two, its diagonal"
            + " block first (all the next diagonal factor waits for), the panel below it with the rest of the update (on --rest-groups groups)")
    boolean splitNext;

    @Option(names = "--profile", description = "also time each phase of the device path on its own (one matrix, not on jvm)")
    boolean profile;

    @Mixin
    RunOptions run;

    @Mixin
    SeedOption seed;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the sizes, kernel, precision and device, the device times of the
     * timed runs (median and minimum, ms), GFLOP/s of the median, whether --verify ran, its probe residual, the
     * log-determinant and GP log-likelihood (one matrix), and {@code ok} (false only when a verified residual is too large).
     */
    public record Result(String command, String matrix, int n, int block, int batch, String kernel, String precision, String device,
                         double msMedian, double msMin, double gflops, boolean verified, Double residual, Double logDet, Double logLikelihood, boolean ok) {
    }

    /** {@code --profile --json}: one object per phase of the blocked factorisation. */
    public record PhaseResult(String command, int n, int block, String device, String phase, int launches, double msMedian, double msMin, double share) {
    }

    /**
     * Look-ahead unless asked otherwise: for one matrix large enough that the diagonal chain, not the launches, bounds
     * the time (n >= 4096), on a GPU (where the trailing update leaves SMs for the second queue), not under --profile
     * (which times the phases one after another).
     */
    static boolean defaultLookahead(int batch, int n, boolean profile, DeviceType type) {
        return batch == 1 && n >= 4096 && !profile && type == DeviceType.GPU;
    }

    @Override
    public Integer call() throws IOException {
        if ((n == null) == (matrix == null)) throw new IllegalArgumentException("give --n N (a random covariance matrix) or --matrix F.mtx, not both or neither");
        Inputs.FileMatrix file = null;
        if (matrix != null) {
            if (batch != 1) throw new IllegalArgumentException("--matrix factors one matrix; drop --batch " + batch);
            file = Inputs.read(matrix);
            Inputs.requireSymmetric(matrix, file);
            n = file.n();
        }
        Sizes.inRange("--n", n, 1, 46340);
        Sizes.inRange("--batch", batch, 1, Integer.MAX_VALUE);
        Sizes.intElements("--batch x --n^2", batch, n, n);
        if (batch > 1 && n > 64) throw new IllegalArgumentException("--batch " + batch + " needs --n <= 64, got " + n);
        int outer = block != null ? block : BlockedCholesky.outerBlock(n);
        if (outer < 64 || outer % 64 != 0) throw new IllegalArgumentException("--block must be a positive multiple of 64, got " + outer);
        SmallCholeskyKernel small = SmallCholeskyKernel.parse(kernel);
        boolean deviceKernels = !gemmKernel.equals("tiles");
        GemmKernel outerGemm = null;
        if (deviceKernels && !gemmKernel.equals("auto")) {
            try {
                outerGemm = GemmKernel.parse(gemmKernel);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage().replace("--kernel", "--gemm-kernel"));
            }
            if (run.precision() != Precision.FP64) throw new IllegalArgumentException("--gemm-kernel " + gemmKernel + " is fp64 only; use auto or tiles with " + run.precision());
        }
        Precision p = run.precision();
        Device device = run.device();
        boolean lookahead = lookaheadOption != null ? lookaheadOption : defaultLookahead(batch, n, profile, device.info().type());
        if (restGroups < 0) throw new IllegalArgumentException("--rest-groups must be >= 0, got " + restGroups);
        if (restGroups > 0 && !lookahead) throw new IllegalArgumentException("--rest-groups " + restGroups + " applies to --lookahead; add --lookahead");
        if (splitNext && !lookahead) throw new IllegalArgumentException("--split-next applies to --lookahead; add --lookahead");
        if (lookahead && batch > 1) throw new IllegalArgumentException("--lookahead applies to one blocked factorisation; drop --batch " + batch);
        if (profile && batch > 1) throw new IllegalArgumentException("--profile times the phases of one blocked factorisation; drop --batch " + batch);
        if (deviceKernels && p == Precision.FP64 && GemmKernel.forDevice(device) == GemmKernel.MMA) blockedLabel = "blocked-mma";
        if (outerGemm != null) blockedLabel = "blocked-gemm-" + outerGemm.cliName();
        if (lookahead) blockedLabel += "-lookahead";
        if (restGroups > 0) blockedLabel += "-rest" + restGroups;
        if (splitNext) blockedLabel += "-split";
        if (profile && device.info().type() == DeviceType.JVM) throw new IllegalArgumentException("--profile times the GPU/OpenCL path's phases; the jvm device runs loop kernels instead");
        double flops = BlockedCholesky.flops(n) * batch;
        CostEstimate.warnIfSlow(System.err, device, flops * (run.repeat() + 1), String.format(Locale.ROOT, "cholesky n=%d batch=%d, %d runs", n, batch, run.repeat() + 1));
        KernelArray a;
        if (file != null) {
            a = p.fromDoubles(file.columnMajor());
        } else {
            System.err.println("building input: " + batch + " x covariance " + n + " x " + n + " (" + p + ")");
            a = Inputs.covariances(p, n, batch, seed.seed);
        }
        KernelArray original = a;
        Timing t;
        KernelArray l;
        try {
            if (batch == 1) {
                try (CholeskyRun c = new CholeskyRun(device, a, n, outer, deviceKernels, lookahead, outerGemm, restGroups, splitNext)) {
                    t = Timing.measure("cholesky", run, () -> c.execute().kernelMillis());
                    l = run.verify() ? c.factor().l() : null;
                }
            } else {
                InputChecks.finiteLower("A", a, n, batch);
                IntArray info = new IntArray(batch);
                KernelArray work = p.allocate((long) n * n * batch);
                // factor a device copy: on the JVM the input itself would be overwritten and refactored
                LaunchSequence seq = new LaunchSequence("potrf_batched");
                seq.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, a, info);
                // warp-loop reads a and writes work in one launch; group copies the lower triangle first
                BatchedCholesky.appendOutOfPlace(seq, a, 0, work, 0, n, n * n, n, batch, info, 0, 0, small);
                seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, info);
                try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
                    t = Timing.measure("cholesky", run, () -> {
                        info.init(Integer.MAX_VALUE);
                        return plan.execute().profile().kernelMillis();
                    });
                    info.init(Integer.MAX_VALUE);
                    ExecutionResult r = plan.execute();
                    for (int e = 0; e < batch; e++) {
                        if (info.get(e) != Integer.MAX_VALUE) {
                            throw new IllegalArgumentException("matrix " + e + " is not positive definite: pivot " + info.get(e) + " (use fp64)");
                        }
                    }
                    if (run.verify()) r.transferToHost(work);
                    l = work;
                }
            }
        } catch (NotPositiveDefiniteException e) {
            throw new IllegalArgumentException((matrix != null ? "--matrix " + matrix + ": " : "") + e.getMessage()
                    + (matrix != null ? " (Cholesky needs a symmetric positive definite matrix)" : " (use fp64)"));
        }
        double residual = Double.NaN, logDet = Double.NaN, logLik = Double.NaN;
        boolean ok = true;
        if (run.verify()) {
            System.err.println("verifying ...");
            residual = Probes.cholesky(n, batch, l, original);
            ok = residual <= 50 * p.epsilon() * Math.sqrt(n) * 4;
            if (batch == 1) {
                CholeskyFactor f = new CholeskyFactor(l, n);
                logDet = f.logDeterminant();
                KernelArray y = p.fromDoubles(new java.util.SplittableRandom(seed.seed).doubles(n, -1, 1).toArray());
                logLik = f.gaussianLogLikelihood(device, y);
            }
        }
        print(System.out, device, p, t, flops, residual, logDet, logLik, ok, device.info().type() == DeviceType.JVM && !lookahead ? LoopCholesky.BLOCK : outer);
        if (profile) {
            System.err.println("profiling phases (block " + outer + ") ...");
            printProfile(System.out, device, PhaseProfile.measure(device, original, n, outer, run.repeat(), deviceKernels), outer);
        }
        return ok ? 0 : 1;
    }

    private void print(PrintStream out, Device device, Precision p, Timing t, double flops, double residual, double logDet, double logLik, boolean ok, int outer) {
        if (run.json()) {
            JsonOutput.print(out, new Result("cholesky", matrix == null ? null : matrix.toString(), n, outer, batch, kernelLabel(), p.toString(), device.id(),
                    t.medianMs(), t.minMs(), t.gflops(flops), run.verify(), Report.orNull(run.verify(), residual), Report.orNull(run.verify() && batch == 1, logDet),
                    Report.orNull(run.verify() && batch == 1, logLik), ok));
            return;
        }
        out.println(String.format(Locale.ROOT, "cholesky n=%d block=%d batch=%d kernel=%s %s on %s (%s): %.3f ms median, %.3f ms min, %.1f GFLOP/s",
                n, outer, batch, kernelLabel(), p, device.id(), device.info().name(), t.medianMs(), t.minMs(), t.gflops(flops)));
        if (run.verify()) {
            out.println(String.format(Locale.ROOT, "residual |LL^T v - A v|/|A v| = %.3e %s", residual, Report.verdict(ok)));
            if (batch == 1) out.println(String.format(Locale.ROOT, "log det A = %.6f, GP log-likelihood of a random y = %.6f", logDet, logLik));
        }
    }

    /** The batched kernel's name, or "blocked" for one matrix. */
    private String kernelLabel() {
        return batch > 1 ? SmallCholeskyKernel.parse(kernel).cliName() : blockedLabel;
    }

    /** "blocked", "blocked-mma" where the panel and trailing GEMMs run on FP64 tensor cores, or "blocked-gemm-NAME" with --gemm-kernel NAME; "-lookahead" appended with --lookahead. */
    private String blockedLabel = "blocked";

    private void printProfile(PrintStream out, Device device, java.util.List<PhaseProfile.Row> rows, int outer) {
        double total = rows.get(rows.size() - 1).medianMs();
        for (PhaseProfile.Row r : rows) {
            if (run.json()) {
                JsonOutput.print(out, new PhaseResult("cholesky-profile", n, outer, device.id(), r.label(), r.launches(), r.medianMs(), r.minMs(), r.medianMs() / total));
            } else {
                out.println(String.format(Locale.ROOT, "phase %-17s %6d launches %10.3f ms median %10.3f ms min %6.1f%%",
                        r.label(), r.launches(), r.medianMs(), r.minMs(), 100 * r.medianMs() / total));
            }
        }
    }
}
