package dev.squall.permanent.codegen;

import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.kernel.KeptPlans;
import dev.squall.permanent.kernel.LaunchPlan;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.*;

/**
 * Computes a permanent with a kernel generated for the matrix ({@link KernelSourceGenerator}),
 * compiled at run time for the device (same on-disk build cache as every Squall kernel) and run
 * as a task, one execution per launch of the {@link LaunchPlan}. Columns are first ordered greedily
 * ({@link ColumnOrdering}); PureReg keeps every changing row in registers, Hybrid partitions
 * rows by {@link HybridPartition#choose}.
 *
 * <pre>{@code
 * GeneratedKernelPermanent.Run r = new GeneratedKernelPermanent(Devices.get("cuda:0"), Variant.HYBRID).compute(a);
 * System.out.println(r.value() + " in " + r.kernelSeconds() + " s, " + r.resources());
 * }</pre>
 */
public final class GeneratedKernelPermanent {
    /**
     * PureReg, the register/global hybrid (double), or double-double ({@link DoubleDoubleSourceGenerator}: every row a
     * register pair, for escalation when a double sweep misses the tolerance).
     */
    public enum Variant { PURE_REG, HYBRID, DOUBLE_DOUBLE }

    /**
     * @param value           the permanent (of a range of steps: the range's partial sum)
     * @param partial         the compensated partial {sum, compensation} of the launched steps, before the final factor
     * @param generateMillis  ordering, partitioning and source generation
     * @param buildMillis     driver/NVRTC build (0 when the binary came from the cache, or the kernel was built before in this process)
     * @param fromCache       whether the kernel was built before in this process ({@link CompiledKernels}) or the on-disk build cache had the binary
     * @param kernelSeconds   launches, including the partial read-backs
     * @param registerRows    rows of x held in registers
     * @param globalRows      rows of x held in global memory
     * @param threads         work-items per launch
     * @param resources       the driver's resource report (registers etc.), "" where not reported
     * @param source          the generated program
     * @param layout          the program's first line: register/global rows, levels, unroll, modelled multiplies per step
     * @param runChunk        steps a work-item of the first launch walks from a fresh x (its rounding drifts over them)
     * @param deviceKernelMillis the launches' device time (device events), within {@link #kernelSeconds}
     * @param transferMillis  the copies of launch words and partials, device time (device events)
     */
    public record Run(double value, double[] partial, double generateMillis, double buildMillis, boolean fromCache, double kernelSeconds,
                      int registerRows, int globalRows, int threads, String resources, String source, String layout, long runChunk,
                      double deviceKernelMillis, double transferMillis) {
    }

    private final Device device;
    private final KernelSourceGenerator.Backend backend;
    private final Variant variant;
    private int maxThreads;
    private int registerColumnsOverride = -1;
    private int minBlocksPerSm = 0;
    private int restartLog2 = KernelSourceGenerator.DEFAULT_RESTART_LOG2;
    private ProgressListener progress = ProgressListener.NONE;

    public GeneratedKernelPermanent(Device device, Variant variant) {
        this.backend = KernelPreamble.backendOf(device);
        this.device = device;
        this.variant = variant;
        this.maxThreads = device.info().isGpu() ? device.info().computeUnits() * 2048 : device.info().computeUnits() * 64;
    }

