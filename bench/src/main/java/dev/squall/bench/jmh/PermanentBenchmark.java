package dev.squall.bench.jmh;

import dev.squall.permanent.Method;
import dev.squall.permanent.PermanentResult;
import dev.squall.permanent.PermanentSolver;
import dev.squall.permanent.cpu.ChunkedJvmPermanent;
import dev.squall.permanent.matrix.SquareMatrix;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: the permanent of a dense {@code n x n} matrix of uniform [0, 1) values by the Gray-code Ryser sweep
 * ({@link PermanentSolver}, method dense, no decomposition; fp64 with compensated sums, the module's one precision)
 * per device and order. Setup checks the value against the double-double sweep on the JVM
 * ({@link ChunkedJvmPermanent#accurate}) to 1e-9 relative. No CPU library peer (EJML has no permanents); the GPU
 * peer is CuPy ({@code bench/peers/cupy_permanent.py}).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar PermanentBenchmark -p device=cuda -p n=24,28
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class PermanentBenchmark {
    @Param({"jvm", "opencl", "cuda"})
    public String device;

    @Param({"20", "24"})
    public int n;

    private PermanentSolver solver;
    private SquareMatrix a;

    @Setup
    public void setup() {
        a = SquareMatrix.of(n, new SplittableRandom(5).doubles((long) n * n, 0, 1).toArray());
        solver = new PermanentSolver().device(BenchDevice.open(device)).method(Method.DENSE).decompose(false);
        PermanentResult r = solver.solve(a);
        double want = new ChunkedJvmPermanent(Runtime.getRuntime().availableProcessors()).accurate(a);
        BenchDevice.check("permanent n=" + n + " on " + device, new double[]{r.value()}, new double[]{want}, 1e-9);
    }

    /** One permanent. */
    @Benchmark
    public PermanentResult solve() {
        return solver.solve(a);
    }
}
