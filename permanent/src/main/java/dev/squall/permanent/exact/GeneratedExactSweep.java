package dev.squall.permanent.exact;

import dev.squall.permanent.codegen.KernelSourceGenerator.Backend;
import dev.squall.permanent.codegen.ColumnOrdering;
import dev.squall.permanent.cpu.ProgressListener;
import dev.squall.permanent.kernel.LaunchPlan;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.spi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Runs the per-matrix exact kernel ({@link ExactSourceGenerator}) on a CUDA or OpenCL device:
 * columns ordered greedily first ({@link ColumnOrdering}, the permanent does not change), the
 * source built through the runtime's native device (cached on disk by source hash), launched
 * with the {@link LaunchPlan}; returns {@code sum over g < 2^n of (-1)^g prod rowSum(gray(g))}
 * modulo 2^64, as {@link BinaryKernels#ryserChunks} does.
 *
 * <pre>{@code
 * long residue = new GeneratedExactSweep(device, threads, ProgressListener.NONE).sweep(a);
 * }</pre>
 */
final class GeneratedExactSweep {
    private final Device device;
    private final int maxThreads;
    private final ProgressListener progress;

    GeneratedExactSweep(Device device, int maxThreads, ProgressListener progress) {
        if (device.isJvm()) throw new IllegalArgumentException("the generated exact kernel needs a CUDA or OpenCL device, not " + device.id());
        this.device = device;
        this.maxThreads = maxThreads;
        this.progress = progress;
    }

    long sweep(SquareMatrix matrix) {
        int n = matrix.n();
        long steps = 1L << n;
        SquareMatrix a = ColumnOrdering.apply(matrix, ColumnOrdering.greedy(matrix));
        boolean cuda = device.info().backend().equals("cuda");
        String source = ExactSourceGenerator.generate(a, cuda ? Backend.CUDA : Backend.OPENCL, ExactSourceGenerator.unrollLog2For(a));
        NativeDevice nd = device.nativeDevice();
        DeviceProgram program = nd.build("permanent-exact-n" + n, source);
        DeviceKernel kernel = program.kernel(ExactSourceGenerator.KERNEL_NAME);
        int local = cuda ? 128 : 64;
        int threads = (int) Math.min(maxThreads, Math.max(1, (steps + 1023) / 1024));
        DeviceBuffer planBuf = nd.allocate(24);
        DeviceBuffer partBuf = nd.allocate(8L * threads);
        BoundLaunch launch = kernel.bind(new KernelArg[] {new KernelArg.Buffer(planBuf), new KernelArg.Buffer(partBuf), new KernelArg.I32(threads)});
        long total = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment plan = arena.allocate(24, 8);
            MemorySegment partials = arena.allocate(8L * threads, 8);
            for (LaunchPlan.Launch l : LaunchPlan.of(steps, threads, 1024)) {
                MemorySegment.copy(l.planWords(steps), 0, plan, ValueLayout.JAVA_LONG, 0, 3);
                nd.copyToDevice(plan, planBuf, 0, 24);
                // poison: a work-item that does not write its partial shows in the sum
                partials.fill((byte) 0x5D);
                nd.copyToDevice(partials, partBuf, 0, 8L * threads);
                launch.launch(new long[] {(threads + local - 1) / local * local}, new long[] {local});
                nd.copyToHost(partBuf, 0, partials, 8L * threads);
                for (int t = 0; t < l.threads(); t++) total += partials.getAtIndex(ValueLayout.JAVA_LONG, t); // wraps: exact modulo 2^64
                progress.stepsDone(l.end(steps), steps);
            }
        } finally {
            launch.release();
            planBuf.release();
            partBuf.release();
        }
        return total;
    }
}
