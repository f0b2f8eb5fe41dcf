package dev.squall.linalg.cli;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.svd.BatchedSvd;
import dev.squall.linalg.svd.SvdResult;
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

import java.util.Locale;
import java.util.SplittableRandom;

/** {@code squall svd}: batched one-sided Jacobi SVD with truncation rank. */
@Command(name = "svd", header = "Batched one-sided Jacobi SVD with truncation rank.",
        description = {"Thin SVD of B random m x n matrices (m >= n, n <= 64) by one-sided Jacobi, one work-group per matrix, with the"
                + " truncation rank (singular values above --rel-tol times the largest). Inputs have a graded spectrum: column j of a"
                + " random matrix is scaled by 10^(-12 j / n), so the rank depends on --rel-tol. Prints the device time, the rank range"
                + " and the most sweeps; --verify checks |U S V^T - A|/|A| and |U^T U - I|, |V^T V - I| on three matrices. Not converging"
                + " within the sweep limit counts as a failed check (exit 1).",
                "",
                "Examples:",
                "  squall svd --m 40 --n 20 --batch 5 --device jvm --verify",
                "  squall svd --m 64 --n 32 --batch 100 --precision fp32 --rel-tol 1e-4 --json",
                "  squall svd --m 128 --n 64 --batch 10000 --rel-tol 1e-8 --device cuda:0 --verify   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5)
public final class SvdCommand implements SquallSubcommand {
    @Mixin
    MatrixBatchOptions shape;

    @Option(names = "--rel-tol", paramLabel = "T", defaultValue = "1e-8", description = "relative truncation threshold in [0, 1) (default ${DEFAULT-VALUE})")
    double relTol;

    @Mixin
    RunOptions run;

    @Mixin
    SeedOption seed;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): m, n, batch, the truncation threshold, precision, device, device
     * times (median and minimum, ms), the smallest and largest truncation rank, the most Jacobi sweeps, whether --verify
     * ran, the worst residual on three matrices, and {@code ok} (false also when a matrix did not converge).
     */
    public record Result(String command, int m, int n, int batch, double relTol, String precision, String device, double msMedian, double msMin,
                         int rankMin, int rankMax, int sweepsMax, boolean verified, Double residual, boolean ok) {
    }

    @Override
    public Integer call() {
        shape.check();
        int m = shape.m, n = shape.n, batch = shape.batch;
        if (m < n) throw new IllegalArgumentException("--m must be >= --n, got " + m + " x " + n);
        if (!(relTol >= 0 && relTol < 1)) throw new IllegalArgumentException("--rel-tol must be in [0, 1), got " + relTol);
        Sizes.intElements("--batch x (m n + n^2)", batch, (long) m * n + (long) n * n);
        Precision p = run.precision();
        Device device = run.device();
        double[] input = new SplittableRandom(seed.seed).doubles((long) m * n * batch, -1, 1).toArray();
        for (int e = 0; e < batch; e++) {
            for (int j = 0; j < n; j++) {
                double f = Math.pow(10, -12.0 * j / n);
                for (int i = 0; i < m; i++) input[e * m * n + i + j * m] *= f;
            }
        }
        KernelArray a = p.fromDoubles(input);
        KernelArray u = p.allocate((long) m * n * batch), s = p.allocate((long) n * batch), v = p.allocate((long) n * n * batch);
        KernelArray work = p.allocate(BatchedSvd.workLength(m, n, batch));
        IntArray rank = new IntArray(batch), sweeps = new IntArray(batch);
        LaunchSequence seq = new LaunchSequence("svd");
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, a);
        BatchedSvd.append(seq, a, m, n, batch, work, u, s, v, rank, sweeps, relTol);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, rank, sweeps);
        Timing t;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            t = Timing.ofKernels("svd", plan, run);
        }
        int minRank = Integer.MAX_VALUE, maxRank = 0, maxSweeps = 0;
        for (int e = 0; e < batch; e++) {
            minRank = Math.min(minRank, rank.get(e));
            maxRank = Math.max(maxRank, rank.get(e));
            maxSweeps = Math.max(maxSweeps, sweeps.get(e));
        }
        double worst = Double.NaN;
        if (run.verify()) {
            System.err.println("verifying ...");
            SvdResult r = BatchedSvd.decompose(device, p.fromDoubles(input), m, n, batch, relTol);
            worst = 0;
            for (int e : Report.sampled(batch)) {
                double[] ae = java.util.Arrays.copyOfRange(input, e * m * n, (e + 1) * m * n);
                worst = Math.max(worst, QrChecks.svdReconstruction(m, n, n, r.u(e, n), r.singularValues(e), r.v(e, n), ae));
                int kept = r.rank(e);
                worst = Math.max(worst, Math.max(QrChecks.orthogonality(m, kept, r.u(e, kept)), QrChecks.orthogonality(n, n, r.v(e, n))));
            }
        }
        boolean ok = maxSweeps <= BatchedSvd.MAX_SWEEPS && (!run.verify() || worst <= 100 * p.epsilon() * m);
        if (run.json()) {
            JsonOutput.print(new Result("svd", m, n, batch, relTol, p.toString(), device.id(), t.medianMs(), t.minMs(), minRank, maxRank, maxSweeps,
                    run.verify(), Report.orNull(run.verify(), worst), ok));
        } else {
            System.out.println(String.format(Locale.ROOT, "svd %dx%d batch=%d %s on %s: %.3f ms median, %.3f ms min; rank %d..%d at rel-tol %s; at most %d sweeps",
                    m, n, batch, p, device.id(), t.medianMs(), t.minMs(), minRank, maxRank, relTol, maxSweeps));
            if (run.verify()) System.out.println(String.format(Locale.ROOT, "worst residual on 3 matrices = %.3e %s", worst, Report.verdict(ok)));
        }
        return ok ? 0 : 1;
    }
}
