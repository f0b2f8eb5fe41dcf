package dev.squall.sparse.cli;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrReorder;
import dev.squall.sparse.inspect.Colouring;
import dev.squall.sparse.inspect.DependenceGraph;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.sparse.solve.Sweeper;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
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

/** {@code squall gs}: inspect a matrix into level sets or colours and time Gauss-Seidel sweeps on a device. */
@Command(name = "gs", header = "Gauss-Seidel sweeps scheduled by level sets or colours, with inspector cost and GB/s.",
        sortOptions = false,
        description = {"Gauss-Seidel x <- (D + L)^-1 (b - U x) on a device. The inspector builds the dependence graph of the sparsity"
                + " pattern and either level sets (wavefronts: exactly the sequential sweep in natural order) or greedy colours (the"
                + " sequential sweep in colour order), chosen from rows per level with --schedule auto. The executor runs one launch per"
                + " level or colour, narrow levels (at most --chain-max rows) walked by one work-group in a single launch, with the matrix,"
                + " b and x resident. Reports levels/colours, rows per group, the inspector's time and its cost in SpMV-equivalents,"
                + " launches and time per sweep, GB/s of counted bytes (entries once, row pointers, diagonal positions, schedule, b and x"
                + " once each per sweep) and its ratio to the device's copy bandwidth. b = A * ones; x starts at 0.",
                "",
                "Examples (files from the repository root):",
                "  squall gs --generate hpcg:16 --schedule auto --sweeps 20 --verify",
                "  squall gs --matrix bench/data/1138_bus.mtx --schedule levelset --direction forward --device jvm --json",
                "  squall gs --generate hpcg:64 --schedule multicolor --sweeps 20 --device cuda:0 --verify   # needs a GPU",
                "",
                "A row with a missing or zero diagonal is bad input (exit 2, the row named)."},
        footer = {"", ExitCode.HELP})
@RunDefaults(repeat = 3)
public final class GsCommand implements SquallSubcommand {
    static final class Source {
        @Option(names = "--matrix", paramLabel = "F.mtx", description = "Matrix Market file (square, every diagonal entry nonzero)") Path matrix;
        @Option(names = "--generate", paramLabel = "NAME:SIZE", description = "generated matrix, e.g. 27pt:64x64x64 or hpcg:64") String generate;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--schedule", paramLabel = "S", defaultValue = "auto", description = {"auto, levelset, multicolor, syncfree (natural order, one launch a sweep: each row waits on the rows",
            "it reads; on a lower-triangular matrix with --direction forward, the sync-free triangular solve) or syncfree-levels",
            "(the same with rows taken in level order); syncfree-warp, syncfree-warp-levels: the same waiting by warps of 32",
            "rows (one spinning lane a warp); syncfree-lanes, syncfree-lanes-levels: by warps with lanes sharing each row",
            "(lanes per row: the power of two at least half the mean row length, or -Dsquall.sparse.syncFreeLanes=N);",
            "syncfree-lanes-levels walks the levels in one work-group instead (one launch, a barrier a level, values in local",
            "memory) when the matrix has at most 4096 rows, and takes at least 8 lanes a row over levels of 1024 rows or more",
            "(default auto: level sets or colours, the reason printed)"})
    String schedule;

    @Option(names = "--direction", paramLabel = "D", defaultValue = "symmetric", description = "forward, backward or symmetric (default symmetric)")
    String direction;

    @Option(names = "--sweeps", paramLabel = "N", defaultValue = "10", description = "sweeps per timed run (default 10)")
    int sweeps;

    @Option(names = "--chain-max", paramLabel = "ROWS", defaultValue = "" + (2 * SolverKernels.GROUP),
            description = "widest level walked inside a single-work-group chain; 0 gives every level its own launch (default 512)")
    int chainMax;

    @Option(names = "--layout", paramLabel = "L", defaultValue = "auto",
            description = {"where sweeps read the matrix: csr (its CSR arrays), ell (a copy in schedule order, column-major:",
                    "coalesced on GPUs), dia (as ell, values only, columns from at most 64 diagonals: stencils) or auto (on GPUs dia",
                    "when at most 32 diagonals pad by at most 25%%, else ell when padding adds at most 25%%, else csr; default)"})
    String layout;

    @Option(names = "--triangle", paramLabel = "T", defaultValue = "none",
            description = {"none (default), lower or upper: sweep the matrix's triangle, diagonal included; a forward sweep over the",
                    "lower triangle (backward over the upper) is the triangular solve, each sweep a whole solve"})
    String triangle;

    @Option(names = "--reorder", paramLabel = "R", defaultValue = "none",
            description = "none (default) or multicolor: permute the matrix symmetrically into greedy colour order first (P A P^T)")
    String reorder;

    @Mixin
    RunOptions run;

