package dev.squall.permanent.exact;

import dev.squall.permanent.codegen.ColumnOrdering;
import dev.squall.permanent.codegen.KernelPreamble;
import dev.squall.permanent.codegen.KernelSourceGenerator.Backend;
import dev.squall.permanent.gray.ProgressListener;
import dev.squall.permanent.kernel.LaunchPlan;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.*;

/**
 * Runs the per-matrix exact kernel ({@link ExactSourceGenerator}) on a CUDA or OpenCL device:
 * columns ordered greedily first ({@link ColumnOrdering}, the permanent does not change), the
 * source compiled at run time for the device (cached on disk by source hash) and run as a task,
 * one execution per launch of the {@link LaunchPlan}; returns {@code sum over g < 2^n of (-1)^g prod rowSum(gray(g))}
 * modulo 2^64, as {@link BinaryKernels#ryserChunks} does.
 *
 * <pre>{@code
 * long residue = new GeneratedExactSweep(device, threads, ProgressListener.NONE).sweep(a);
 * }</pre>
 */
final class GeneratedExactSweep {
    private final Device device;
    private final Backend backend;
    private final int maxThreads;
    private final ProgressListener progress;

    GeneratedExactSweep(Device device, int maxThreads, ProgressListener progress) {
        this.backend = KernelPreamble.backendOf(device);
        this.device = device;
        this.maxThreads = maxThreads;
        this.progress = progress;
    }

    long sweep(SquareMatrix matrix) {
        int n = matrix.n();
        long steps = 1L << n;
        SquareMatrix a = ColumnOrdering.apply(matrix, ColumnOrdering.greedy(matrix));
        String source = ExactSourceGenerator.generate(a, backend, ExactSourceGenerator.unrollLog2For(a));
        RuntimeKernel kernel = dev.squall.permanent.codegen.CompiledKernels.compile(device, ExactSourceGenerator.KERNEL_NAME, backend, source,
                ExactSourceGenerator.SIGNATURE).kernel();
        int local = backend == Backend.CUDA ? 128 : 64;
        int threads = (int) Math.min(maxThreads, Math.max(1, (steps + 1023) / 1024));
        LongArray planWords = new LongArray(3);
        LongArray partials = new LongArray(threads);
        TaskGraph graph = new TaskGraph("permanent-exact")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, planWords, partials)
                .task("sweep", kernel, planWords, partials, threads)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partials);
        long total = 0;
        try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot())) {
            plan.withDevice(device).withGrid("sweep", WorkerGrid.of((threads + local - 1) / local * local).withLocal(local));
            try {
                for (LaunchPlan.Launch l : LaunchPlan.of(steps, threads, 1024)) {
                    long[] words = l.planWords(steps);
                    for (int w = 0; w < 3; w++) planWords.set(w, words[w]);
                    partials.init(0x5D5D5D5D5D5D5D5DL); // poison: a work-item that does not write its partial shows in the sum
                    plan.execute();
                    for (int t = 0; t < l.threads(); t++) total += partials.get(t); // wraps: exact modulo 2^64
                    progress.stepsDone(l.end(steps), steps);
                }
            } finally {
                plan.freeDeviceMemory();
            }
        }
        return total;
    }
}
