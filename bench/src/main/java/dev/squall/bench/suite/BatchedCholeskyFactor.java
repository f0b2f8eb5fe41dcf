package dev.squall.bench.suite;

import dev.squall.linalg.cholesky.BatchedCholesky;
import dev.squall.linalg.cholesky.SmallCholeskyKernel;
import dev.squall.linalg.plan.LaunchSequence;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Cholesky factors of a batch of small covariance matrices ({@link BatchedCholesky}, the default warp-loop kernel,
 * fp64, out of place so every sample factors the same input): Gaussian covariances of 3-D points plus a nugget of 0.1
 * on the diagonal. A sample is the kernel's device time; n^3 / 3 flops a matrix. Verified against
 * {@link ReferenceCholesky} on every matrix: largest entry difference over the largest entry of L.
 */
public final class BatchedCholeskyFactor extends Workload {
    private final int n;
    private final int batch;

    public BatchedCholeskyFactor(int n, int batch) {
        super("cholesky", "batched Cholesky", "matrices", "fp64", Bound.COMPUTE);
        this.n = n;
        this.batch = batch;
    }

    @Override
    public String size() {
        return String.format(Locale.ROOT, "%d x n=%d", batch, n);
    }

    @Override
    public double scale() {
        return batch;
    }

    /** Matrix {@code e}: exp(-|x_i - x_j|^2 / (2 0.3^2)) + 0.1 [i = j] over n seeded points in the unit cube, column-major. */
    static double[] covariance(int n, int e) {
        double[] x = new SplittableRandom(100 + e).doubles(3L * n, 0, 1).toArray();
        double[] a = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1], dz = x[3 * i + 2] - x[3 * j + 2];
                a[i + j * n] = Math.exp(-(dx * dx + dy * dy + dz * dz) / (2 * 0.3 * 0.3)) + (i == j ? 0.1 : 0);
            }
        }
        return a;
    }

    @Override
    protected Run start(Device device) {
        int nn = n * n;
        DoubleArray a = new DoubleArray((long) nn * batch), l = new DoubleArray((long) nn * batch);
        IntStream.range(0, batch).parallel().forEach(e -> {
            double[] m = covariance(n, e);
            for (int q = 0; q < nn; q++) a.set((long) e * nn + q, m[q]);
        });
        IntArray info = new IntArray(batch);
        info.init(Integer.MAX_VALUE);
        LaunchSequence seq = new LaunchSequence("demo_potrf_batched");
        seq.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, a, info);
        BatchedCholesky.appendOutOfPlace(seq, a, 0, l, 0, n, nn, n, batch, info, 0, 0, SmallCholeskyKernel.WARP_LOOP);
        seq.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, info);
        ExecutionPlan plan = seq.plan(device).withProfiler(true);
        return new Run() {
            dev.squall.tasks.runtime.ExecutionResult last;

            @Override
            public double sample() {
                last = plan.execute();
                return last.profile().kernelMillis();
            }

            @Override
            public double work() {
                return (double) n * n * n / 3.0 * batch;
            }

            @Override
            public String note(double medianMs) {
                return String.format(Locale.ROOT, "%.3g matrices/s", batch / (medianMs * 1e-3));
            }

            @Override
            public Check check(ResultHook hook) {
                last.transferToHost(l);
                double[] got = l.toHeapArray();
                hook.accept(name(), got);
                double diff = 0, scale = 0;
                for (int e = 0; e < batch; e++) {
                    if (info.get(e) != Integer.MAX_VALUE) diff = Double.POSITIVE_INFINITY;   // the device saw a failing pivot
                    double[] want = ReferenceCholesky.factor(n, covariance(n, e));
                    for (int q = 0; q < nn; q++) {
                        double d = Math.abs(got[e * nn + q] - want[q]);
                        diff = Math.max(diff, Double.isNaN(d) ? Double.POSITIVE_INFINITY : d);
                        scale = Math.max(scale, Math.abs(want[q]));
                    }
                }
                return new Check(diff / scale, 1e-12 * n, "ReferenceCholesky on all " + batch + " matrices, max difference / max |L|");
            }

            @Override
            public void close() {
                plan.freeDeviceMemory();
                plan.close();
            }
        };
    }
}
