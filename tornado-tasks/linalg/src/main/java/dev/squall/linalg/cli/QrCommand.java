package dev.squall.linalg.cli;

import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.qr.BatchedQr;
import dev.squall.linalg.qr.QrFactors;
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

/** {@code squall qr}: batched Householder QR of small random matrices. */
@Command(name = "qr", header = "Batched Householder QR of small matrices.",
        description = {"Householder QR of B random m x n matrices (n <= 64, entries in [-1, 1]), one work-group per matrix. Prints the"
                + " device time and GFLOP/s (2mn^2 - 2n^3/3 per matrix for R, twice that with --q); --verify checks |QR - A|/|A| and"
                + " |Q^T Q - I| on three matrices (with --q) or |R^T R - A^T A|/|A^T A| (without). Timed runs refactor the device copy"
                + " in place (same work, no pivoting).",
                "",
                "Examples:",
                "  squall qr --m 50 --n 20 --batch 10 --device jvm --verify",
                "  squall qr --m 64 --n 64 --batch 100 --precision fp32 --json",
                "  squall qr --m 128 --n 64 --batch 10000 --q --device cuda:0 --verify   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 5)
public final class QrCommand implements SquallSubcommand {
    @Mixin
    MatrixBatchOptions shape;

    @Option(names = "--q", description = "also form the thin Q (m x min(m, n))")
    boolean wantQ;

    @Mixin
    RunOptions run;

    @Mixin
    SeedOption seed;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): m, n, batch, whether Q was formed, precision, device, device times
     * (median and minimum, ms), GFLOP/s, whether --verify ran, the worst residual on three matrices, and {@code ok}.
     */
    public record Result(String command, int m, int n, int batch, boolean q, String precision, String device, double msMedian, double msMin,
                         double gflops, boolean verified, Double residual, boolean ok) {
    }

    @Override
    public Integer call() {
        shape.check();
        int m = shape.m, n = shape.n, batch = shape.batch;
        Precision p = run.precision();
        Device device = run.device();
        double[] input = new SplittableRandom(seed.seed).doubles((long) m * n * batch, -1, 1).toArray();
        KernelArray a = p.fromDoubles(input);
        int k = Math.min(m, n);
        KernelArray tau = p.allocate((long) k * batch), q = wantQ ? p.allocate((long) m * k * batch) : null;
        LaunchSequence seq = new LaunchSequence("qr");
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, a);
        BatchedQr.append(seq, a, m, n, batch, tau, q);
        Timing t;
        try (ExecutionPlan plan = seq.plan(device).withProfiler(true)) {
            t = Timing.ofKernels("qr", plan, run);
        }
        double perMatrix = 2.0 * m * k * n - 2.0 * k * k * k / 3;
        double flops = perMatrix * batch * (wantQ ? 2 : 1);
        double worst = Double.NaN;
        if (run.verify()) {
            System.err.println("verifying ...");
            QrFactors f = BatchedQr.factor(device, p.fromDoubles(input), m, n, batch, wantQ);
            worst = 0;
            for (int e : Report.sampled(batch)) {
                double[] ae = java.util.Arrays.copyOfRange(input, e * m * n, (e + 1) * m * n);
                worst = Math.max(worst, wantQ ? Math.max(QrChecks.reconstruction(m, n, f.q(e), f.r(e), ae), QrChecks.orthogonality(m, k, f.q(e)))
                        : QrChecks.gram(m, n, f.r(e), ae));
            }
        }
        boolean ok = !run.verify() || worst <= 100 * p.epsilon() * m;
        if (run.json()) {
            JsonOutput.print(new Result("qr", m, n, batch, wantQ, p.toString(), device.id(), t.medianMs(), t.minMs(), t.gflops(flops), run.verify(),
                    Report.orNull(run.verify(), worst), ok));
        } else {
            System.out.println(String.format(Locale.ROOT, "qr %dx%d batch=%d%s %s on %s: %.3f ms median, %.3f ms min, %.1f GFLOP/s",
                    m, n, batch, wantQ ? " with Q" : "", p, device.id(), t.medianMs(), t.minMs(), t.gflops(flops)));
            if (run.verify()) System.out.println(String.format(Locale.ROOT, "worst residual on 3 matrices = %.3e %s", worst, Report.verdict(ok)));
        }
        return ok ? 0 : 1;
    }
}
