package dev.squall.sparse.cli;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.multigrid.StencilMultigrid;
import dev.squall.sparse.precond.Ilu0Preconditioner;
import dev.squall.sparse.precond.JacobiPreconditioner;
import dev.squall.sparse.precond.Preconditioner;
import dev.squall.sparse.precond.SinglePrecisionPreconditioner;
import dev.squall.sparse.precond.SymGsPreconditioner;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.solve.Pcg;
import dev.squall.sparse.solve.Sweeper;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
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

/** {@code squall pcg}: preconditioned conjugate gradients on a device, with residual history and rates. */
@Command(name = "pcg", header = "Preconditioned conjugate gradients (Jacobi, symmetric GS, ILU(0), multigrid) on a device.",
        sortOptions = false,
        description = {"Solves A x = b (b = A * ones, x0 = 0) by CG to ||r|| <= tol ||b||, with every vector and the scalars of the"
                + " recurrence resident on the device; the host reads back three scalars per iteration. Preconditioners: none, jacobi, gs"
                + " (symmetric Gauss-Seidel on level sets or colours, see squall gs), ilu0 (factorised on the device by level sets;"
                + " level-scheduled triangular solves), mg (HPCG's V-cycle on the halved grids of a generated 7- or 27-point stencil,"
                + " symmetric GS smoother, injection). Reports setup (inspectors, factorisation) apart from the solve, iterations, the"
                + " final residual, time per iteration, GFLOP/s as HPCG counts, GB/s of counted bytes and its ratio to the device's copy"
                + " bandwidth. Not converging within --max-iter is a failed check (exit 1, status and iteration named).",
                "",
                "Examples (files from the repository root):",
                "  squall pcg --generate hpcg:16 --precond mg --tol 1e-8 --verify",
                "  squall pcg --matrix bench/data/1138_bus.mtx --precond ilu0 --max-iter 5000 --device jvm --json",
                "  squall pcg --generate hpcg:64 --precond mg --tol 1e-8 --device cuda:0 --verify   # needs a GPU"},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 1)
public final class PcgCommand implements SquallSubcommand {
    static final class Source {
        @Option(names = "--matrix", paramLabel = "F.mtx", description = "Matrix Market file (symmetric positive definite)") Path matrix;
        @Option(names = "--generate", paramLabel = "NAME:SIZE", description = "generated matrix, e.g. 27pt:64x64x64 or hpcg:64") String generate;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--precond", paramLabel = "M", defaultValue = "jacobi", description = "none, jacobi, gs (also symgs), ilu0 or mg (default jacobi)")
    String precond;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "auto", description = "for gs and mg smoothing: auto, levelset or multicolor; for gs also syncfree or syncfree-levels (one launch a sweep); "
            + "for ilu0's triangular solves: auto (level sets; the reason printed), "
            + "levelset, syncfree (rows in natural order) or syncfree-levels (rows in level order); for both syncfree-warp and "
            + "syncfree-warp-levels (waiting by warps of 32 rows), syncfree-lanes and syncfree-lanes-levels (warps with lanes sharing rows; in level order, matrices of at most 4096 rows walk the levels in one work-group) (default auto)")
    String schedule;

    @Option(names = "--tol", paramLabel = "T", defaultValue = "1e-8", description = "relative residual to reach (default 1e-8)")
    double tol;

    @Option(names = "--max-iter", paramLabel = "N", defaultValue = "1000", description = "iteration limit (default 1000)")
    int maxIter;

    @Option(names = "--mg-levels", paramLabel = "L", defaultValue = "4", description = "most multigrid levels (default 4, as HPCG)")
    int mgLevels;

    @Option(names = "--chain-max", paramLabel = "ROWS", defaultValue = "" + (2 * SolverKernels.GROUP),
            description = "widest level walked inside a single-work-group chain (default 512)")
    int chainMax;

    @Option(names = "--layout", paramLabel = "L", defaultValue = "auto", description = "for gs and mg smoothing: csr, ell, dia or auto (as squall gs)")
    String layout;

    @Option(names = "--format", paramLabel = "F", defaultValue = "auto", description = "SpMV format (as squall spmv) or auto (default)")
    String format;

    @Option(names = "--precond-precision", paramLabel = "P", defaultValue = "same",
            description = "same (the solve's precision, default) or fp32: the preconditioner's matrix, factors and sweeps in single precision"
                    + " inside an fp64 solve (r rounded to fp32, z widened back)")
    String precondPrecision;

    @Option(names = "--profile", description = "after the solve, time each part of an iteration alone (SpMV, dots, updates, each multigrid"
            + " level's smoothing, residual+restriction and prolongation) with its launches, --repeat runs each (median)")
    boolean profile;

