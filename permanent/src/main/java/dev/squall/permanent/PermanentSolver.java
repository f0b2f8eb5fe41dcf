package dev.squall.permanent;

import dev.squall.permanent.codegen.ColumnOrdering;
import dev.squall.permanent.codegen.GeneratedKernelPermanent;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.exact.BlockDoubles;
import dev.squall.permanent.exact.ExactReduction;
import dev.squall.permanent.exact.ExpandingReduction;
import dev.squall.permanent.exact.ExpansionTree;
import dev.squall.permanent.preprocess.BlockTriangularForm;
import dev.squall.permanent.exact.Fraction;
import dev.squall.permanent.exact.IntegerScaling;
import dev.squall.permanent.exact.RationalPermanent;
import dev.squall.permanent.frontier.DeviceFrontierPermanent;
import dev.squall.permanent.frontier.FrontierPermanent;
import dev.squall.permanent.frontier.FrontierPlan;
import dev.squall.permanent.cpu.RyserRoundingEstimate;
import dev.squall.permanent.kernel.DeviceRoundingEstimate;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.kernel.GenericKernelPermanent;
import dev.squall.permanent.kernel.LaunchPlan;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.Balancing;
import dev.squall.permanent.numeric.ScaledValue;
import dev.squall.permanent.preprocess.ColumnDegreeSort;
import dev.squall.permanent.preprocess.Reduction;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceType;
import dev.squall.tasks.runtime.Devices;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Computes matrix permanents: optional preprocessing (block-triangular split, degree
 * elimination), exact power-of-two row scaling, then the Gray-code phase of each block with the
 * chosen {@link Method} on the chosen device; block results multiply in a {@link ScaledValue}, so
 * a permanent outside the double range is detected rather than returned as garbage.
 *
 * <pre>{@code
 * PermanentResult r = new PermanentSolver().device(Devices.get("cuda:0")).method(Method.CODEGEN_HYBRID).solve(a);
 * System.out.println(r.value() + " via " + r.methodUsed() + ", " + r.stepsPerSecond() + " steps/s");
 * }</pre>
 */
public final class PermanentSolver {
    /** Blocks up to this order run on the JVM in AUTO mode: a device launch costs more than the sweep. */
    static final int AUTO_JVM_MAX_N = 20;

    private Device device = Devices.jvm();
    private Method method = Method.AUTO;
    private boolean decompose = true;
    private int threads = Runtime.getRuntime().availableProcessors();
    private ProgressListener progress = ProgressListener.NONE;

    private int minBlocksPerSm = 0;
    private boolean accurate = false;

    public PermanentSolver device(Device d) {
        this.device = d;
        return this;
    }

    public PermanentSolver method(Method m) {
        this.method = m;
        return this;
    }

    /**
     * Expansion of rows/columns with 3-4 nonzeros where it lowers the estimated cost (default on; needs
     * {@link #decompose}). Off: split and eliminate only.
     */
    public PermanentSolver expand(boolean on) {
        this.expand = on;
        return this;
    }

    private boolean expand = true;
    private java.util.function.ToDoubleFunction<SquareMatrix> expansionCost;

    /**
     * Replaces the estimated seconds of a block (given its 0/1 pattern) that decide whether to expand; package-private,
     * for tests that need expansion taken on matrices small enough to check exactly.
     */
    PermanentSolver expansionCost(java.util.function.ToDoubleFunction<SquareMatrix> seconds) {
        this.expansionCost = seconds;
        return this;
    }

    /** Switches the block-triangular split, degree elimination and expansion on or off (default on). */
    public PermanentSolver decompose(boolean on) {
        this.decompose = on;
        return this;
    }

    /** JVM worker threads (default: available processors). */
    public PermanentSolver threads(int t) {
        if (t < 1) throw new IllegalArgumentException("threads must be >= 1, got " + t);
        this.threads = t;
        return this;
    }

    /** CUDA generated kernels: launch bounds capping registers (0, the default: the compiler's choice). */
    public PermanentSolver minBlocksPerSm(int b) {
        new dev.squall.permanent.codegen.KernelSourceGenerator.Options(0, b); // validates the range
        this.minBlocksPerSm = b;
        return this;
    }

    /**
     * Generated kernels: a work-item rebuilds x every 2^r steps (default 16; 0: once per chunk). Shorter segments keep
     * the drift of x's rounding short, so the error and its estimate's drift part (which follows whole segments) shrink.
     */
    public PermanentSolver restartLog2(int r) {
        if (r != 0 && (r < 6 || r > 62)) throw new IllegalArgumentException("restart every 2^" + r + " steps: must be 0 (never) or 6..62");
        this.restartLog2 = r;
        return this;
    }

    private int restartLog2 = dev.squall.permanent.codegen.KernelSourceGenerator.DEFAULT_RESTART_LOG2;