    public GeneratedKernelPermanent withMaxThreads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.maxThreads = threads;
        return this;
    }

    /** Forces the hybrid's number of register columns (tests use it to get global rows on small matrices). */
    public GeneratedKernelPermanent withRegisterColumns(int c) {
        this.registerColumnsOverride = c;
        return this;
    }

    /** CUDA only: {@code __launch_bounds__(128, b)}, capping registers so b blocks fit per SM (0: compiler's choice). */
    public GeneratedKernelPermanent withMinBlocksPerSm(int b) {
        new KernelSourceGenerator.Options(0, b); // validates the range
        this.minBlocksPerSm = b;
        return this;
    }

    /**
     * A work-item rebuilds x every 2^r steps (default {@value KernelSourceGenerator#DEFAULT_RESTART_LOG2}; 0: only at the
     * start of its chunk), bounding how far the rounding of x's updates drifts (and what the error estimate follows).
     */
    public GeneratedKernelPermanent withRestartLog2(int r) {
        if (r != 0 && (r < 6 || r > 62)) throw new IllegalArgumentException("restart every 2^" + r + " steps: must be 0 (never) or 2^6..2^62");
        this.restartLog2 = r;
        return this;
    }

    public GeneratedKernelPermanent withProgress(ProgressListener listener) {
        this.progress = listener;
        return this;
    }

    public Run compute(SquareMatrix matrix) {
        return compute(matrix, 0, NijenhuisWilf.steps(matrix.n()));
    }

    /**
     * Runs the steps {@code [lo, hi)} only; the run's {@link Run#value} is then the compensated partial sum
     * {@code sum + compensation} of {@code (-1)^g prod x^(g)} over the range, without the final factor, and
     * {@link Run#partial} the pair itself. {@code lo} must be a multiple of the largest power of two {@code <= hi - lo}
     * (the generated blocks start at aligned steps), as the chunks of a power-of-two cut of the whole range are.
     */
    public Run compute(SquareMatrix matrix, long lo, long hi) {
        int n = matrix.n();
        long steps = NijenhuisWilf.steps(n);
        NijenhuisWilf.checkRange(lo, hi, steps);
        boolean whole = lo == 0 && hi == steps;
        long length = hi - lo;
        long t0 = System.nanoTime();
        boolean cuda = backend == KernelSourceGenerator.Backend.CUDA;
        Generated gen = generated(matrix, cuda);
        double generateMillis = (System.nanoTime() - t0) / 1e6;

        CompiledKernels.Lookup built = CompiledKernels.compile(device, KernelSourceGenerator.KERNEL_NAME, backend, gen.source, KernelSourceGenerator.SIGNATURE);
        RuntimeKernel kernel = built.kernel();
        int local = local();
        int threads = threads(length);
        int nGlob = gen.globalRows;
        KahanSum total = new KahanSum();
        java.util.List<LaunchPlan.Launch> launches = LaunchPlan.of(length, threads, MIN_STEPS_PER_ITEM);
        double deviceKernel = 0, transfer = 0;
        long k0 = System.nanoTime();
        Resident r = Resident.KEPT.take(device, k -> k.kernel == kernel && k.threads == threads && k.globalRows == nGlob,
                () -> new Resident(device, kernel, threads, nGlob, local));
        boolean kept = false;
        try {
            for (LaunchPlan.Launch l : launches) {
                long[] words = l.planWords(length);
                r.planWords.set(0, lo + words[0]);
                r.planWords.set(1, words[1]);
                r.planWords.set(2, lo + words[2]);
                r.partials.init(Double.NaN); // poison: a work-item that does not write its partials shows in the sum
                Profile pf = r.plan.execute().profile();
                deviceKernel += pf.kernelMillis();
                transfer += pf.toDeviceMillis() + pf.toHostMillis();
                for (int t = 0; t < threads; t++) total.add(r.partials.get(2 * t), r.partials.get(2 * t + 1));
                progress.stepsDone(lo + l.end(length), steps);
            }
            kept = true;
        } finally {
            if (kept) Resident.KEPT.keep(device, r);
            else Resident.KEPT.release(r);
        }
        double kernelSeconds = (System.nanoTime() - k0) / 1e9;
        return new Run((whole ? NijenhuisWilf.finalFactor(n) : 1.0) * total.value(), new double[] {total.sum(), total.compensation()}, generateMillis, built.inProcess() ? 0 : kernel.buildMillis(), built.inProcess() || kernel.fromCache(),
                kernelSeconds, gen.registerRows, nGlob, threads, kernel.resourceReport(), gen.source,
                gen.source.lines().findFirst().orElse("").replaceFirst("^// Generated by squall-permanent for one ", ""), restarted(launches.get(0).delta()), deviceKernel, transfer);
    }

    /** Work-group size of the launches. */
    private int local() {
        return backend == KernelSourceGenerator.Backend.CUDA ? KernelSourceGenerator.CUDA_BLOCK : 64;
    }

    /** Work-items per launch for a range of {@code length} steps: a multiple of the work-group size. */
    private int threads(long length) {
        int local = local();
        int threads = (int) Math.min(maxThreads, Math.max(1, (length + MIN_STEPS_PER_ITEM - 1) / MIN_STEPS_PER_ITEM));
        return (threads + local - 1) / local * local;
    }

    /** The steps a work-item of the first launch will walk for a range of {@code length} steps ({@link Run#runChunk}), before running it. */
    public long runChunk(long length) {
        return restarted(LaunchPlan.of(length, threads(length), MIN_STEPS_PER_ITEM).get(0).delta());
    }

    /** A chunk of {@code delta} steps as the kernel walks it: in segments of at most 2^restart from a fresh x. */
    private long restarted(long delta) {
        return restartLog2 == 0 ? delta : Math.min(delta, 1L << restartLog2);
    }

    /**
     * Steps a work-item walks at least: 2^12, so a 2^28-step problem runs 65536 work-items (about one wave of the
     * H100's residency at ~120 registers) and moves 1 MiB of partials, not 4.
     */
    static final long MIN_STEPS_PER_ITEM = 1L << 12;

    /** Ordering, partition and source of one matrix, variant and backend. */
    private record Generated(String source, int registerRows, int globalRows) {
    }

    private record SourceKey(KernelSourceGenerator.Backend backend, Variant variant, int registerColumns, int minBlocks, int restartLog2, int n,
                             java.util.List<Double> entries) {
    }

    /** Sources this process generated (a warm repeat of the same matrix skips ordering, partition and generation). */
    private static final java.util.Map<SourceKey, Generated> SOURCES = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<SourceKey, Generated> eldest) {
            return size() > 16;
        }
    };

    private Generated generated(SquareMatrix matrix, boolean cuda) {
        java.util.List<Double> entries = java.util.Arrays.stream(matrix.rowMajor()).boxed().toList();
        SourceKey key = new SourceKey(backend, variant, registerColumnsOverride, cuda ? minBlocksPerSm : 0, restartLog2, matrix.n(), entries);
        synchronized (SOURCES) {
            Generated g = SOURCES.get(key);
            if (g != null) return g;
        }
        SquareMatrix a = ColumnOrdering.apply(matrix, ColumnOrdering.greedy(matrix));
        if (variant == Variant.DOUBLE_DOUBLE) {
            Generated dd = new Generated(DoubleDoubleSourceGenerator.generate(a, backend, restartLog2), a.n(), 0);
            synchronized (SOURCES) {
                SOURCES.put(key, dd);
            }
            return dd;
        }
        HybridPartition part = variant == Variant.PURE_REG ? HybridPartition.allRegisters(a)
                : registerColumnsOverride >= 0 ? HybridPartition.withRegisterColumns(a, registerColumnsOverride)
                : HybridPartition.choose(a);
        int unroll = KernelSourceGenerator.Options.forMatrix(a).unrollLog2();
        KernelSourceGenerator.Options options = new KernelSourceGenerator.Options(unroll, cuda ? minBlocksPerSm : 0,
                restartLog2);
        Generated g = new Generated(KernelSourceGenerator.generate(a, part, backend, options), part.count(HybridPartition.REGISTER),
                part.count(HybridPartition.GLOBAL));
        synchronized (SOURCES) {
            SOURCES.put(key, g);
        }
        return g;
    }

    /**
     * The device buffers and bound launch of the last run on a device, kept for the next run of the same kernel and
     * size (a warm repeat then allocates, uploads and frees nothing): the global rows' scratch (device-only, never
     * copied), the launch words and the partials. A run of another kernel or size frees them first.
     */
    private static final class Resident {
        static final KeptPlans<Resident> KEPT = new KeptPlans<>(r -> r.plan);

        final RuntimeKernel kernel;
        final int threads, globalRows;
        final LongArray planWords = new LongArray(3);
        final DoubleArray partials;
        final ExecutionPlan plan;

        private Resident(Device device, RuntimeKernel kernel, int threads, int globalRows, int local) {
            this.kernel = kernel;
            this.threads = threads;
            this.globalRows = globalRows;
            DoubleArray xg = DoubleArray.onDevice(Math.max(1, (long) globalRows * threads));
            partials = new DoubleArray(2L * threads);
            TaskGraph graph = new TaskGraph("permanent")
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, planWords, partials)
                    .task("sweep", kernel, xg, planWords, partials, threads)
                    .transferToHost(DataTransferMode.EVERY_EXECUTION, partials);
            plan = new ExecutionPlan(graph.snapshot());
            plan.withDevice(device).withGrid("sweep", WorkerGrid.of(threads).withLocal(local)).withProfiler(true);
        }
    }
}