    /**
     * {@code --json} result (schema in tornado-tasks/cli/JSON.md): the matrix (", multicolour order" and ", lower
     * triangle" appended with --reorder and --triangle), rows, entries, device, precision, the schedule (level sets or
     * colours; sync-free sweeps report the level sets of their rows, and say so in the reason and the layout), why, its groups and rows per group, backward groups, dependence edges, inspector
     * time (ms) and its cost in SpMVs, layout, direction, sweeps, launches per sweep, chained groups, first run (ms), ms per
     * sweep, counted bytes per sweep (CSR, as the issue counts), GB/s, GFLOP/s, copy bandwidth and the ratio to it, the
     * bytes the layout itself moves per sweep with its GB/s and ratio to copy, the relative residual after the
     * sweeps, whether --verify ran, its relative error against the sequential sweeps, and {@code ok}.
     */
    public record Result(String command, String matrix, int rows, long nnz, String device, String precision, String schedule, String reason, int groups,
                         int rowsPerGroupMin, double rowsPerGroupMean, int rowsPerGroupMax, int backwardGroups, long dependenceEdges, double inspectorMs,
                         double spmvMs, double inspectorSpmvEquivalents, String layout, String direction, int sweeps, int launchesPerSweep, int chainedGroups,
                         double firstRunMs, double msPerSweep, double countedBytesPerSweep, double gbs, double gflops, double copyGbs, double ratioToCopy,
                         double layoutBytesPerSweep, double layoutGbs, double layoutRatioToCopy,
                         double relativeResidual, boolean verified, Double relError, boolean ok) {
    }