    /**
     * Runs every Gray-code block as the double-double JVM sweep ({@link ChunkedJvmPermanent#accurate}),
     * whatever the method and device: about 10x slower, for matrices whose alternating sum cancels.
     */
    public PermanentSolver accurate(boolean on) {
        this.accurate = on;
        return this;
    }

    public PermanentSolver progress(ProgressListener p) {
        this.progress = p;
        return this;
    }

    /**
     * Relative tolerance (default 1e-8): a block whose error estimate exceeds its share of it is
     * recomputed by a stronger method (the frontier program, a double-double sweep, exact
     * arithmetic); when none meets it in reach, {@link #solve} throws {@link ToleranceNotMetException}.
     */
    public PermanentSolver tolerance(double tol) {
        if (!(tol > 0 && tol < 1)) throw new IllegalArgumentException("tolerance must be in (0, 1), got " + tol);
        this.tolerance = tol;
        return this;
    }

    /** Off: report the error estimate of the first method but never recompute or fail (default on). */
    public PermanentSolver escalate(boolean on) {
        this.escalate = on;
        return this;
    }

    private double tolerance = 1e-8;
    private boolean escalate = true;

    /**
     * Where the error estimate of a device sweep re-computes its sample: on that device ({@code true};
     * {@link DeviceRoundingEstimate}) or on the JVM threads after the sweep ({@code false}). Default: on GPUs, whose
     * thousands of work-items take the sample in milliseconds; a CPU OpenCL device shares its cores with the JVM, where
     * the sample runs without the device version's repeated walks.
     */
    public PermanentSolver estimateOnDevice(boolean on) {
        this.estimateOnDevice = on;
        return this;
    }

    private Boolean estimateOnDevice;

    /**
     * Estimated seconds of the sweep of the whole matrix, before preprocessing (which may split it into far cheaper
     * blocks): the Gray-code sweep by the method this solver would use, or the frontier program where that is cheaper.
     */
    public double expectedSeconds(SquareMatrix a) {
        int n = a.n();
        Device dev = accurate || (method == Method.AUTO && n <= AUTO_JVM_MAX_N) ? Devices.jvm() : device;
        double ryser = n <= NijenhuisWilf.MAX_N ? ryserSeconds(a, dev) * (accurate ? 10 : 1) : Double.POSITIVE_INFINITY;
        if (accurate || (method != Method.AUTO && n <= NijenhuisWilf.MAX_N)) return ryser;
        return Math.min(ryser, frontierSeconds(FrontierPlan.of(a)));
    }

