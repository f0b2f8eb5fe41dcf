package dev.squall.linalg.cli;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.Precision;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Random inputs for the commands: Gaussian-process covariances of random 3-D point clouds
 * ({@code exp(-|x_i - x_j|^2 / 2 l^2) + nugget * delta_ij}, built in O(n^2) so n = 32768 is quick)
 * and well-conditioned lower-triangular matrices. Written straight into off-heap arrays: at
 * n = 32768 a heap copy would need a 9 GB Java heap.
 */
final class Inputs {
    static final double LENGTH_SCALE = 0.3, NUGGET = 0.1;

    private Inputs() {
    }

    /** {@code batch} covariance matrices of order n, packed column-major. */
    static KernelArray covariances(Precision p, int n, int batch, long seed) {
        KernelArray a = p.allocate(Math.multiplyExact(Math.multiplyExact(n, n), batch));
        IntStream.range(0, batch).parallel().forEach(e -> {
            SplittableRandom rnd = new SplittableRandom(seed + e);
            double[] x = rnd.doubles(3L * n, 0, 1).toArray();
            fill(a, e * n * n, n, x);
        });
        return a;
    }

    private static void fill(KernelArray a, int base, int n, double[] x) {
        IntStream.range(0, n).parallel().forEach(j -> {
            for (int i = 0; i < n; i++) {
                double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1], dz = x[3 * i + 2] - x[3 * j + 2];
                set(a, base + i + j * n, Math.exp(-(dx * dx + dy * dy + dz * dz) / (2 * LENGTH_SCALE * LENGTH_SCALE)) + (i == j ? NUGGET : 0));
            }
        });
    }

    /** {@code batch} lower-triangular matrices: diagonal in [1, 2], off-diagonal in [-1, 1] / n (condition number O(1)). */
    static KernelArray lowerTriangular(Precision p, int n, int batch, long seed) {
        KernelArray l = p.allocate(Math.multiplyExact(Math.multiplyExact(n, n), batch));
        IntStream.range(0, batch).parallel().forEach(e -> {
            SplittableRandom rnd = new SplittableRandom(seed + e);
            for (int j = 0; j < n; j++) {
                set(l, e * n * n + j + j * n, 1 + rnd.nextDouble());
                for (int i = j + 1; i < n; i++) set(l, e * n * n + i + j * n, rnd.nextDouble(-1, 1) / n);
            }
        });
        return l;
    }

    private static void set(KernelArray a, int i, double v) {
        if (a instanceof DoubleArray d) d.set(i, v);
        else ((FloatArray) a).set(i, (float) v);
    }
}
