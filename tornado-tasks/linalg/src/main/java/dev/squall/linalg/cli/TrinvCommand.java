package dev.squall.linalg.cli;

import dev.squall.linalg.plan.InputChecks;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.triangular.TriangularInverse;
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

import java.util.Locale;

/** {@code squall trinv}: batched lower-triangular inverse (Stan's diag_inv + multiply rounds). */
@Command(name = "trinv", header = "Lower-triangular inverse (Stan), one matrix, a batch, or a matrix from a file.",
        description = {"Invert B random lower-triangular n x n matrices (diagonal in [1,2], off-diagonal in [-1,1]/n), or a lower-triangular"
                + " matrix read from a Matrix Market file (--matrix), on a device: diag_inv on the diagonal blocks in one launch, then log2(n/tb)"
                + " rounds of C3 = -C2 A3 C1 as batched GEMMs. Prints the device time, GFLOP/s (n^3/3 per matrix) and, with --verify,"
                + " |L X v - v| / |v| over 3 random v.",
                "For n <= 64 the default --kernel warp inverts each matrix with one warp in a single launch (L in local memory, each lane"
                + " its own rows of the inverse); --kernel blocks runs diag_inv and the GEMM rounds at any n.",
                "",
                "Examples:",
                "  squall trinv --n 64 --batch 1000 --device jvm --verify",
                "  squall trinv --n 300 --block 16 --device jvm --verify",
                "  squall trinv --n 512 --precision fp32 --json",
                "  squall trinv --matrix bench/data/lower12.mtx --device jvm --verify",
                "  squall trinv --n 64 --batch 10000 --kernel blocks --block 32 --device cuda:0   # needs a GPU",
                "",
                "A zero on the diagonal is bad input (exit 2, the entry named)."},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5)
public final class TrinvCommand implements SquallSubcommand {
    @Option(names = "--n", paramLabel = "N", description = "matrix order (random input)")
    Integer n;

    @Option(names = "--matrix", paramLabel = "F.mtx", description = "invert this lower-triangular Matrix Market file instead (coordinate or array)")
    Path matrix;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "1", description = "number of matrices (default ${DEFAULT-VALUE})")
    int batch;

    @Option(names = "--block", paramLabel = "TB", defaultValue = "32", description = "diag_inv block size, 1..64 (default ${DEFAULT-VALUE})")
    int block;

    @Option(names = "--kernel", paramLabel = "K", description = "warp (n <= 64) or blocks (default: warp up to n = 64, else blocks)")
    String kernel;

    @Mixin
    RunOptions run;

    @Mixin
    SeedOption seed;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): sizes, kernel, diag_inv block, precision, device, launches per
     * inversion, device times of the timed runs (median and minimum, ms), GFLOP/s, whether --verify ran, its residual
     * |L X v - v| / |v| and {@code ok}.
     */
    public record Result(String command, String matrix, int n, int batch, String kernel, int block, String precision, String device, int launches,
                         double msMedian, double msMin, double gflops, boolean verified, Double residual, boolean ok) {
    }

    @Override
    public Integer call() throws IOException {
        if ((n == null) == (matrix == null)) throw new IllegalArgumentException("give --n N (random matrices) or --matrix F.mtx, not both or neither");
        Inputs.FileMatrix file = null;
        if (matrix != null) {
            if (batch != 1) throw new IllegalArgumentException("--matrix inverts one matrix; drop --batch " + batch);
            file = Inputs.read(matrix);
            Inputs.requireLower(matrix, file);
            n = file.n();
        }
        Sizes.inRange("--n", n, 1, Integer.MAX_VALUE);
        Sizes.inRange("--batch", batch, 1, Integer.MAX_VALUE);
        Sizes.inRange("--block", block, 1, 64);
        Sizes.intElements("--batch x --n^2", batch, n, n);
        String k = kernel == null ? (n <= 64 ? "warp" : "blocks") : kernel.toLowerCase(java.util.Locale.ROOT);
        if (!k.equals("warp") && !k.equals("blocks")) {
            throw new IllegalArgumentException("--kernel must be warp or blocks, got " + kernel);
        }
        if (!k.equals("blocks") && n > 64) throw new IllegalArgumentException("--kernel " + k + " needs --n <= 64, got " + n);
        Precision p = run.precision();
        Device device = run.device();
        KernelArray l = file != null ? p.fromDoubles(file.columnMajor()) : Inputs.lowerTriangular(p, n, batch, seed.seed);
        InputChecks.nonZeroDiagonal(matrix != null ? "--matrix " + matrix : "L", l, n, batch);
        double flops = (double) n * n * n / 3 * batch;
        CostEstimate.warnIfSlow(System.err, device, flops * (run.repeat() + 1), String.format(Locale.ROOT, "trinv n=%d batch=%d, %d runs", n, batch, run.repeat() + 1));
        KernelArray w = p.allocate((long) n * n * batch);
        LaunchSequence seq = new LaunchSequence("trinv");
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, l);
        if (k.equals("warp")) TriangularInverse.appendWarp(seq, l, 0, n, n * n, w, n, batch);
        else TriangularInverse.append(seq, l, 0, n, n * n, w, p.allocate(TriangularInverse.tempLength(n, batch)), n, batch, block);
        Timing t;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            t = Timing.ofKernels("trinv", plan, run);
            if (run.verify()) plan.execute().transferToHost(w);
        }
        double residual = run.verify() ? Probes.inverse(n, batch, l, w) : Double.NaN;
        boolean ok = !run.verify() || residual <= 50 * p.epsilon() * Math.sqrt(n) * 4;
        if (run.json()) {
            JsonOutput.print(new Result("trinv", matrix == null ? null : matrix.toString(), n, batch, k, block, p.toString(), device.id(), seq.launches(),
                    t.medianMs(), t.minMs(), t.gflops(flops), run.verify(), Report.orNull(run.verify(), residual), ok));
        } else {
            System.out.println(String.format(Locale.ROOT, "trinv n=%d batch=%d kernel=%s block=%d %s on %s (%s): %d launches, %.3f ms median, %.3f ms min, %.1f GFLOP/s",
                    n, batch, k, block, p, device.id(), device.info().name(), seq.launches(), t.medianMs(), t.minMs(), t.gflops(flops)));
            if (run.verify()) System.out.println(String.format(Locale.ROOT, "residual |L X v - v|/|v| = %.3e %s", residual, Report.verdict(ok)));
        }
        return ok ? 0 : 1;
    }
}