    /**
     * @throws IllegalArgumentException  for an empty matrix, or a block no method here can take
     * @throws ToleranceNotMetException  when no method in reach meets the tolerance
     */
    public PermanentResult solve(SquareMatrix a) {
        if (a.n() == 0) throw new IllegalArgumentException("the matrix is empty (0 x 0): nothing to compute");
        if (!decompose) NijenhuisWilf.checkOrder(a.n());
        long t0 = System.nanoTime();
        // exact integer preprocessing: elimination, column merging and expansion introduce no rounding
        IntegerScaling scaling = IntegerScaling.ofBinary(a);
        ExpandingReduction reducer = new ExpandingReduction(expansionCost != null ? expansionCost : this::leafSeconds).expand(expand)
                .leafOverheadSeconds(onJvm(device) || method == Method.AUTO ? 2e-4 : 5e-3).searchOnly(this::ryserIsCheaper);
        ExpansionTree tree = decompose ? reducer.reduce(scaling.rows())
                : new ExpansionTree.Product(BigInteger.ONE, List.of(new ExpansionTree.Leaf(scaling.rows())));
        List<ExpansionTree.Leaf> leaves = tree.leaves();
        List<Integer> btf = new ArrayList<>();
        List<BlockTriangularForm.Block> top = decompose ? BlockTriangularForm.blocks(a) : List.of();
        if (top != null) for (BlockTriangularForm.Block b : top) btf.add(b.size());
        if (!decompose) btf.add(a.n());
        double preMillis = (System.nanoTime() - t0) / 1e6;
        for (ExpansionTree.Leaf leaf : leaves) {
            int n = leaf.order();
            if (n > NijenhuisWilf.MAX_N) {
                FrontierPlan plan = FrontierPlan.of(ExactReduction.pattern(leaf.block()));
                if (plan.width() > FrontierPlan.MAX_WIDTH) {
                    throw new IllegalArgumentException("after decomposition a block of order " + n + " remains; the Gray-code sweep supports n <= "
                            + NijenhuisWilf.MAX_N + " and its frontier width " + plan.width() + " exceeds " + FrontierPlan.MAX_WIDTH
                            + " (matrix " + a.n() + "x" + a.n() + ", blocks " + leaves.stream().map(ExpansionTree.Leaf::order).toList() + ")");
                }
            }
        }
        Evaluation ev = new Evaluation(new java.util.LinkedHashMap<>(), new ArrayList<>(), tolerance / (leaves.size() + 1), new long[1], new double[5]);
        long s0 = System.nanoTime();
        Eval root = eval(tree, ev);
        // products keep the blocks' relative errors (the tolerance was split among them); only sums of expansion terms can amplify them
        if (escalate && tree.expansions() > 0 && !withinTolerance(root, tolerance)) {
            // the expansion's terms cancel: every block needs the tolerance divided by the cancellation
            double amplification = root.value.isZero() ? Double.POSITIVE_INFINITY : Math.max(1, ratio(root.abs, root.value));
            double tighter = tolerance / ((leaves.size() + 1) * amplification * 2);
            if (!(tighter > 0)) tighter = Double.MIN_NORMAL;
            ev = new Evaluation(ev.cache, ev.generated, tighter, ev.steps, ev.estimateSeconds);
            root = eval(tree, ev);
            if (!withinTolerance(root, tolerance)) {
                throw new ToleranceNotMetException("cannot meet the relative tolerance " + tolerance + ": the " + tree.expansions()
                        + " expansion(s) sum terms that cancel (their magnitudes ~" + String.format(Locale.ROOT, "%.1e", amplification)
                        + " times the permanent) and the blocks' errors stay at relative " + String.format(Locale.ROOT, "%.1e", ratio(root.error, root.value))
                        + ". Raise --tol, use --no-expand, or --exact.");
            }
        }
        double blocksSeconds = (System.nanoTime() - s0) / 1e9;
        ScaledValue scale = Fraction.of(scaling.numerator(), scaling.denominator()).toScaled();
        ScaledValue value = root.value.times(scale);
        ScaledValue bound = root.error.times(scale.abs()).plus(value.abs().times(ScaledValue.of(0x1p-50)));
        if (root.exact != null && root.exact.signum() == 0) bound = ScaledValue.ZERO;
        Fraction exactValue = root.exact == null ? null : Fraction.of(root.exact.multiply(scaling.numerator()), scaling.denominator());
        if (exactValue != null) bound = value.abs().times(ScaledValue.of(0x1p-52));
        String kind = exactValue != null ? "exact" : root.rigorous ? "rigorous" : "estimate";
        // per distinct block: its final outcome and how often the tree uses it
        java.util.Map<BlockKey, Integer> uses = new java.util.HashMap<>();
        for (ExpansionTree.Leaf l : leaves) uses.merge(new BlockKey(l.block()), 1, Integer::sum);
        List<String> used = new ArrayList<>(), reasons = new ArrayList<>();
        List<PermanentResult.BlockReport> reports = new ArrayList<>();
        List<SquareMatrix> leafMatrices = new ArrayList<>();
        for (var e : ev.cache.entrySet()) {
            BlockOutcome o = e.getValue().outcome;
            used.add(o.method);
            reasons.add(o.reason);
            leafMatrices.add(e.getValue().doubles.matrix());
            reports.add(new PermanentResult.BlockReport(e.getKey().block.length, o.method, uses.getOrDefault(e.getKey(), 0),
                    o.value.isZero() ? (o.error.isZero() ? 0 : Double.POSITIVE_INFINITY) : ratio(o.error, o.value), o.seconds, o.reason));
        }
        boolean singular = root.exact != null && root.exact.signum() == 0 && leaves.isEmpty();
        Reduction red = new Reduction(ScaledValue.ONE, leafMatrices, btf, reducer.eliminated(), singular || (top == null && decompose));
        double gen = 0, build = 0, kernel = 0, deviceKernel = 0, transfer = 0;
        boolean cached = true;
        for (GeneratedKernelPermanent.Run g : ev.generated) {
            gen += g.generateMillis();
            build += g.buildMillis();
            kernel += g.kernelSeconds() * 1e3;
            deviceKernel += g.deviceKernelMillis();
            transfer += g.transferMillis();
            cached &= g.fromCache();
        }
        // the sweeps alone: the blocks' computation without kernel generation, builds and error estimates (which run after
        // each sweep, never beside it)
        double sweepSeconds = Math.max(0, blocksSeconds - ev.estimateSeconds[0] - (gen + build) / 1e3);
        double totalSeconds = (System.nanoTime() - t0) / 1e9;
        double ryserSweepMs = ev.estimateSeconds[1] * 1e3;
        PermanentResult.Timings timings = new PermanentResult.Timings(preMillis, blocksSeconds * 1e3, ev.estimateSeconds[0] * 1e3, gen, build,
                ev.generated.isEmpty() ? null : cached, kernel, totalSeconds * 1e3, deviceKernel, transfer, ryserSweepMs,
                ryserSweepMs > 0 ? ev.estimateSeconds[0] * 1e3 / ryserSweepMs : null, ev.estimateSeconds[3] > 0 ? ev.estimateSeconds[2] / ev.estimateSeconds[3] : null,
                ev.estimateSeconds[4] * 1e3);
        return new PermanentResult(value, red, used, ev.generated, ev.steps[0], sweepSeconds, preMillis, totalSeconds,
                bound, kind, exactValue, reasons, tree.expansions(), leaves.size(), reports, timings);
    }