    @Mixin
    RunOptions run;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the matrix, rows, entries, device, precision, the
     * preconditioner and its detail, the SpMV used, setup times (ms), status and message, iterations, the recurrence's
     * relative residual, solve wall and kernel time (ms), ms per iteration, GFLOP/s (as HPCG counts), GB/s, copy bandwidth
     * and the ratio to it, whether --verify ran, the true relative residual and max |x - 1| (null without --verify),
     * {@code ok} (converged, and verified when asked), kernel launches per iteration, the per-part profile (null without
     * --profile: name, multigrid level or -1, launches, median ms) and the residual history.
     */
    public record Result(String command, String matrix, int rows, long nnz, String device, String precision, String precond, String precondDetail,
                         String spmv, double precondSetupMs, double solverSetupMs, String status, String message, int iterations, double relResidual,
                         double solveMs, double kernelMs, double msPerIteration, double gflops, double gbs, double copyGbs, double ratioToCopy,
                         boolean verified, Double trueRelResidual, Double maxErrorVsOnes, boolean ok, int launchesPerIteration,
                         List<Pcg.PhaseTime> phases, double[] history) {
    }

    @Override
    public Integer call() throws IOException {
        boolean verify = run.verify();
        if (!(tol > 0) || tol >= 1) throw new IllegalArgumentException("--tol " + tol + " must lie in (0, 1)");
        if (maxIter < 1) throw new IllegalArgumentException("--max-iter " + maxIter + " must be at least 1");
        if (mgLevels < 1) throw new IllegalArgumentException("--mg-levels " + mgLevels + " must be at least 1");
        if (chainMax < 0) throw new IllegalArgumentException("--chain-max " + chainMax + " must be at least 0");
        String kind = precond.strip().toLowerCase(Locale.ROOT);
        if (!kind.matches("none|jacobi|gs|symgs|ilu0|mg")) throw new IllegalArgumentException("--precond must be none, jacobi, gs, ilu0 or mg, got '" + precond + "'");
        GaussSeidel.Ordering ordering = GaussSeidel.Ordering.parse(schedule);
        boolean syncFree = ordering.syncFree();
        if (syncFree && !kind.matches("gs|symgs|ilu0")) {
            throw new IllegalArgumentException("--schedule " + schedule + " applies to --precond gs and ilu0, not " + kind);
        }
        if (ordering == GaussSeidel.Ordering.COLOURS && kind.equals("ilu0")) {
            throw new IllegalArgumentException("--precond ilu0 takes --schedule auto, levelset, syncfree or syncfree-levels, not " + schedule
                    + ": ILU(0)'s factors depend on the row order");
        }
        Sweeper.Layout lay = Sweeper.Layout.parse(layout);
        SpmvFormat f = format.equalsIgnoreCase("auto") ? null : SpmvFormat.parse(format);
        Precision p = run.precision();
        Device dev = run.device();
        progress("loading " + (source.matrix != null ? source.matrix : source.generate));
        SolverInput in = SolverInput.load(source.matrix, source.generate);
        CsrMatrix a = in.matrix();
        if (kind.equals("mg") && in.points() == 0) {
            throw new IllegalArgumentException("--precond mg needs a generated 7- or 27-point stencil (--generate 27pt:NXxNYxNZ, 7pt:..., hpcg:N); "
                    + in.name() + " has no grid");
        }
        progress("measuring copy bandwidth on " + dev.id());
        double copyGbs = SolverInput.copyGbs(dev);
        progress("setting up " + kind);
        Precision pp = switch (precondPrecision.strip().toLowerCase(Locale.ROOT)) {
            case "same" -> p;
            case "fp32" -> Precision.FP32;
            default -> throw new IllegalArgumentException("--precond-precision must be same or fp32, got '" + precondPrecision + "'");
        };
        long s0 = System.nanoTime();
        DeviceMatrix m = kind.equals("none") ? null : DeviceMatrix.of(a, pp);
        Preconditioner pre = switch (kind) {
            case "jacobi" -> new JacobiPreconditioner(m, pp);
            case "gs", "symgs" -> new SymGsPreconditioner(m, GaussSeidel.Plan.of(a, ordering, dev), ordering, pp, chainMax, lay, dev.info().isGpu());
            case "ilu0" -> new Ilu0Preconditioner(m, pp, dev, chainMax, ordering);
            case "mg" -> StencilMultigrid.create(in.points(), in.dims(), m, pp, dev, mgLevels, ordering, chainMax, lay);
            default -> null;
        };
        if (pre != null && pp != p) pre = new SinglePrecisionPreconditioner(pre, a.rows());
        double precondMs = (System.nanoTime() - s0) / 1e6;
        double[] b = ReferenceSpmv.multiply(a, GsCommand.ones(a.rows()));
        try (Pcg cg = Pcg.create(a, pre, p, dev, f)) {
            progress("solving");
            Pcg.Result r;
            try (Progress bar = Progress.open(run.progress(), "pcg", maxIter, "iterations")) {
                r = cg.solve(b, tol, maxIter, bar::stepTo);
            }
            int its = Math.max(1, r.iterations());
            double perIt = r.kernelMillis() / its;
            double gflops = cg.flopsPerIteration() / (perIt * 1e-3) / 1e9;
            double gbs = cg.bytesPerIteration() / (perIt * 1e-3) / 1e9;
            double trueRel = Double.NaN;
            double errInf = Double.NaN;
            boolean ok = r.status() == Pcg.Status.CONVERGED;
            if (verify) {
                trueRel = ReferenceSolvers.residualNorm(a, b, r.x()) / ReferenceSolvers.norm(b);
                errInf = 0;
                for (double v : r.x()) errInf = Math.max(errInf, Math.abs(v - 1));
                ok &= trueRel <= 10 * tol;
            }
            List<Pcg.PhaseTime> parts = null;
            if (profile) {
                progress("profiling the parts of an iteration");
                parts = cg.profilePhases(Math.max(3, run.repeat()));
            }
            String pd = pre == null ? "none" : pre.describe();
            if (run.json()) {
                JsonOutput.print(new Result("pcg", in.name(), a.rows(), a.nnz(), dev.id(), p.name().toLowerCase(Locale.ROOT), kind, pd, cg.spmvDetail(),
                        precondMs, cg.setupMillis(), r.status().name().toLowerCase(Locale.ROOT), r.message(), r.iterations(), r.relResidual(),
                        r.solveMillis(), r.kernelMillis(), perIt, gflops, gbs, copyGbs, gbs / copyGbs, verify, verify ? trueRel : null,
                        verify ? errInf : null, ok, cg.launchesPerIteration(), parts, r.history()));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %s: %d rows, %d entries%n", in.name(), a.rows(), a.nnz());
                System.out.printf(Locale.ROOT, "device     %s, %s; SpMV %s%n", dev.id(), p.name().toLowerCase(Locale.ROOT), cg.spmvDetail());
                System.out.printf(Locale.ROOT, "precond    %s%n", pd);
                System.out.printf(Locale.ROOT, "setup      preconditioner %.1f ms (inspectors, factorisation), solver %.1f ms (SpMV inspector, graphs)%n", precondMs, cg.setupMillis());
                System.out.printf(Locale.ROOT, "status     %s: %s%n", r.status().name().toLowerCase(Locale.ROOT), r.message());
                System.out.printf(Locale.ROOT, "solve      %d iterations, %.1f ms wall (first iteration builds kernels), %.4f ms device time per iteration%n",
                        r.iterations(), r.solveMillis(), perIt);
                System.out.printf(Locale.ROOT, "rate       %.2f GFLOP/s as HPCG counts, %.1f GB/s counted, %.0f%% of copy bandwidth %.1f GB/s%n", gflops, gbs, 100 * gbs / copyGbs, copyGbs);
                System.out.printf(Locale.ROOT, "launches   %d per iteration%n", cg.launchesPerIteration());
                if (parts != null) {
                    for (Pcg.PhaseTime t : parts) {
                        System.out.printf(Locale.ROOT, "part       %-28s %5d launches %9.4f ms (%4.1f%% of the iteration)%n", t.name(), t.launches(), t.ms(),
                                100 * t.ms() / parts.get(parts.size() - 1).ms());
                    }
                }
                System.out.printf(Locale.ROOT, "residual   ||r|| / ||b||: %s%n", historyLine(r.history()));
                if (verify) System.out.printf(Locale.ROOT, "verify     true ||b - Ax|| / ||b|| = %.3e, max |x - 1| = %.3e: %s%n", trueRel, errInf, ok ? "ok" : "FAILED");
            }
            return ok ? 0 : 1;
        }
    }

    static String historyLine(double[] h) {
        StringBuilder sb = new StringBuilder();
        int step = Math.max(1, (h.length + 9) / 10);
        for (int i = 0; i < h.length; i += step) sb.append(String.format(Locale.ROOT, "%d:%.2e ", i, h[i]));
        if ((h.length - 1) % step != 0) sb.append(String.format(Locale.ROOT, "%d:%.2e", h.length - 1, h[h.length - 1]));
        return sb.toString().strip();
    }

    private void progress(String s) {
        System.err.println("pcg: " + s);
    }
}
