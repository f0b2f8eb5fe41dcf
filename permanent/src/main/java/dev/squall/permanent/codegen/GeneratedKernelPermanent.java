package dev.squall.permanent.codegen;

import dev.squall.permanent.numeric.KahanSum;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.gray.NijenhuisWilf;
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
    /** PureReg or the register/global hybrid. */
    public enum Variant { PURE_REG, HYBRID }

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
     */
    public record Run(double value, double[] partial, double generateMillis, double buildMillis, boolean fromCache, double kernelSeconds,
                      int registerRows, int globalRows, int threads, String resources, String source, String layout) {
    }

    private final Device device;
    private final KernelSourceGenerator.Backend backend;
    private final Variant variant;
    private int maxThreads;
    private int registerColumnsOverride = -1;
    private int minBlocksPerSm = 0;
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
        SquareMatrix a = ColumnOrdering.apply(matrix, ColumnOrdering.greedy(matrix));
        HybridPartition part = variant == Variant.PURE_REG ? HybridPartition.allRegisters(a)
                : registerColumnsOverride >= 0 ? HybridPartition.withRegisterColumns(a, registerColumnsOverride)
                : HybridPartition.choose(a);
        boolean cuda = backend == KernelSourceGenerator.Backend.CUDA;
        KernelSourceGenerator.Options options = new KernelSourceGenerator.Options(
                KernelSourceGenerator.Options.forMatrix(a).unrollLog2(), cuda ? minBlocksPerSm : 0);
        String source = KernelSourceGenerator.generate(a, part, backend, options);
        double generateMillis = (System.nanoTime() - t0) / 1e6;

        CompiledKernels.Lookup built = CompiledKernels.compile(device, KernelSourceGenerator.KERNEL_NAME, backend, source, KernelSourceGenerator.SIGNATURE);
        RuntimeKernel kernel = built.kernel();
        int local = cuda ? KernelSourceGenerator.CUDA_BLOCK : 64;
        int threads = (int) Math.min(maxThreads, Math.max(1, (length + 1023) / 1024));
        threads = (threads + local - 1) / local * local;
        int nGlob = part.count(HybridPartition.GLOBAL);
        DoubleArray xg = new DoubleArray(Math.max(1, (long) nGlob * threads));
        LongArray planWords = new LongArray(3);
        DoubleArray partials = new DoubleArray(2L * threads);
        TaskGraph graph = new TaskGraph("permanent")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, planWords, partials)
                .task("sweep", kernel, xg, planWords, partials, threads)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partials);
        KahanSum total = new KahanSum();
        long k0 = System.nanoTime();
        try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot())) {
            plan.withDevice(device).withGrid("sweep", WorkerGrid.of(threads).withLocal(local));
            try {
                for (LaunchPlan.Launch l : LaunchPlan.of(length, threads, 1024)) {
                    long[] words = l.planWords(length);
                    planWords.set(0, lo + words[0]);
                    planWords.set(1, words[1]);
                    planWords.set(2, lo + words[2]);
                    partials.init(Double.NaN); // poison: a work-item that does not write its partials shows in the sum
                    plan.execute();
                    for (int t = 0; t < threads; t++) total.add(partials.get(2 * t), partials.get(2 * t + 1));
                    progress.stepsDone(lo + l.end(length), steps);
                }
            } finally {
                plan.freeDeviceMemory();
            }
        }
        double kernelSeconds = (System.nanoTime() - k0) / 1e9;
        return new Run((whole ? NijenhuisWilf.finalFactor(n) : 1.0) * total.value(), new double[] {total.sum(), total.compensation()}, generateMillis, built.inProcess() ? 0 : kernel.buildMillis(), built.inProcess() || kernel.fromCache(),
                kernelSeconds, part.count(HybridPartition.REGISTER), nGlob, threads, kernel.resourceReport(), source,
                source.lines().findFirst().orElse("").replaceFirst("^// Generated by squall-permanent for one ", ""));
    }
}