    /**
     * Leaf outcomes by block content (a block reached along several expansion terms is computed once); estimateSeconds:
     * {error estimates' seconds, Ryser sweeps' seconds, the estimates' work in double steps, the sweeps' steps, the estimates'
     * device seconds}.
     */
    private record Evaluation(java.util.Map<BlockKey, Cached> cache, List<GeneratedKernelPermanent.Run> generated, double leafTol, long[] steps,
                              double[] estimateSeconds) {
    }

    private record Cached(BlockDoubles doubles, BlockOutcome outcome) {
    }

    /** An integer block as a map key (content equality). */
    private record BlockKey(BigInteger[][] block) {
        @Override
        public boolean equals(Object o) {
            return o instanceof BlockKey k && java.util.Arrays.deepEquals(block, k.block);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.deepHashCode(block);
        }
    }

    /** A node's value, absolute error, value of the same tree with every term's magnitude (for cancellation), exact value if known. */
    private record Eval(ScaledValue value, ScaledValue error, ScaledValue abs, BigInteger exact, boolean rigorous) {
    }

    private Eval eval(ExpansionTree t, Evaluation ev) {
        return switch (t) {
            case ExpansionTree.Leaf l -> {
                BlockKey key = new BlockKey(l.block());
                Cached c = ev.cache.get(key);
                if (c == null || !within(c.outcome, ev.leafTol)) {
                    BlockDoubles bd = c == null ? BlockDoubles.of(l.block()) : c.doubles;
                    long b0 = System.nanoTime();
                    BlockOutcome o = block(bd, l.block(), ev.leafTol, ev.generated, ev.estimateSeconds);
                    o = o.withSeconds((System.nanoTime() - b0) / 1e9);
                    ev.steps[0] += o.graySteps;
                    c = new Cached(bd, o);
                    ev.cache.put(key, c);
                }
                ScaledValue unit = ScaledValue.of(1, c.doubles.exponent());
                ScaledValue v = c.outcome.value.times(unit);
                yield new Eval(v, c.outcome.error.times(unit), v.abs(), c.outcome.exact, c.outcome.rigorous);
            }
            case ExpansionTree.Sum s -> {
                ScaledValue v = ScaledValue.ZERO, e = ScaledValue.ZERO, abs = ScaledValue.ZERO, mags = ScaledValue.ZERO;
                BigInteger exact = BigInteger.ZERO;
                boolean rigorous = true;
                for (ExpansionTree term : s.terms()) {
                    Eval x = eval(term, ev);
                    v = v.plus(x.value);
                    e = e.plus(x.error);
                    abs = abs.plus(x.abs);
                    mags = mags.plus(x.value.abs());
                    exact = exact == null || x.exact == null ? null : exact.add(x.exact);
                    rigorous &= x.rigorous;
                }
                // each addition rounds once: at most (terms) u times the sum of the magnitudes
                e = e.plus(mags.times(ScaledValue.of(0x1p-52 * (s.terms().size() + 1))));
                yield new Eval(v, e, abs, exact, rigorous);
            }
            case ExpansionTree.Product p -> {
                ScaledValue f = new Fraction(p.factor(), BigInteger.ONE).toScaled();
                ScaledValue v = f, abs = f.abs(), bounded = f.abs(); // bounded: |F| prod (|v| + e)
                BigInteger exact = p.factor();
                boolean rigorous = true, zero = false;
                double logRel = 0;
                for (ExpansionTree child : p.factors()) {
                    Eval x = eval(child, ev);
                    v = v.times(x.value);
                    abs = abs.times(x.abs);
                    bounded = bounded.times(x.value.abs().plus(x.error));
                    if (x.value.isZero()) zero = true;
                    else logRel += Math.log1p(ratio(x.error, x.value));
                    exact = exact == null || x.exact == null ? null : exact.multiply(x.exact);
                    rigorous &= x.rigorous;
                }
                double rounding = 0x1p-50 * (p.factors().size() + 2);
                ScaledValue e = zero ? bounded : v.abs().times(ScaledValue.of(finite(Math.expm1(logRel) + rounding)));
                yield new Eval(v, e, abs, exact, rigorous);
            }
        };
    }

