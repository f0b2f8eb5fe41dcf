package dev.squall.bench.jmh;

import dev.squall.linalg.cholesky.CholeskyRun;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.Devices;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: Cholesky of the same SPD matrix on Squall's {@code jvm} device and with EJML's
 * {@code CholeskyDecomposition_F64} ({@code DecompositionFactory_DDRM.chol(n, true)}), in one run.
 * Both factor a fresh copy each invocation: Squall's {@link CholeskyRun} copies the lower triangle
 * inside its timed launches, EJML gets {@code inputModified() == true} and is handed a copy made
 * inside the measured method (an n^2 copy, like Squall's).
 *
 * <pre>{@code
 * java -cp 'squall/lib/*' org.openjdk.jmh.Main CholeskyJvmBenchmark -f 1 -wi 3 -i 5
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
public class CholeskyJvmBenchmark {
    @Param({"512", "1024"})
    public int n;

    private CholeskyRun squall;
    private DMatrixRMaj ejmlInput, ejmlWork;
    private CholeskyDecomposition_F64<DMatrixRMaj> ejml;

    /** {@code A = G G^T / n + I} with G uniform in [-1, 1): SPD, condition number about 5. */
    @Setup
    public void setup() {
        double[] g = new SplittableRandom(42).doubles((long) n * n, -1, 1).toArray();
        double[] a = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double s = 0;
                for (int p = 0; p < n; p++) s += g[i + p * n] * g[j + p * n];
                a[i + j * n] = a[j + i * n] = s / n + (i == j ? 1 : 0);
            }
        }
        squall = new CholeskyRun(Devices.get("jvm"), DoubleArray.fromArray(a), n);
        ejmlInput = new DMatrixRMaj(n, n, false, a); // symmetric: column-major == row-major
        ejmlWork = new DMatrixRMaj(n, n);
        ejml = DecompositionFactory_DDRM.chol(n, true);
        // both must succeed before anything is timed
        squall.execute();
        ejmlWork.setTo(ejmlInput);
        if (!ejml.decompose(ejmlWork)) throw new IllegalStateException("EJML failed to factor the test matrix");
    }

    @TearDown
    public void tearDown() {
        squall.close();
    }

    @Benchmark
    public Object squallJvm() {
        return squall.execute();
    }

    @Benchmark
    public boolean ejml() {
        ejmlWork.setTo(ejmlInput);
        return ejml.decompose(ejmlWork);
    }
}
