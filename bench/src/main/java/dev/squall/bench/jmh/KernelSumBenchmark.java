package dev.squall.bench.jmh;

import dev.squall.hmatrix.ksum.BlockSparseSum;
import dev.squall.hmatrix.ksum.Clustering;
import dev.squall.hmatrix.ksum.KernelSum;
import dev.squall.hmatrix.ksum.PairKernel;
import dev.squall.hmatrix.ksum.PointSet;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import org.openjdk.jmh.annotations.*;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: Gaussian kernel sums {@code a = K b} ({@link KernelSum}) per device, precision and size, as
 * {@code squall demo} runs them: {@code dense} over {@code n} uniform targets and sources in the unit cube (length
 * 0.1, every pair); {@code blockSparse} ({@link BlockSparseSum}) over {@code n} points in the unit square with a
 * narrow kernel (length 0.01, grid cells of 0.02, tiles kept within 0.06; clusterings built in setup). An op is one
 * call: b uploaded, the sum, a copied back. Setup checks 50 rows against the exact fp64 sums within the module's
 * bound (dropped terms plus {@code 4 u sqrt(N) sum |k b|}). The GPU peer is PyTorch ({@code bench/peers/torch_ksum.py}).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar KernelSumBenchmark.dense -p device=cuda -p precision=fp32 -p n=65536
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx6g"})
public class KernelSumBenchmark {
    /** The dense sum in 3-D. */
    @State(Scope.Benchmark)
    public static class Dense {
        @Param({"jvm", "opencl", "cuda"})
        public String device;

        @Param({"fp32", "fp64"})
        public String precision;

        @Param({"16384"})
        public int n;

        PointSet x, y;
        double[] b;
        KernelSum engine;

        @Setup
        public void setup() {
            PairKernel k = PairKernel.gaussian(0.1);
            x = PointSet.uniform(n, 3, 1);
            y = PointSet.uniform(n, 3, 2);
            b = new SplittableRandom(3).doubles(n, 0, 1).toArray();
            Precision p = Precision.parse(precision);
            engine = new KernelSum(k, p, BenchDevice.open(device));
            check("dense kernel sum " + precision + " on " + device, engine.apply(x, y, b, 1), k, p, x, y, b);
        }
    }

    /** The block-sparse sum in 2-D. */
    @State(Scope.Benchmark)
    public static class Sparse {
        @Param({"jvm", "opencl", "cuda"})
        public String device;

        @Param({"fp32", "fp64"})
        public String precision;

        @Param({"100000"})
        public int n;

        BlockSparseSum sum;
        BlockSparseSum.KeepRule rule = BlockSparseSum.KeepRule.within(0.06);
        double[] b;

        @Setup
        public void setup() {
            PairKernel k = PairKernel.gaussian(0.01);
            PointSet x = PointSet.uniform(n, 2, 1), y = PointSet.uniform(n, 2, 2);
            b = new SplittableRandom(3).doubles(n, 0, 1).toArray();
            Precision p = Precision.parse(precision);
            Device d = BenchDevice.open(device);
            sum = BlockSparseSum.build(new KernelSum(k, p, d), x, y, Clustering.grid(x, 0.02, d), Clustering.grid(y, 0.02, d));
            check("block-sparse kernel sum " + precision + " on " + device, sum.apply(b, 1, rule), k, p, x, y, b);
        }
    }

    /** The exact fp64 sums of 50 sampled rows against {@code r}, within the row bounds plus rounding. */
    static void check(String what, KernelSum.Result r, PairKernel k, Precision p, PointSet x, PointSet y, double[] b) {
        int[] rows = new SplittableRandom(3).ints(0, x.size()).distinct().limit(Math.min(50, x.size())).toArray();
        for (int i : rows) {
            double exact = 0, abs = 0;
            for (int j = 0; j < y.size(); j++) {
                double v = k.evaluate(x.distance(i, y, j)) * b[j];
                exact += v;
                abs += Math.abs(v);
            }
            double err = Math.abs(r.values()[i] - exact), allowed = r.rowBounds()[i] + 4 * p.epsilon() * Math.sqrt(y.size()) * abs;
            if (!(err <= allowed)) {
                throw new IllegalStateException(String.format(Locale.ROOT, "%s: row %d is %.17g, exact %.17g (error %.3g > allowed %.3g)",
                        what, i, r.values()[i], exact, err, allowed));
            }
        }
    }

    /** Dense: every pair. */
    @Benchmark
    public Object dense(Dense s) {
        return s.engine.apply(s.x, s.y, s.b, 1);
    }

    /** Block-sparse: the kept tiles. */
    @Benchmark
    public Object blockSparse(Sparse s) {
        return s.sum.apply(s.b, 1, s.rule);
    }
}