    private static boolean withinTolerance(Eval e, double tol) {
        if (e.exact != null) return true;
        if (e.value.isZero()) return e.error.isZero();
        return ratio(e.error, e.value) <= tol;
    }

    /**
     * Estimated seconds of a Ryser block's error estimate on the JVM threads: its sampled steps (every step of a small
     * block) once in double and once in double-double, about 10 times a double step.
     */
    private double estimateSeconds(int n) {
        return RyserRoundingEstimate.sampleSteps(n, 1) * (double) n * 10 / (threads * 1.5e9);
    }

    /** Whether Gray-code Ryser is the cheaper sweep for this block (pattern): only then can expansion pay. */
    private boolean ryserIsCheaper(SquareMatrix pattern) {
        int n = pattern.n();
        if (n > NijenhuisWilf.MAX_N) return false;
        if (method != Method.AUTO) return true;
        Device dev = accurate || n <= AUTO_JVM_MAX_N ? Devices.jvm() : device;
        return ryserSeconds(pattern, dev) + estimateSeconds(n) <= frontierSeconds(FrontierPlan.of(pattern));
    }

    /** Estimated seconds of the sweep of an irreducible block (pattern): the cheaper of Ryser and the frontier program here. */
    private double leafSeconds(SquareMatrix pattern) {
        int n = pattern.n();
        Device dev = accurate || (method == Method.AUTO && n <= AUTO_JVM_MAX_N) ? Devices.jvm() : device;
        double ryser = n <= NijenhuisWilf.MAX_N ? ryserSeconds(pattern, dev) + estimateSeconds(n) : Double.POSITIVE_INFINITY;
        if (method != Method.AUTO && n <= NijenhuisWilf.MAX_N) return ryser;
        return Math.min(ryser, frontierSeconds(FrontierPlan.of(pattern)));
    }

    /** One block's value (times 2^-exponent of its doubles), error, and how it was obtained. */
    private record BlockOutcome(ScaledValue value, ScaledValue error, boolean rigorous, BigInteger exact, String method, String reason, long graySteps,
                                double seconds) {
        BlockOutcome(ScaledValue value, ScaledValue error, boolean rigorous, BigInteger exact, String method, String reason, long graySteps) {
            this(value, error, rigorous, exact, method, reason, graySteps, 0);
        }

        BlockOutcome withSeconds(double s) {
            return new BlockOutcome(value, error, rigorous, exact, method, reason, graySteps, s);
        }
    }

    /** |a| / |b| as a double (infinite when it overflows). */
    private static double ratio(ScaledValue a, ScaledValue b) {
        if (a.isZero()) return 0;
        return Math.scalb(Math.abs(a.mantissa() / b.mantissa()), (int) Math.max(-2000, Math.min(2000, a.exponent() - b.exponent())));
    }

    private static ScaledValue plusAbs(ScaledValue v, ScaledValue e) {
        long x = Math.max(v.exponent(), e.exponent());
        return ScaledValue.of(Math.scalb(Math.abs(v.mantissa()), (int) Math.max(-2000, v.exponent() - x))
                + Math.scalb(Math.abs(e.mantissa()), (int) Math.max(-2000, e.exponent() - x)), x);
    }

    private boolean onJvm(Device d) {
        return d.info().type() == DeviceType.JVM;
    }

    /** Estimated seconds of the Gray-code sweep of a block (its pattern) on the device the method would use ({@link SweepCost}). */
    private double ryserSeconds(SquareMatrix pattern, Device dev) {
        int n = pattern.n();
        if (onJvm(dev)) return SweepCost.jvmSeconds(n, threads);
        boolean generic = method == Method.DENSE || method == Method.DENSE_LOCAL || method == Method.SPARSE;
        return generic ? SweepCost.genericKernelSeconds(n, dev.info()) : SweepCost.generatedRunSeconds(n, pattern.nonzeros(), dev.info());
    }

    /** Frontier state updates per second on the JVM (one thread; a measured order of magnitude). */
    private static final double FRONTIER_RATE = 3e7;

