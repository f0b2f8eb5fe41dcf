package dev.squall.permanent.codegen;

import dev.squall.permanent.cpu.KahanSum;
import dev.squall.permanent.cpu.ProgressListener;
import dev.squall.permanent.gray.NijenhuisWilf;
import dev.squall.permanent.kernel.LaunchPlan;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.spi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Computes a permanent with a kernel generated for the matrix ({@link KernelSourceGenerator}),
 * built through the runtime's native device (same on-disk build cache as every Squall kernel)
 * and launched with the {@link LaunchPlan}. Columns are first ordered greedily
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
     * @param value           the permanent
     * @param generateMillis  ordering, partitioning and source generation
     * @param buildMillis     driver/NVRTC build (0 when the binary came from the cache)
     * @param fromCache       whether the build cache had the binary
     * @param kernelSeconds   launches, including the partial read-backs
     * @param registerRows    rows of x held in registers
     * @param globalRows      rows of x held in global memory
     * @param threads         work-items per launch
     * @param resources       the driver's resource report (registers etc.), "" where not reported
     * @param source          the generated program
     * @param layout          the program's first line: register/global rows, levels, unroll, modelled multiplies per step
     */
    public record Run(double value, double generateMillis, double buildMillis, boolean fromCache, double kernelSeconds,
                      int registerRows, int globalRows, int threads, String resources, String source, String layout) {
    }

    private final Device device;
    private final Variant variant;
    private int maxThreads;
    private int registerColumnsOverride = -1;
    private int minBlocksPerSm = 0;
    private ProgressListener progress = ProgressListener.NONE;

    public GeneratedKernelPermanent(Device device, Variant variant) {
        if (device.isJvm()) throw new IllegalArgumentException("generated kernels need a CUDA or OpenCL device, not " + device.id());
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
        int n = matrix.n();
        long steps = NijenhuisWilf.steps(n);
        long t0 = System.nanoTime();
        SquareMatrix a = ColumnOrdering.apply(matrix, ColumnOrdering.greedy(matrix));
        HybridPartition part = variant == Variant.PURE_REG ? HybridPartition.allRegisters(a)
                : registerColumnsOverride >= 0 ? HybridPartition.withRegisterColumns(a, registerColumnsOverride)
                : HybridPartition.choose(a);
        boolean cuda = device.info().backend().equals("cuda");
        KernelSourceGenerator.Options options = new KernelSourceGenerator.Options(
                KernelSourceGenerator.Options.forMatrix(a).unrollLog2(), cuda ? minBlocksPerSm : 0);
        String source = KernelSourceGenerator.generate(a, part, cuda ? KernelSourceGenerator.Backend.CUDA : KernelSourceGenerator.Backend.OPENCL, options);
        double generateMillis = (System.nanoTime() - t0) / 1e6;

        if (device.isJvm()) throw new IllegalArgumentException("generated kernels need a CUDA or OpenCL device, not " + device.id());
        NativeDevice nd = device.nativeDevice();
        DeviceProgram program = nd.build("permanent-" + variant.name().toLowerCase(java.util.Locale.ROOT) + "-n" + n, source);
        DeviceKernel kernel = program.kernel(KernelSourceGenerator.KERNEL_NAME);
        int local = cuda ? KernelSourceGenerator.CUDA_BLOCK : 64;
        int threads = (int) Math.min(maxThreads, Math.max(1, (steps + 1023) / 1024));
        threads = (threads + local - 1) / local * local;
        int nGlob = part.count(HybridPartition.GLOBAL);
        DeviceBuffer xg = nd.allocate(8L * Math.max(1, (long) nGlob * threads));
        DeviceBuffer planBuf = nd.allocate(24);
        DeviceBuffer partBuf = nd.allocate(16L * threads);
        BoundLaunch launch = kernel.bind(new KernelArg[] {new KernelArg.Buffer(xg), new KernelArg.Buffer(planBuf),
                new KernelArg.Buffer(partBuf), new KernelArg.I32(threads)});
        KahanSum total = new KahanSum();
        long k0 = System.nanoTime();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment plan = arena.allocate(24, 8);
            MemorySegment partials = arena.allocate(16L * threads, 8);
            for (LaunchPlan.Launch l : LaunchPlan.of(steps, threads, 1024)) {
                MemorySegment.copy(l.planWords(steps), 0, plan, ValueLayout.JAVA_LONG, 0, 3);
                nd.copyToDevice(plan, planBuf, 0, 24);
                // poison (all-ones bits read as NaN): a work-item that does not write its partials shows in the sum
                partials.fill((byte) 0xFF);
                nd.copyToDevice(partials, partBuf, 0, 16L * threads);
                launch.launch(new long[] {threads}, new long[] {local});
                nd.copyToHost(partBuf, 0, partials, 16L * threads);
                for (int t = 0; t < threads; t++) {
                    total.add(partials.getAtIndex(ValueLayout.JAVA_DOUBLE, 2L * t), partials.getAtIndex(ValueLayout.JAVA_DOUBLE, 2L * t + 1));
                }
                progress.stepsDone(l.end(steps), steps);
            }
        } finally {
            launch.release();
            xg.release();
            planBuf.release();
            partBuf.release();
        }
        double kernelSeconds = (System.nanoTime() - k0) / 1e9;
        return new Run(NijenhuisWilf.finalFactor(n) * total.value(), generateMillis, program.buildMillis(), program.fromCache(),
                kernelSeconds, part.count(HybridPartition.REGISTER), nGlob, threads, kernel.resourceReport(), source,
                source.lines().findFirst().orElse("").replaceFirst("^// Generated by squall-permanent for one ", ""));
    }
}
