package dev.squall.sparse.solve;

import dev.squall.sparse.exec.OneCall;
import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.precond.Phase;
import dev.squall.sparse.precond.Preconditioner;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.sparse.spmv.SpmvLaunches;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.ImmutableTaskGraph;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Preconditioned conjugate gradients on a device, from {@code x0 = 0}. Every vector and the scalars of the recurrence
 * (r^T z, p^T A p, r^T r) stay on the device; one task graph holds an iteration (SpMV through the sparse formats'
 * executors, p^T A p in two kernels, the step fused with the partial sums of r^T r, the preconditioner's launches,
 * r^T z whose finishing launch also completes r^T r, the new direction) and the host reads back only
 * the scalars after each iteration, to stop on the relative residual {@code ||r|| / ||b||} or on a breakdown.
 *
 * <pre>{@code
 * try (Pcg cg = Pcg.create(a, new JacobiPreconditioner(DeviceMatrix.of(a, p), p), p, device, null)) {
 *     Pcg.Result r = cg.solve(b, 1e-8, 1000, null);
 *     if (r.status() != Pcg.Status.CONVERGED) throw new IllegalStateException(r.message());
 * }
 * }</pre>
 */
public final class Pcg implements AutoCloseable {
    /** How a solve ended. */
    public enum Status {
        /** ||r|| / ||b|| reached the tolerance. */
        CONVERGED,
        /** The iteration limit came first. */
        MAX_ITERATIONS,
        /** p^T A p <= 0: A is not positive definite (negative curvature). */
        NOT_SPD,
        /** r^T z <= 0: the preconditioner is not positive definite. */
        PRECONDITIONER_NOT_SPD,
        /** The residual became NaN or grew past 1e10 ||b||. */
        DIVERGED,
        /** The residual made no new low for a whole stagnation window. */
        STAGNATED
    }

    /**
     * A solve's outcome.
     *
     * @param status         how it ended
     * @param iterations     iterations run
     * @param relResidual    the recurrence's ||r|| / ||b|| at the end
     * @param history        ||r|| / ||b|| after each iteration (index 0: before the first)
     * @param x              the iterate
     * @param message        a sentence on the end (for breakdowns: what and at which iteration)
     * @param solveMillis    wall time of the solve (setup graph, iterations, reading x)
     * @param kernelMillis   device time of the iterations' kernels
     */
    public record Result(Status status, int iterations, double relResidual, double[] history, double[] x, String message,
                         double solveMillis, double kernelMillis) {
    }

    private static int serial;

    private final CsrMatrix a;
    private final Precision p;
    private final Device device;
    private final Preconditioner m;
    private final int n;
    private final KernelArray b;
    private final KernelArray x;
    private final KernelArray r;
    private final KernelArray z;
    private final KernelArray dir;
    private final KernelArray ap;
    private final KernelArray s;
    private final String spmvDetail;
    private final SpmvFormat format;
    private final ExecutionPlan upload;
    private final ExecutionPlan setup;
    private final ExecutionPlan iteration;
    private final double setupMillis;
    private final List<Phase> phases;
    private final int launchesPerIteration;
    private final String id;
    private int stagnationWindow;
    private ExecutionResult last;

    /**
     * Device time of one part of an iteration run alone.
     *
     * @param name     the part ({@code spmv}, {@code dot pAp}, {@code step+norm}, {@code dot rz}, {@code direction}, or the
     *                 preconditioner's phases, e.g. {@code mg l0 smooth})
     * @param level    multigrid level, or -1
     * @param launches kernel launches of the part
     * @param ms       median device milliseconds (first launch to last completion)
     */
    public record PhaseTime(String name, int level, int launches, double ms) {
    }

