package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.spi.GeneratedKernels;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.api.spi.WorkGroupGrid;
import dev.squall.tasks.runtime.DeviceException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs kernels on the JVM's cores. Loop-parallel kernels split their outermost parallel loop into
 * contiguous chunks over a fork-join pool. SPMD kernels run as chunks of work-groups over the same
 * pool, each group through the runner the compiler generated for it (loops over the group's
 * work-items, split at barriers and sub-group operations). Kernels without such a runner run group by
 * group with a method handle per work-item; when they use barriers or sub-group operations
 * (collective), every work-item of a group gets its own virtual thread so barriers behave as on a GPU.
 *
 * <pre>{@code JvmKernelRunner.runLoop(generated, info, args); }</pre>
 */
public final class JvmKernelRunner {
    private static final int THREADS = Runtime.getRuntime().availableProcessors();
    private static final ForkJoinPool POOL = new ForkJoinPool(THREADS);
    /** {@code -Dsquall.jvm.workGroupRunners=false} runs every SPMD kernel through the per-work-item path (for comparisons). */
    private static final boolean GROUP_RUNNERS = !"false".equals(System.getProperty("squall.jvm.workGroupRunners"));

    private JvmKernelRunner() {
    }

    /** Runs a LOOP kernel over its full iteration space. */
    public static void runLoop(GeneratedKernels gen, KernelInfo k, Object[] args) {
        long n = gen.tripCounts(k.name(), args)[0];
        if (n <= 0) return;
        int chunks = (int) Math.min(n, THREADS * 4L);
        if (chunks <= 1) {
            run(k, () -> gen.runRange(k.name(), args, 0, n));
            return;
        }
        List<ForkJoinTask<?>> tasks = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            long from = n * c / chunks, to = n * (c + 1) / chunks;
            tasks.add(POOL.submit(() -> gen.runRange(k.name(), args, from, to)));
        }
        join(k, tasks);
    }

    /**
     * Runs an SPMD kernel on a grid. {@code args[0]} is the caller's KernelContext placeholder.
     *
     * @param global work-items per dimension (1..3 entries)
     * @param local  work-group size per dimension, each dividing global
     */
    public static void runSpmd(GeneratedKernels gen, Method kernel, KernelInfo k, Object[] args, long[] global, long[] local) {
        if (GROUP_RUNNERS && gen.runsWorkGroups(k.name())) {
            runWorkGroups(gen, k, args, new WorkGroupGrid(global, local));
            return;
        }
        MethodHandle mh;
        try {
            kernel.setAccessible(true);
            mh = MethodHandles.lookup().unreflect(kernel).asSpreader(Object[].class, args.length);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        int[] gs = new int[] {1, 1, 1}, ls = new int[] {1, 1, 1}, groups = new int[3];
        for (int d = 0; d < global.length; d++) {
            gs[d] = Math.toIntExact(global[d]);
            ls[d] = Math.toIntExact(local[d]);
        }
        for (int d = 0; d < 3; d++) groups[d] = gs[d] / ls[d];
        int groupSize = ls[0] * ls[1] * ls[2];
        long groupCount = (long) groups[0] * groups[1] * groups[2];
        List<ForkJoinTask<?>> tasks = new ArrayList<>();
        int per = (int) Math.max(1, groupCount / (THREADS * 4L));
        for (long g0 = 0; g0 < groupCount; g0 += per) {
            long start = g0, end = Math.min(groupCount, g0 + per);
            tasks.add(POOL.submit(() -> {
                for (long g = start; g < end; g++) {
                    int gx = (int) (g % groups[0]), gy = (int) (g / groups[0] % groups[1]), gz = (int) (g / groups[0] / groups[1]);
                    if (k.collective()) runGroupConcurrently(mh, args, gs, ls, gx, gy, gz, groupSize);
                    else runGroupSequentially(mh, args, gs, ls, gx, gy, gz, groupSize);
                }
            }));
        }
        join(k, tasks);
    }

    /** Chunks of consecutive work-groups over the pool, each run by the generated work-group runner. */
    private static void runWorkGroups(GeneratedKernels gen, KernelInfo k, Object[] args, WorkGroupGrid grid) {
        long groups = grid.groupCount();
        if (groups == 0) return;
        int chunks = (int) Math.min(groups, THREADS * 4L);
        if (chunks <= 1) {
            run(k, () -> gen.runWorkGroups(k.name(), args, grid, 0, groups));
            return;
        }
        List<ForkJoinTask<?>> tasks = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            long from = groups * c / chunks, to = groups * (c + 1) / chunks;
            tasks.add(POOL.submit(() -> gen.runWorkGroups(k.name(), args, grid, from, to)));
        }
        join(k, tasks);
    }

    private static JvmWorkItem item(int[] gs, int[] ls, int gx, int gy, int gz, int linear) {
        JvmWorkItem it = new JvmWorkItem();
        it.globalGroupSizeX = gs[0];
        it.globalGroupSizeY = gs[1];
        it.globalGroupSizeZ = gs[2];
        it.localGroupSizeX = ls[0];
        it.localGroupSizeY = ls[1];
        it.localGroupSizeZ = ls[2];
        it.groupIdx = gx;
        it.groupIdy = gy;
        it.groupIdz = gz;
        place(it, linear);
        return it;
    }

    private static void place(JvmWorkItem it, int linear) {
        it.localIdx = linear % it.localGroupSizeX;
        it.localIdy = linear / it.localGroupSizeX % it.localGroupSizeY;
        it.localIdz = linear / it.localGroupSizeX / it.localGroupSizeY;
        it.globalIdx = it.groupIdx * it.localGroupSizeX + it.localIdx;
        it.globalIdy = it.groupIdy * it.localGroupSizeY + it.localIdy;
        it.globalIdz = it.groupIdz * it.localGroupSizeZ + it.localIdz;
    }

    private static void runGroupSequentially(MethodHandle mh, Object[] args, int[] gs, int[] ls, int gx, int gy, int gz, int size) {
        JvmWorkGroup group = new JvmWorkGroup(size, false);
        JvmWorkItem it = item(gs, ls, gx, gy, gz, 0);
        Object[] a = args.clone();
        a[0] = it;
        for (int l = 0; l < size; l++) {
            place(it, l);
            it.reset(group);
            invoke(mh, a);
        }
    }

    private static void runGroupConcurrently(MethodHandle mh, Object[] args, int[] gs, int[] ls, int gx, int gy, int gz, int size) {
        JvmWorkGroup group = new JvmWorkGroup(size, true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[size];
        for (int l = 0; l < size; l++) {
            JvmWorkItem it = item(gs, ls, gx, gy, gz, l);
            it.reset(group);
            Object[] a = args.clone();
            a[0] = it;
            threads[l] = Thread.ofVirtual().unstarted(() -> {
                try {
                    invoke(mh, a);
                } catch (JvmWorkGroup.GroupAbortedException e) {
                    // another item failed first; its failure is reported
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    group.barrier.reset();
                }
            });
        }
        for (Thread t : threads) t.start();
        try {
            for (Thread t : threads) t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) throw re;
        if (f instanceof Error er) throw er;
        if (f != null) throw new IllegalStateException(f);
    }

    private static void invoke(MethodHandle mh, Object[] a) {
        try {
            mh.invoke(a);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void run(KernelInfo k, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            throw failed(k, e);
        }
    }

    private static void join(KernelInfo k, List<ForkJoinTask<?>> tasks) {
        RuntimeException first = null;
        for (ForkJoinTask<?> t : tasks) {
            try {
                t.join();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw failed(k, first);
    }

    private static DeviceException failed(KernelInfo k, RuntimeException e) {
        Throwable cause = e;
        // ForkJoinTask.join rethrows a copy of a worker's exception (same class, no message) with the original as cause
        while (cause.getCause() != null && (cause instanceof CompletionException || cause instanceof ExecutionException
                || cause.getClass() == cause.getCause().getClass())) cause = cause.getCause();
        if (cause instanceof DeviceException de) return de;
        return new DeviceException(DeviceException.Kind.DRIVER_ERROR, "kernel " + k.name() + " failed on jvm: " + cause, cause);
    }

    /** Placeholder so callers can pass a context argument before one exists. */
    public static KernelContext placeholderContext() {
        return new JvmWorkItem();
    }
}
