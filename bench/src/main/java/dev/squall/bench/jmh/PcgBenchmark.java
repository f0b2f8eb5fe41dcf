package dev.squall.bench.jmh;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.precond.JacobiPreconditioner;
import dev.squall.sparse.reference.ReferenceSolvers;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.solve.DeviceMatrix;
import dev.squall.sparse.solve.Pcg;
import dev.squall.tasks.runtime.Precision;
import org.openjdk.jmh.annotations.*;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * JMH: a Jacobi-preconditioned CG solve ({@link Pcg}) of HPCG's 27-point problem, {@code b = A * ones}, to a
 * relative residual of {@code 1e-8} (fp64) or {@code 1e-5} (fp32), per device, precision and grid. Every op is a
 * whole solve from zero; setup checks the true residual {@code ||b - Ax|| / ||b||} of one solve. No CPU library
 * peer: EJML has no iterative solvers.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar PcgBenchmark -p device=cuda -p grid=64,128
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx6g"})
public class PcgBenchmark {
    @Param({"jvm", "opencl", "cuda"})
    public String device;

    @Param({"fp32", "fp64"})
    public String precision;

    /** The grid is grid^3 points. */
    @Param({"32", "64"})
    public int grid;

    private Pcg cg;
    private double[] b;
    private double tol;

    @Setup
    public void setup() {
        CsrMatrix a = MatrixGenerators.generate("hpcg:" + grid + "x" + grid + "x" + grid);
        Precision p = Precision.parse(precision);
        tol = p == Precision.FP64 ? 1e-8 : 1e-5;
        double[] ones = new double[a.rows()];
        Arrays.fill(ones, 1);
        b = ReferenceSpmv.multiply(a, ones);
        cg = Pcg.create(a, new JacobiPreconditioner(DeviceMatrix.of(a, p), p), p, BenchDevice.open(device), null);
        Pcg.Result r = cg.solve(b, tol, 1000, null);
        double rel = ReferenceSolvers.residualNorm(a, b, r.x()) / ReferenceSolvers.norm(b);
        if (!(rel <= 10 * tol)) {
            throw new IllegalStateException("pcg " + precision + " on " + device + ": true residual " + rel + " after " + r.iterations()
                    + " iterations exceeds " + 10 * tol);
        }
    }

    @TearDown
    public void tearDown() {
        if (cg != null) cg.close();
    }

    /** One solve from zero to the tolerance. */
    @Benchmark
    public Object solve() {
        return cg.solve(b, tol, 1000, null);
    }
}
