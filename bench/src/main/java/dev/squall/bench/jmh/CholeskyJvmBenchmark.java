package dev.squall.bench.jmh;

import dev.squall.linalg.cholesky.CholeskyRun;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.Devices;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_MT_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: Cholesky of the same SPD matrix on Squall's {@code jvm} device (all cores, through the
 * fork-join pool) and with EJML's {@code CholeskyDecomposition_F64}, single-threaded
 * ({@code DecompositionFactory_DDRM.chol(n, true)}, benchmark {@code ejml}) and multi-threaded
 * ({@code DecompositionFactory_MT_DDRM.chol(n, true)}, benchmark {@code ejmlMt}), in one run.
 * Each factors a fresh copy each invocation: Squall's {@link CholeskyRun} copies the lower triangle
 * inside its timed launches, EJML gets {@code inputModified() == true} and is handed a copy made
 * inside the measured method (an n^2 copy, like Squall's).
 *
 * <pre>{@code
 * java -cp 'squall/lib/*' org.openjdk.jmh.Main CholeskyJvmBenchmark -f 1 -wi 3 -i 5
 * java -cp 'squall/lib/*' org.openjdk.jmh.Main CholeskyJvmBenchmark -p n=2048 -f 1 -wi 2 -i 3
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
    private CholeskyDecomposition_F64<DMatrixRMaj> ejml, ejmlMt;

    /**
     * {@code A = G G^T / n + I} with G uniform in [-1, 1): SPD, condition number about 5. G is kept
     * row-major so each entry is a contiguous inner product, summed in four partial sums
     * (n = 2048 builds in about a second).
     */
    @Setup
    public void setup() {
        double[] g = new SplittableRandom(42).doubles((long) n * n, -1, 1).toArray();
        double[] a = new double[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                int gi = i * n, gj = j * n;
                double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                int p = 0;
                for (; p + 3 < n; p += 4) {
                    s0 += g[gi + p] * g[gj + p];
                    s1 += g[gi + p + 1] * g[gj + p + 1];
                    s2 += g[gi + p + 2] * g[gj + p + 2];
                    s3 += g[gi + p + 3] * g[gj + p + 3];
                }
                for (; p < n; p++) s0 += g[gi + p] * g[gj + p];
                a[i + j * n] = a[j + i * n] = ((s0 + s1) + (s2 + s3)) / n + (i == j ? 1 : 0);
            }
        }
        squall = new CholeskyRun(Devices.get("jvm"), DoubleArray.fromArray(a), n);
        ejmlInput = new DMatrixRMaj(n, n, false, a); // symmetric: column-major == row-major
        ejmlWork = new DMatrixRMaj(n, n);
        ejml = DecompositionFactory_DDRM.chol(n, true);
        ejmlMt = DecompositionFactory_MT_DDRM.chol(n, true);
        // all must succeed before anything is timed
        squall.execute();
        ejmlWork.setTo(ejmlInput);
        if (!ejml.decompose(ejmlWork)) throw new IllegalStateException("EJML failed to factor the test matrix");
        ejmlWork.setTo(ejmlInput);
        if (!ejmlMt.decompose(ejmlWork)) throw new IllegalStateException("EJML (MT) failed to factor the test matrix");
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

    /** EJML's multi-threaded block Cholesky (its own thread pool over all cores). */
    @Benchmark
    public boolean ejmlMt() {
        ejmlWork.setTo(ejmlInput);
        return ejmlMt.decompose(ejmlWork);
    }
}