    @Override
    public Integer call() throws IOException {
        Sizes.inRange("--sweeps", sweeps, 1, Integer.MAX_VALUE);
        int repeat = run.repeat();
        boolean verify = run.verify();
        if (chainMax < 0) throw new IllegalArgumentException("--chain-max " + chainMax + " must be at least 0");
        GaussSeidel.Direction dir = switch (direction.strip().toLowerCase(Locale.ROOT)) {
            case "forward" -> GaussSeidel.Direction.FORWARD;
            case "backward" -> GaussSeidel.Direction.BACKWARD;
            case "symmetric" -> GaussSeidel.Direction.SYMMETRIC;
            default -> throw new IllegalArgumentException("--direction must be forward, backward or symmetric, got '" + direction + "'");
        };
        GaussSeidel.Ordering ordering = GaussSeidel.Ordering.parse(schedule);
        Sweeper.Layout lay = Sweeper.Layout.parse(layout);
        Precision p = run.precision();
        Device dev = run.device();
        progress("loading " + (source.matrix != null ? source.matrix : source.generate));
        SolverInput in = SolverInput.load(source.matrix, source.generate);
        CsrMatrix a = in.matrix();
        String name = in.name();
        String tri = triangle.strip().toLowerCase(Locale.ROOT);
        String ro = reorder.strip().toLowerCase(Locale.ROOT);
        if (!tri.matches("none|lower|upper")) throw new IllegalArgumentException("--triangle must be none, lower or upper, got '" + triangle + "'");
        if (!ro.matches("none|multicolor|multicolour")) throw new IllegalArgumentException("--reorder must be none or multicolor, got '" + reorder + "'");
        if (!ro.equals("none") || !tri.equals("none")) {
            progress("reordering / cutting the triangle");
            int[] order = ro.equals("none") ? null : Colouring.greedy(DependenceGraph.of(a)).order();
            if (a.rows() != a.cols()) throw new IllegalArgumentException(name + " is " + a.rows() + " x " + a.cols() + ": a sweep needs a square matrix");
            a = tri.equals("none") ? CsrReorder.permuted(a, order) : CsrReorder.triangle(a, order, tri.equals("lower"));
            name += (order != null ? ", multicolour order" : "") + (tri.equals("none") ? "" : ", " + tri + " triangle");
        }
        progress("measuring copy bandwidth and one SpMV on " + dev.id());
        double copyGbs = SolverInput.copyGbs(dev);
        double spmvMs = SolverInput.spmvMillis(a, p, dev);
        progress("inspecting");
        try (GaussSeidel gs = GaussSeidel.create(a, ordering, p, dev, chainMax, lay)) {
            GaussSeidel.Plan plan = gs.plan();
            double[] b = ReferenceSpmv.multiply(a, ones(a.rows()));
            double[] x0 = new double[a.rows()];
            gs.setB(b);
            gs.setX(x0);
            long f0 = System.nanoTime();
            gs.sweep(dir, sweeps); // builds kernels, copies the matrix
            double firstMs = (System.nanoTime() - f0) / 1e6;
            double[] got = gs.x();
            progress("timing " + repeat + " runs of " + sweeps + " sweeps");
            double[] ms = new double[repeat];
            try (Progress bar = Progress.open(run.progress(), "gs", repeat, "runs")) {
                for (int r = 0; r < repeat; r++, bar.step()) ms[r] = gs.sweep(dir, sweeps) / sweeps;
            }
            Arrays.sort(ms);
            double perSweep = ms[repeat / 2];
            int halves = dir == GaussSeidel.Direction.SYMMETRIC ? 2 : 1;
            Sweeper sw = gs.sweeper();
            int launches = (dir != GaussSeidel.Direction.BACKWARD ? sw.forwardLaunches() : 0) + (dir != GaussSeidel.Direction.FORWARD ? sw.backwardLaunches() : 0);
            double bytes = halves * (a.nnz() * (4.0 + p.bytes()) + a.rows() * (4.0 * 3 + 3.0 * p.bytes()));
            double gbs = bytes / (perSweep * 1e-3) / 1e9;
            double layoutBytes = halves * sw.bytesPerHalfSweep();
            double layoutGbs = layoutBytes / (perSweep * 1e-3) / 1e9;
            double gflops = halves * 2.0 * a.nnz() / (perSweep * 1e-3) / 1e9;
            double relErr = Double.NaN;
            boolean ok = true;
            if (verify) {
                double[] want = new double[a.rows()];
                boolean levels = plan.forward().kind() == Schedule.Kind.FORWARD_LEVELS;
                int[] fo = levels ? ReferenceSolvers.natural(a.rows()) : plan.forward().order();
                int[] bo = levels ? ReferenceSolvers.reversed(a.rows()) : plan.backward().order();
                for (int s = 0; s < sweeps; s++) {
                    if (dir != GaussSeidel.Direction.BACKWARD) ReferenceSolvers.gaussSeidel(a, b, want, fo);
                    if (dir != GaussSeidel.Direction.FORWARD) ReferenceSolvers.gaussSeidel(a, b, want, bo);
                }
                double num = 0, den = 0;
                for (int i = 0; i < want.length; i++) {
                    double e = got[i] - want[i];
                    num += Double.isNaN(e) ? Double.POSITIVE_INFINITY : e * e;
                    den += want[i] * want[i];
                }
                relErr = den == 0 ? Math.sqrt(num) : Math.sqrt(num / den);
                ok = relErr <= (p == Precision.FP64 ? 1e-10 : 1e-4);
            }
            double resid = ReferenceSolvers.residualNorm(a, b, got) / ReferenceSolvers.norm(b);
            if (run.json()) {
                JsonOutput.print(new Result("gs", name, a.rows(), a.nnz(), dev.id(), p.name().toLowerCase(Locale.ROOT), plan.forward().kind().text(),
                        plan.reason(), plan.forward().groups(), plan.forward().minRows(), plan.forward().meanRows(), plan.forward().maxRows(),
                        plan.backward().groups(), plan.edges(), plan.inspectorMillis(), spmvMs, plan.inspectorMillis() / spmvMs, sw.layout(),
                        dir.name().toLowerCase(Locale.ROOT), sweeps, launches, sw.chainedGroups(), firstMs, perSweep, bytes, gbs, gflops, copyGbs,
                        gbs / copyGbs, layoutBytes, layoutGbs, layoutGbs / copyGbs, resid, verify, verify ? relErr : null, ok));
            } else {
                System.out.printf(Locale.ROOT, "matrix     %s: %d rows, %d entries, %d dependence edges%n", name, a.rows(), a.nnz(), plan.edges());
                System.out.printf(Locale.ROOT, "device     %s, %s%n", dev.id(), p.name().toLowerCase(Locale.ROOT));
                System.out.printf(Locale.ROOT, "schedule   %s (%s)%n", plan.forward().describe(), plan.reason());
                System.out.printf(Locale.ROOT, "           rows per group %s; backward: %s%n", plan.forward().rowsPerGroup(12), plan.backward().describe());
                System.out.printf(Locale.ROOT, "inspector  %.3f ms = %.1f SpMV-equivalents (one SpMV %.4f ms on this device)%n",
                        plan.inspectorMillis(), plan.inspectorMillis() / spmvMs, spmvMs);
                System.out.printf(Locale.ROOT, "executor   %s, %s: %d launches (%d groups chained, chain-max %d), first run incl. build+upload %.1f ms%n",
                        dir.name().toLowerCase(Locale.ROOT), sw.layout(), launches, sw.chainedGroups(), chainMax, firstMs);
                System.out.printf(Locale.ROOT, "time       %.4f ms per sweep (median of %d runs of %d sweeps)%n", perSweep, repeat, sweeps);
                System.out.printf(Locale.ROOT, "rate       %.2f GFLOP/s, %.1f GB/s counted, %.0f%% of copy bandwidth %.1f GB/s%n", gflops, gbs, 100 * gbs / copyGbs, copyGbs);
                System.out.printf(Locale.ROOT, "           %.1f GB/s of the bytes this layout moves (%.0f%% of copy bandwidth)%n", layoutGbs, 100 * layoutGbs / copyGbs);
                System.out.printf(Locale.ROOT, "residual   ||b - Ax|| / ||b|| = %.3e after %d sweeps from x = 0%n", resid, sweeps);
                if (verify) System.out.printf(Locale.ROOT, "verify     relative error %.3e against the sequential sweeps in the schedule's order: %s%n", relErr, ok ? "ok" : "FAILED");
            }
            return ok ? 0 : 1;
        }
    }

    static double[] ones(int n) {
        double[] v = new double[n];
        Arrays.fill(v, 1);
        return v;
    }

    private void progress(String s) {
        System.err.println("gs: " + s);
    }
}