    private Pcg(CsrMatrix a, Preconditioner m, Precision p, Device device, SpmvFormat format) {
        long t0 = System.nanoTime();
        if (a.rows() != a.cols()) throw new IllegalArgumentException("CG needs a square matrix, got " + a.rows() + " x " + a.cols());
        this.a = a;
        this.p = p;
        this.device = device;
        this.m = m;
        this.n = a.rows();
        int len = Math.max(1, n);
        this.b = p.allocate(len);
        this.x = p.allocate(len);
        this.r = p.allocate(len);
        this.z = m == null ? r : p.allocate(len);
        this.dir = p.allocate(len);
        this.ap = p.allocate(len);
        this.s = p.allocate(SolverKernels.SLOTS);
        KernelArray coef = p.fromDoubles(new double[] {1, 0});
        this.format = format != null ? format : FormatChooser.choose(a, device).format();
        SpmvLaunches.Bound spmv = SpmvLaunches.bind(a, this.format, p, device, dir, ap, coef);
        this.spmvDetail = this.format.cliName() + " (" + spmv.detail() + ")";
        VectorOps ops = new VectorOps(n, p, device);
        String id;
        synchronized (Pcg.class) {
            id = "pcg" + serial++;
        }
        this.upload = new ExecutionPlan(new TaskGraph(id + "in").transferToDevice(DataTransferMode.EVERY_EXECUTION, b).snapshot());
        upload.withDevice(device);

        TaskGraph sg = new TaskGraph(id + "setup");
        ops.zero(sg, "x0", x);
        ops.copy(sg, "r0", b, r);
        if (m != null) m.appendApply(sg, "m0", r, z);
        ops.dot(sg, "rz0", r, z, s, SolverKernels.RZ, -1);
        ops.dot(sg, "rr0", r, r, s, SolverKernels.RR, -1);
        ops.copy(sg, "p0", z, dir);
        this.setup = new ExecutionPlan(sg.snapshot());
        setup.withDevice(device);

        List<Phase> ps = new ArrayList<>();
        ps.add(new Phase("spmv", -1, g -> spmv.launches().appendTo(OneCall.in(g, ""))));
        ps.add(new Phase("dot pAp", -1, g -> ops.dot(g, "pap", dir, ap, s, SolverKernels.PAP, -1)));
        ps.add(new Phase("step+norm", -1, g -> ops.stepWithNorm(g, "step", x, r, dir, ap, s)));
        if (m != null) ps.addAll(m.phases("m", r, z));
        ps.add(new Phase("dot rz", -1, g -> ops.dotFinishingCarried(g, "rz", r, z, s, SolverKernels.RZ, SolverKernels.RZ_OLD, SolverKernels.RR)));
        ps.add(new Phase("direction", -1, g -> g.task("direction", SolverKernelVariants.cgDirection.at(p), dir, z, s, n)));
        this.phases = List.copyOf(ps);
        this.id = id;
        TaskGraph ig = new TaskGraph(id + "iter");
        spmv.launches().appendTo(OneCall.in(ig, ""));
        ops.dot(ig, "pap", dir, ap, s, SolverKernels.PAP, -1);
        ops.stepWithNorm(ig, "step", x, r, dir, ap, s);
        if (m != null) m.appendApply(ig, "m", r, z);
        ops.dotFinishingCarried(ig, "rz", r, z, s, SolverKernels.RZ, SolverKernels.RZ_OLD, SolverKernels.RR);
        ig.task("direction", SolverKernelVariants.cgDirection.at(p), dir, z, s, n);
        ImmutableTaskGraph igs = ig.snapshot();
        this.launchesPerIteration = igs.taskNames().size();
        this.iteration = new ExecutionPlan(igs);
        iteration.withDevice(device).withProfiler(true);
        this.stagnationWindow = Math.max(500, Math.min(n, 10_000));
        this.setupMillis = (System.nanoTime() - t0) / 1e6;
    }

    /**
     * CG on {@code a} with preconditioner {@code m} (null: none) on {@code device}; the SpMV runs in {@code format}
     * (null: the format {@link FormatChooser} picks for the device).
     *
     * @throws IllegalArgumentException if {@code a} is not square or the format cannot hold it
     */
    public static Pcg create(CsrMatrix a, Preconditioner m, Precision p, Device device, SpmvFormat format) {
        return new Pcg(a, m, p, device, format);
    }

