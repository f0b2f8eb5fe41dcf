package dev.squall.bench.jmh;

import dev.squall.permanent.RandomSquareMatrices;
import dev.squall.permanent.cpu.DoubleDoubleGraySweep;
import dev.squall.permanent.cpu.RyserRoundingEstimate;
import dev.squall.permanent.cpu.SparseGraySweep;
import dev.squall.permanent.matrix.SquareMatrix;
import dev.squall.permanent.numeric.Balancing;
import dev.squall.permanent.numeric.KahanSum;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: the cost of the Gray-code rounding estimate ({@link RyserRoundingEstimate}) of the n = 40 benchmark
 * matrices on ONE thread (core-seconds; a host with c cores runs its parallel tasks in about 1/c of it), for the
 * run chunk of an H100 run (2^20 steps), and the single-thread rates it is made of: 2^16 double-double steps and
 * 2^20 double sweep steps.
 *
 * <pre>{@code
 * java -cp 'bench/target/*:bench/target/lib/*' org.openjdk.jmh.Main RyserEstimateBenchmark -f 1 -wi 2 -i 3
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class RyserEstimateBenchmark {
    /** {@code --random} specs of {@code squall permanent}. */
    @Param({"40:0.1:1", "40:0.5:1"})
    public String matrix;

    private SquareMatrix balanced;
    private ForkJoinPool one;

    @Setup
    public void setup() {
        balanced = Balancing.of(RandomSquareMatrices.parse(matrix)).scaled();
        one = new ForkJoinPool(1);
    }

    @TearDown
    public void tearDown() {
        one.shutdown();
    }

    /** The whole estimate, its parallel streams confined to a one-thread pool. */
    @Benchmark
    public double estimateOneThread() throws Exception {
        return one.submit(() -> RyserRoundingEstimate.of(balanced, 1L << 20).sampled()).get();
    }

    @Benchmark
    public double doubleDouble65536Steps() {
        KahanSum s = new KahanSum();
        new DoubleDoubleGraySweep(balanced).sum(1L << 30, (1L << 30) + (1L << 16), s);
        return s.value();
    }

    @Benchmark
    public double double1MSteps() {
        KahanSum s = new KahanSum();
        new SparseGraySweep(balanced).sum(1L << 30, (1L << 30) + (1L << 20), s);
        return s.value();
    }
}