    private BlockOutcome block(BlockDoubles bd, BigInteger[][] integers, double tol, List<GeneratedKernelPermanent.Run> generated, double[] estimateSeconds) {
        SquareMatrix b = bd.matrix();
        int n = b.n();
        FrontierPlan plan = FrontierPlan.of(b);
        boolean frontierOnDevice = frontierOnDevice(plan);
        double frontierSeconds = frontierSeconds(plan);
        Device dev = accurate || (method == Method.AUTO && n <= AUTO_JVM_MAX_N) ? Devices.jvm() : device;
        double ryserSeconds = n <= NijenhuisWilf.MAX_N ? ryserSeconds(b, dev) : Double.POSITIVE_INFINITY;
        List<String> tried = new ArrayList<>();
        BlockOutcome o;
        RyserRoundingEstimate est = null;
        String conditioning = "";
        if (!accurate && (n > NijenhuisWilf.MAX_N || (method == Method.AUTO && frontierSeconds < ryserSeconds))) {
            o = frontier(plan, bd, frontierOnDevice, String.format(Locale.ROOT, "frontier width %d (%s)%s: ~%.2g s against Gray-code Ryser ~%.2g s",
                    plan.width(), plan.order(), frontierOnDevice ? " on " + device.id() : "", frontierSeconds, ryserSeconds));
        } else {
            Balancing s = Balancing.of(b);
            Method m = accurate ? Method.SPARSE : resolve(b);
            long steps = NijenhuisWilf.steps(n);
            boolean codegen = m == Method.CODEGEN_REG || m == Method.CODEGEN_HYBRID;
            boolean onDevice = !accurate && !onJvm(dev);
            GeneratedKernelPermanent gen = codegen ? new GeneratedKernelPermanent(dev,
                    m == Method.CODEGEN_REG ? GeneratedKernelPermanent.Variant.PURE_REG : GeneratedKernelPermanent.Variant.HYBRID)
                    .withMinBlocksPerSm(minBlocksPerSm).withRestartLog2(restartLog2).withProgress(progress) : null;
            // the run's thread chunk (its longest): x starts afresh at its beginning and drifts through it
            long runChunk = !onDevice ? ChunkedJvmPermanent.chunkSize(n) : codegen ? gen.runChunk(steps)
                    : LaunchPlan.of(steps, (int) Math.min(GenericKernelPermanent.defaultThreads(dev), Math.max(1, (steps + 1023) / 1024)), 1024).get(0).delta();
            // the estimate follows the column order the sweep ran in: x drifts with it (the sparse sweeps sort columns by
            // degree, the generated kernels order them greedily)
            SquareMatrix swept = accurate || m == Method.SPARSE ? ColumnDegreeSort.apply(s.scaled())
                    : codegen ? ColumnOrdering.apply(s.scaled(), ColumnOrdering.greedy(s.scaled())) : s.scaled();
            // after the sweep, on the device the sweep ran on (one execution for the sampled chunks and drift run chunks) or
            // on the JVM threads: nothing runs beside the sweep on the host
            boolean estimateHere = onDevice && (estimateOnDevice != null ? estimateOnDevice : dev.info().isGpu())
                    && DeviceRoundingEstimate.runsOnDevice(n, runChunk);
            java.util.function.Supplier<RyserRoundingEstimate> estimate = () -> {
                long e0 = System.nanoTime();
                double factor = codegen ? RyserRoundingEstimate.GENERATED_KERNEL_ROUNDING : 1;
                RyserRoundingEstimate e;
                if (estimateHere) {
                    DeviceRoundingEstimate.Run r = DeviceRoundingEstimate.run(dev, swept, runChunk, factor);
                    estimateSeconds[4] += r.deviceMillis() / 1e3;
                    e = r.estimate();
                } else {
                    e = RyserRoundingEstimate.of(swept, runChunk, factor);
                }
                estimateSeconds[0] += (System.nanoTime() - e0) / 1e9;
                return e;
            };
            long sw0 = System.nanoTime();
            double p = accurate ? new ChunkedJvmPermanent(threads).withProgress(progress).accurate(swept) : switch (m) {
                case DENSE -> onJvm(dev) ? new ChunkedJvmPermanent(threads).withProgress(progress).dense(s.scaled())
                        : new GenericKernelPermanent(dev, false).withProgress(progress).compute(s.scaled());
                case DENSE_LOCAL -> new GenericKernelPermanent(dev, false).withXStorage(GenericKernelPermanent.XStorage.LOCAL)
                        .withProgress(progress).compute(s.scaled());
                case SPARSE -> onJvm(dev) ? new ChunkedJvmPermanent(threads).withProgress(progress).sparse(swept)
                        : new GenericKernelPermanent(dev, true).withProgress(progress).compute(swept);
                case CODEGEN_REG, CODEGEN_HYBRID -> {
                    GeneratedKernelPermanent.Run r = gen.compute(s.scaled());
                    generated.add(r);
                    if (r.runChunk() != runChunk) throw new IllegalStateException("the generated sweep ran chunks of " + r.runChunk() + " steps, planned " + runChunk);
                    yield r.value();
                }
                case AUTO -> throw new IllegalStateException("unresolved");
            };
            // the sweep's own time: a generated kernel's launches (its generation and build are not the sweep), else the whole call
            estimateSeconds[1] += codegen ? generated.get(generated.size() - 1).kernelSeconds() : (System.nanoTime() - sw0) / 1e9;
            estimateSeconds[2] += RyserRoundingEstimate.workInDoubleSteps(n, runChunk);
            estimateSeconds[3] += steps;
            est = estimate.get();
            double err = accurate ? est.errorOfDoubleDouble(p) : est.errorOf(p);
            String name = (accurate ? "accurate" : m.cliName()) + "@" + dev.id();
            String reason = method != Method.AUTO || accurate ? "requested" : String.format(Locale.ROOT,
                    "Gray-code Ryser ~%.2g s against frontier width %d ~%.2g s", ryserSeconds, plan.width(), frontierSeconds);
            ScaledValue pv = ScaledValue.of(p, s.exponent());
            ScaledValue ev = ScaledValue.of(finite(err + entryRounding(bd, s.scaled(), p)), s.exponent());
            o = new BlockOutcome(pv, ev, false, null, name, reason + "; error estimated from " + est.sampleSteps() + " re-computed steps"
                    + (estimateHere ? " on " + dev.id() : "")
                    + (ratio(ev, pv) <= tol ? "" : "; " + illConditioned(est, p)), steps);
            conditioning = ", " + illConditioned(est, p);
        }
        if (!escalate || within(o, tol)) return o;
        tried.add(describe(o) + conditioning);
        // escalation: the frontier program (no inclusion-exclusion), double-double, then exact arithmetic
        if (o.method.startsWith("frontier") == false && (plan.cost() < 3e8 || frontierSeconds < 1) && plan.width() <= FrontierPlan.MAX_WIDTH) {
            BlockOutcome f = frontier(plan, bd, frontierOnDevice, "escalated: " + tried.get(0) + " above tolerance");
            if (within(f, tol)) return f;
            tried.add(describe(f));
        }
        if (est != null && !accurate && !onJvm(device) && n > AUTO_JVM_MAX_N && n <= deviceDoubleDoubleMaxN()) {
            // double-double on the device the sweep ran on, by a kernel generated for the block (every row a register
            // pair); ~10-20x a double sweep there, far below the JVM's
            Balancing s = Balancing.of(b);
            GeneratedKernelPermanent.Run r = new GeneratedKernelPermanent(device, GeneratedKernelPermanent.Variant.DOUBLE_DOUBLE)
                    .withRestartLog2(restartLog2).withProgress(progress).compute(s.scaled());
            generated.add(r);
            double p = r.value();
            double err = finite(est.errorOfDoubleDouble(p) + entryRounding(bd, s.scaled(), p));
            BlockOutcome d = new BlockOutcome(ScaledValue.of(p, s.exponent()), ScaledValue.of(err, s.exponent()), false, null, "codegen-dd@" + device.id(),
                    "escalated: " + String.join("; ", tried) + " above tolerance", NijenhuisWilf.steps(n));
            if (within(d, tol)) return d;
            tried.add(describe(d));
        } else if (est != null && !accurate && n <= DD_MAX_N) {
            Balancing s = Balancing.of(b);
            double p = new ChunkedJvmPermanent(threads).withProgress(progress).accurate(ColumnDegreeSort.apply(s.scaled()));
            double err = finite(est.errorOfDoubleDouble(p) + entryRounding(bd, s.scaled(), p));
            BlockOutcome d = new BlockOutcome(ScaledValue.of(p, s.exponent()), ScaledValue.of(err, s.exponent()), false, null, "accurate@jvm",
                    "escalated: " + String.join("; ", tried) + " above tolerance", NijenhuisWilf.steps(n));
            if (within(d, tol)) return d;
            tried.add(describe(d));
        }
        if (RationalPermanent.work(integers, threads) <= EXACT_MAX_WORK) {
            RationalPermanent.Block e = RationalPermanent.block(integers, threads);
            // the integer block's permanent is 2^exponent perm(b): report it in b's units
            return new BlockOutcome(new Fraction(e.value(), BigInteger.ONE).toScaled().times(ScaledValue.of(1, -bd.exponent())), ScaledValue.ZERO, true,
                    e.value(), e.method(), "escalated: " + String.join("; ", tried) + " above tolerance", 0);
        }
        throw new ToleranceNotMetException("cannot meet the relative tolerance " + tolerance + " on a " + n + "x" + n + " block: "
                + String.join("; ", tried) + "; exact arithmetic would need ~" + String.format(Locale.ROOT, "%.1e", RationalPermanent.work(integers, threads))
                + " steps (frontier width " + plan.width() + "). Raise --tol, or use --exact on a larger machine.");
    }

