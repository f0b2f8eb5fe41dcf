package dev.squall.bench.jmh;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.solve.GaussSeidel;
import dev.squall.tasks.runtime.Precision;
import org.openjdk.jmh.annotations.*;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * JMH: one symmetric Gauss-Seidel sweep (forward then backward, {@link GaussSeidel}) per device, precision, schedule
 * (level sets or colours, or the inspector's choice) and matrix, on resident vectors. Setup checks a forward sweep from
 * zero against {@link ReferenceSolvers#gaussSeidel} in the schedule's row order. No CPU library peer: EJML has no
 * Gauss-Seidel smoother.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar GaussSeidelBenchmark -p device=cuda -p schedule=levels,colours
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx6g"})
public class GaussSeidelBenchmark {
    @Param({"jvm", "opencl", "cuda"})
    public String device;

    @Param({"fp32", "fp64"})
    public String precision;

    /** auto, levels or colours ({@link GaussSeidel.Ordering#parse}). */
    @Param({"auto", "levels", "colours"})
    public String schedule;

    @Param({"hpcg:64x64x64"})
    public String matrix;

    /** Widest level walked by one work-group in a single launch: {@code squall gs}'s default. */
    @Param({"512"})
    public int chainMax;

    private GaussSeidel gs;

    @Setup
    public void setup() {
        CsrMatrix a = MatrixGenerators.generate(matrix);
        Precision p = Precision.parse(precision);
        gs = GaussSeidel.create(a, GaussSeidel.Ordering.parse(schedule), p, BenchDevice.open(device), chainMax);
        double[] ones = new double[a.rows()];
        Arrays.fill(ones, 1);
        double[] b = ReferenceSpmv.multiply(a, ones);
        gs.setB(b);
        gs.setX(new double[a.rows()]);
        gs.sweep(GaussSeidel.Direction.FORWARD, 1);
        Schedule f = gs.plan().forward();
        double[] want = new double[a.rows()];
        ReferenceSolvers.gaussSeidel(a, b, want, f.kind() == Schedule.Kind.COLOURS ? f.order() : ReferenceSolvers.natural(a.rows()));
        BenchDevice.check("gs forward sweep (" + f.kind().text() + ") " + precision + " on " + device, gs.x(), want, p == Precision.FP64 ? 1e-12 : 1e-5);
    }

    @TearDown
    public void tearDown() {
        if (gs != null) gs.close();
    }

    /** One forward and one backward sweep in one graph. */
    @Benchmark
    public double symmetricSweep() {
        return gs.sweep(GaussSeidel.Direction.SYMMETRIC, 1);
    }
}
