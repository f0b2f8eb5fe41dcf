package dev.squall.bench.jmh;

import dev.squall.hmatrix.h2.H2Matrix;
import dev.squall.hmatrix.h2.H2Options;
import dev.squall.hmatrix.kernel.CovarianceKernel;
import dev.squall.hmatrix.points.PointCloud;
import dev.squall.tasks.runtime.Device;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: the H2 matrix of an exponential covariance kernel ({@code exp(-r/0.1)}) over a perturbed 2-D grid of
 * {@code n} points (leaf 64, eta 1, Chebyshev order per dimension), fp64 (the module's precision), per device:
 * {@code matvec} is one product {@code y = A x} (x in, y out), {@code compress} one recompression to
 * {@code eps} of a freshly built matrix (single shot: it changes the matrix). Setup checks the product on 50 rows
 * against the exact kernel sums, to a relative 2-norm error of {@code 10^(2 - order)} (1e-6 at order 8). No CPU library peer: EJML has no hierarchical matrices (a dense product of
 * order 65536 would need 34 GB).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar H2Benchmark.matvec -p device=cuda -p n=65536,262144
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx8g"})
public class H2Benchmark {
    private static final CovarianceKernel KERNEL = CovarianceKernel.exponential(0.1);

    /** The parameters both benchmarks share (JMH wants @Param fields in a @State class). */
    @State(Scope.Benchmark)
    public abstract static class Problem {
        @Param({"jvm", "opencl", "cuda"})
        public String device;

        @Param({"16384"})
        public int n;

        @Param({"8"})
        public int order;

        Device d;
        PointCloud points;

        void open() {
            d = BenchDevice.open(device);
            points = PointCloud.perturbedGrid(n, 2, 1);
        }

        H2Matrix build() {
            return H2Matrix.build(points, KERNEL, new H2Options(64, order, 1.0, d));
        }
    }

    /** A built matrix and x; setup checks one product. */
    @State(Scope.Benchmark)
    public static class Product extends Problem {
        H2Matrix a;
        double[] x;

        @Setup
        public void setup() {
            open();
            a = build();
            x = new SplittableRandom(2).doubles(a.cols(), -1, 1).toArray();
            double[] y = a.multiply(x);
            int[] rows = new SplittableRandom(3).ints(0, n).distinct().limit(Math.min(50, n)).toArray();
            double[] got = new double[rows.length], want = new double[rows.length];
            for (int r = 0; r < rows.length; r++) {
                got[r] = y[rows[r]];
                for (int j = 0; j < n; j++) want[r] += KERNEL.evaluate(points, rows[r], points, j) * x[j];
            }
            BenchDevice.check("h2 matvec order " + order + " on " + device, got, want, Math.pow(10, 2 - order));
        }

        @TearDown
        public void tearDown() {
            if (a != null) a.close();
        }
    }

    /** A freshly built matrix for each compression (built untimed). */
    @State(Scope.Benchmark)
    public static class Fresh extends Problem {
        /** Relative tolerance of the recompression. */
        @Param({"1e-6"})
        public double eps;

        H2Matrix a;

        @Setup(Level.Trial)
        public void setup() {
            open();
        }

        @Setup(Level.Invocation)
        public void rebuild() {
            if (a != null) a.close();
            a = build();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (a != null) a.close();
        }
    }

    /** One product, x in, y out. */
    @Benchmark
    public double[] matvec(Product s) {
        return s.a.multiply(s.x);
    }

    /** One recompression of a freshly built matrix to {@code eps}. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 1, batchSize = 1)
    @Measurement(iterations = 3, batchSize = 1)
    public Object compress(Fresh s) {
        return s.a.compress(s.eps);
    }
}