    /** Says how far Ryser's alternating sum cancels on a block whose Gray-code error estimate is above the tolerance. */
    private static String illConditioned(RyserRoundingEstimate est, double p) {
        double c = est.cancellation(p);
        return c > 1e6 ? String.format(Locale.ROOT, "ill-conditioned for Ryser: its terms are ~%.1e times the block's permanent", c)
                : String.format(Locale.ROOT, "Ryser's terms ~%.1e times the block's permanent", c);
    }

    /** Largest block the double-double JVM sweep is tried on when escalating (2^(n-1) steps at ~10^7 per second and thread). */
    static final int DD_MAX_N = 30;
    /**
     * Largest block the generated double-double kernel is tried on when escalating from a device sweep on a GPU (2^39
     * steps: ~17 s at the 3.2e10 double-double steps per second an H100 ran at n = 36), and on other devices (2^35);
     * blocks up to {@link #AUTO_JVM_MAX_N} take the JVM's.
     */
    static final int DEVICE_DD_MAX_N = 40, OTHER_DEVICE_DD_MAX_N = 36;

    private int deviceDoubleDoubleMaxN() {
        return device.info().isGpu() ? DEVICE_DD_MAX_N : OTHER_DEVICE_DD_MAX_N;
    }
    /** Exact work (elementary steps) escalation accepts before giving up. */
    static final double EXACT_MAX_WORK = 2e11;

