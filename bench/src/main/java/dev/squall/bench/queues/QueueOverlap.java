package dev.squall.bench.queues;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;

import java.util.Arrays;

/**
 * Two independent kernels, each sized to occupy part of the device (a few work-groups of a long
 * dependent loop), run back to back on one queue and then on two queues. On one queue the second
 * waits for the first; on two queues a device with room for both runs them at the same time, so the
 * ratio one-queue / two-queues approaches 2.
 *
 * <pre>{@code
 * try (QueueOverlap q = new QueueOverlap(Devices.get("cuda:0"), 0, 128, 1 << 20)) {
 *     QueueOverlap.Result r = q.measure(20);
 *     System.out.printf("%.3f ms vs %.3f ms: %.2fx%n", r.oneQueueMillis(), r.twoQueuesMillis(), r.ratio());
 * }
 * }</pre>
 */
public final class QueueOverlap implements AutoCloseable {
    /**
     * Medians over the repeats.
     *
     * @param groups          work-groups per kernel
     * @param maxRelError     largest relative difference of both kernels' outputs from the host reference
     */
    public record Result(String device, String deviceName, int groups, int local, int iterations, int repeats,
                         double oneQueueMillis, double twoQueuesMillis, double maxRelError) {
        /** One-queue time over two-queue time: 1 without overlap, 2 with full overlap of two equal kernels. */
        public double ratio() {
            return oneQueueMillis / twoQueuesMillis;
        }
    }

    private final Device device;
    private final int groups, local, iterations;
    private final DoubleArray outA, outB;
    private final ExecutionPlan first, second;
    private final DeviceQueue queueA, queueB;

    /**
     * @param groups     work-groups per kernel; 0 picks a quarter of the device's compute units (at least 1)
     * @param local      work-items per group
     * @param iterations loop steps per work-item (the kernel's length)
     */
    public QueueOverlap(Device device, int groups, int local, int iterations) {
        if (groups < 0 || local < 1 || iterations < 1) {
            throw new IllegalArgumentException("groups must be >= 0, local and iterations >= 1; got " + groups + ", " + local + ", " + iterations);
        }
        this.device = device;
        this.groups = groups > 0 ? groups : Math.max(1, device.info().computeUnits() / 4);
        this.local = local;
        this.iterations = iterations;
        int n = this.groups * local;
        outA = new DoubleArray(n);
        outB = new DoubleArray(n);
        WorkerGrid grid = WorkerGrid.of(n).withLocal(local);
        first = plan("a", outA).withGrid("spin", grid);
        second = plan("b", outB).withGrid("spin", grid);
        queueA = device.newQueue();
        queueB = device.newQueue();
        first.onQueue(queueA);
    }

    private ExecutionPlan plan(String name, DoubleArray out) {
        return new ExecutionPlan(new TaskGraph(name)
                .task("spin", QueueOverlapKernels::spin, new KernelContext(), out, iterations)
                .transferToHost(DataTransferMode.UNDER_DEMAND, out).snapshot()).withDevice(device);
    }

    /** Both kernels on queue A, one after the other; returns the wall time in milliseconds. */
    public double oneQueue() {
        second.onQueue(queueA);
        return timeBoth();
    }

    /** The first kernel on queue A, the second on queue B; returns the wall time in milliseconds. */
    public double twoQueues() {
        second.onQueue(queueB);
        return timeBoth();
    }

    private double timeBoth() {
        long t0 = System.nanoTime();
        ExecutionHandle a = first.executeAsync(), b = second.executeAsync();
        a.await();
        b.await();
        return (System.nanoTime() - t0) / 1e6;
    }

    /** Warms up (builds, first launches), then alternates the two variants {@code repeats} times each. */
    public Result measure(int repeats) {
        if (repeats < 1) throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
        for (int w = 0; w < 2; w++) {
            oneQueue();
            twoQueues();
        }
        double[] one = new double[repeats], two = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            one[r] = oneQueue();
            two[r] = twoQueues();
        }
        return new Result(device.id(), device.info().name(), groups, local, iterations, repeats, median(one), median(two),
                maxRelError());
    }

    /** Compares both outputs with the host reference of every work-item. */
    public double maxRelError() {
        first.execute().transferToHost(outA);
        second.execute().transferToHost(outB);
        double worst = 0;
        for (int i = 0; i < outA.getSize(); i++) {
            double want = QueueOverlapKernels.spinReference(i, iterations);
            worst = Math.max(worst, Math.max(Math.abs(outA.get(i) - want), Math.abs(outB.get(i) - want)) / Math.abs(want));
        }
        return worst;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    @Override
    public void close() {
        first.close();
        second.close();
        queueA.close();
        queueB.close();
    }
}