    /**
     * Iterations without a new lowest residual after which a solve ends as {@link Status#STAGNATED}; default the order
     * of the matrix (CG's step count in exact arithmetic) between 500 and 10,000, since CG's residual is not monotone and
     * plateaus on ill-conditioned matrices before it falls again.
     */
    public Pcg withStagnationWindow(int iterations) {
        if (iterations < 1) throw new IllegalArgumentException("stagnation window " + iterations + " must be at least 1");
        this.stagnationWindow = iterations;
        return this;
    }

    /** Kernel launches of one iteration (SpMV, dots, updates, the preconditioner's). */
    public int launchesPerIteration() {
        return launchesPerIteration;
    }

    /**
     * Times each part of an iteration alone ({@code repeat} runs after one warm-up, median), each as its own plan on the
     * solver's device-resident vectors; the parts in iteration order, then {@code iteration}, the whole iteration timed
     * the same way (its excess over the parts' sum is the gaps between launches that the parts' own plans do not see
     * at their boundaries). Runs on whatever the vectors hold (times do not depend on the values) and leaves them
     * changed: call after {@link #solve}, whose result it does not touch.
     */
    public List<PhaseTime> profilePhases(int repeat) {
        List<PhaseTime> out = new ArrayList<>();
        int k = 0;
        for (Phase ph : phases) {
            TaskGraph g = new TaskGraph(id + "phase" + k++);
            ph.append().accept(g);
            ImmutableTaskGraph snap = g.snapshot();
            try (ExecutionPlan plan = new ExecutionPlan(snap)) {
                plan.withDevice(device).withProfiler(true);
                out.add(new PhaseTime(ph.name(), ph.level(), snap.taskNames().size(), medianMillis(plan, repeat)));
            }
        }
        out.add(new PhaseTime("iteration", -1, launchesPerIteration, medianMillis(iteration, repeat)));
        return out;
    }