    private static double finite(double e) {
        return Double.isFinite(e) ? e : Double.MAX_VALUE;
    }

    private static boolean within(BlockOutcome o, double tol) {
        if (o.exact != null) return true;
        return ratio(o.error, o.value) <= tol;
    }

    private static String describe(BlockOutcome o) {
        return o.method + " (relative error " + (o.value.isZero() ? "unbounded: value 0" : String.format(Locale.ROOT, "%.1e", ratio(o.error, o.value))) + ")";
    }

    /**
     * Whether the frontier program of this plan runs faster on the device (a GPU or OpenCL device, width <= 28) than on the
     * JVM, once its kernels are loaded (a process's first load is not held against the device: later runs amortise it).
     */
    private boolean frontierOnDevice(FrontierPlan plan) {
        return !onJvm(device) && !accurate && plan.width() <= DeviceFrontierPermanent.MAX_WIDTH
                && DeviceFrontierPermanent.estimatedSeconds(plan) < plan.cost() / FRONTIER_RATE;
    }

    /** Estimated seconds of the frontier program where it would run (infinite beyond the widths it takes). */
    private double frontierSeconds(FrontierPlan plan) {
        if (plan.width() > FrontierPlan.MAX_WIDTH) return Double.POSITIVE_INFINITY;
        return frontierOnDevice(plan) ? DeviceFrontierPermanent.estimatedSeconds(plan, device) : plan.cost() / FRONTIER_RATE;
    }

    private BlockOutcome frontier(FrontierPlan plan, BlockDoubles bd, boolean onDevice, String reason) {
        FrontierPermanent.Result r = onDevice ? DeviceFrontierPermanent.compute(device, plan) : FrontierPermanent.inDouble(plan);
        // entries rounded when the block became doubles: (n + 1) u perm(|B|) more
        ScaledValue bound = bd.exact() ? r.bound() : plusAbs(r.bound(), r.absPermanent().times(ScaledValue.of(0x1p-52 * (plan.matrix().n() + 1))));
        return new BlockOutcome(r.value(), bound, true, null, "frontier@" + (onDevice ? device.id() : "jvm"), reason, 0);
    }

    /**
     * Rounding of the block's entries to doubles (only when an entry was rounded): at most (n + 1) u perm(|B|),
     * with perm(|B|) the computed value for a nonnegative block and the smaller product of row or column 1-norms otherwise.
     */
    private static double entryRounding(BlockDoubles bd, SquareMatrix scaledOrNot, double p) {
        if (bd.exact()) return 0;
        int n = scaledOrNot.n();
        boolean nonnegative = true;
        for (double v : scaledOrNot.rowMajor()) if (v < 0) nonnegative = false;
        double absPerm = 1; // rows scaled to 1-norms in [1, 2): their product bounds perm(|B|)
        for (int i = 0; i < n; i++) {
            double r = 0;
            for (int j = 0; j < n; j++) r += Math.abs(scaledOrNot.get(i, j));
            absPerm *= r;
        }
        if (nonnegative) absPerm = Math.abs(p);
        return 0x1p-52 * (n + 1) * absPerm;
    }

    /** AUTO: JVM sweeps for small blocks and on the JVM device, the generated hybrid elsewhere. */
    private Method resolve(SquareMatrix b) {
        if (method != Method.AUTO) {
            if (onJvm(device) && (method == Method.CODEGEN_REG || method == Method.CODEGEN_HYBRID)) {
                throw new IllegalArgumentException("method " + method.cliName() + " needs a CUDA or OpenCL device; --device jvm runs dense or sparse");
            }
            return method;
        }
        double density = (double) b.nonzeros() / ((double) b.n() * b.n());
        if (onJvm(device) || b.n() <= AUTO_JVM_MAX_N) return density < 0.5 ? Method.SPARSE : Method.DENSE;
        return Method.CODEGEN_HYBRID;
    }
}