    private static double medianMillis(ExecutionPlan plan, int repeat) {
        double[] ms = new double[Math.max(1, repeat)];
        for (int i = -1; i < ms.length; i++) {
            double t = plan.execute().profile().kernelMillis();
            if (i >= 0) ms[i] = t;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

    /** The SpMV format and its layout. */
    public String spmvDetail() {
        return spmvDetail;
    }

    /** Milliseconds to build the solver (SpMV inspector, graphs), the preconditioner's setup not included. */
    public double setupMillis() {
        return setupMillis;
    }

    /** Floating-point operations of one iteration as HPCG counts them (SpMV 2 nnz, 3 dots and 3 updates of 2n, the preconditioner). */
    public double flopsPerIteration() {
        return 2.0 * a.nnz() + 12.0 * n + (m == null ? 0 : m.flopsPerApply());
    }

    /** Bytes one iteration moves at least: the matrix once for the SpMV, the vectors of the dots and updates, the preconditioner's. */
    public double bytesPerIteration() {
        int v = p.bytes();
        return a.nnz() * (4.0 + v) + (n + 1) * 4.0 + 2.0 * n * v + 6.0 * n * v + 3.0 * n * v * 2 + (m == null ? 0 : m.bytesPerApply());
    }

    /**
     * Solves {@code A x = b} to {@code ||r|| <= tol ||b||} in at most {@code maxIter} iterations; {@code progress}
     * (nullable) hears the iteration number after each one.
     */
    public Result solve(double[] rhs, double tol, int maxIter, IntConsumer progress) {
        if (rhs.length != n) throw new IllegalArgumentException("b has " + rhs.length + " entries, the matrix has " + n + " rows");
        if (!(tol > 0) || tol >= 1) throw new IllegalArgumentException("tolerance " + tol + " must lie in (0, 1)");
        if (maxIter < 0) throw new IllegalArgumentException("max iterations " + maxIter + " must be at least 0");
        long t0 = System.nanoTime();
        Precision.write(b, rhs);
        upload.execute();
        double[] sc = scalars(setup.execute());
        double bnorm = Math.sqrt(sc[SolverKernels.RR]);
        double[] hist = new double[maxIter + 1];
        hist[0] = bnorm == 0 ? 0 : 1;
        if (bnorm == 0) return finish(Status.CONVERGED, 0, 0, hist, "b = 0: x = 0", t0, 0);
        if (!Double.isFinite(bnorm)) return finish(Status.DIVERGED, 0, Double.NaN, hist, "b holds a NaN or infinite value", t0, 0);
        if (!(sc[SolverKernels.RZ] > 0)) {
            return finish(Status.PRECONDITIONER_NOT_SPD, 0, 1, hist, String.format(Locale.ROOT,
                    "r^T z = %.3e <= 0 before the first iteration: the preconditioner is not positive definite", sc[SolverKernels.RZ]), t0, 0);
        }
        double kernel = 0;
        double best = 1;
        int bestAt = 0;
        for (int it = 1; it <= maxIter; it++) {
            ExecutionResult res = iteration.execute();
            kernel += res.profile().kernelMillis();
            sc = scalars(res);
            double rel = Math.sqrt(sc[SolverKernels.RR]) / bnorm;
            hist[it] = rel;
            if (progress != null) progress.accept(it);
            double pap = sc[SolverKernels.PAP];
            if (!(pap > 0) && Double.isFinite(pap)) {
                return finish(Status.NOT_SPD, it, rel, hist, String.format(Locale.ROOT,
                        "p^T A p = %.3e <= 0 at iteration %d: the matrix is not positive definite (negative curvature)", pap, it), t0, kernel);
            }
            if (!Double.isFinite(rel) || rel > 1e10) {
                return finish(Status.DIVERGED, it, rel, hist, String.format(Locale.ROOT,
                        "||r|| / ||b|| = %.3e at iteration %d (p^T A p = %.3e): diverged", rel, it, pap), t0, kernel);
            }
            if (rel <= tol) {
                return finish(Status.CONVERGED, it, rel, hist, String.format(Locale.ROOT, "||r|| / ||b|| = %.3e <= %.1e after %d iterations", rel, tol, it), t0, kernel);
            }
            if (!(sc[SolverKernels.RZ] > 0)) {
                return finish(Status.PRECONDITIONER_NOT_SPD, it, rel, hist, String.format(Locale.ROOT,
                        "r^T z = %.3e <= 0 at iteration %d: the preconditioner is not positive definite", sc[SolverKernels.RZ], it), t0, kernel);
            }
            if (rel < best) {
                best = rel;
                bestAt = it;
            } else if (it - bestAt >= stagnationWindow) {
                return finish(Status.STAGNATED, it, rel, hist, String.format(Locale.ROOT,
                        "no new lowest residual for %d iterations (best %.3e at iteration %d): stagnated", stagnationWindow, best, bestAt), t0, kernel);
            }
        }
        return finish(Status.MAX_ITERATIONS, maxIter, hist[maxIter], hist, String.format(Locale.ROOT,
                "||r|| / ||b|| = %.3e > %.1e after the limit of %d iterations", hist[maxIter], tol, maxIter), t0, kernel);
    }

    private double[] scalars(ExecutionResult res) {
        last = res;
        res.transferToHost(s);
        return Precision.read(s, SolverKernels.SLOTS);
    }

    private Result finish(Status st, int it, double rel, double[] hist, String msg, long t0, double kernel) {
        last.transferToHost(x);
        double[] xs = Precision.read(x, n);
        return new Result(st, it, rel, Arrays.copyOf(hist, it + 1), xs, msg, (System.nanoTime() - t0) / 1e6, kernel);
    }

    /** Releases the plans and the device copies of the solver's arrays. */
    @Override
    public void close() {
        for (ExecutionPlan e : new ExecutionPlan[] {iteration, setup, upload}) {
            e.freeDeviceMemory();
            e.close();
        }
    }
}
