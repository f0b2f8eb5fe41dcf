package dev.squall.bench.jmh;

import dev.squall.linalg.cholesky.CholeskyRun;
import dev.squall.linalg.reference.ReferenceCholesky;
import dev.squall.linalg.reference.ReferenceTriangular;
import dev.squall.linalg.triangular.TriangularInverse;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.TriangularSolver_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_MT_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: dense Cholesky of one SPD matrix ({@link CholeskyRun}) and the inverses of a batch of lower-triangular
 * matrices ({@link TriangularInverse#invert}), fp64 (linalg's precision), per device and order, with EJML on the
 * CPU as peer in the same run: {@code CholeskyDecomposition_F64} one-threaded and multi-threaded, and
 * {@code TriangularSolver_DDRM.invertLower} over the batch. Setup checks Squall's results against
 * {@link ReferenceCholesky} and {@link ReferenceTriangular} on all entries (first matrix of the batch for the
 * inverse) and EJML's Cholesky against Squall's factor.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar 'CholeskyBenchmark.(squall|ejml)Cholesky' -p device=cuda -p n=4096
 * java -jar bench/target/benchmarks.jar CholeskyBenchmark.squallTriangularInverse -p device=jvm,opencl
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Xmx8g"})
public class CholeskyBenchmark {
    /** {@code A = G G^T / n + I}, G uniform in [-1, 1): SPD, condition number about 5; column-major (symmetric). */
    static double[] spd(int n) {
        double[] g = new SplittableRandom(42).doubles((long) n * n, -1, 1).toArray();
        double[] a = new double[n * n];
        java.util.stream.IntStream.range(0, n).parallel().forEach(j -> {
            for (int i = j; i < n; i++) {
                double s = 0;
                for (int p = 0; p < n; p++) s += g[i * n + p] * g[j * n + p];
                a[i + j * n] = a[j + i * n] = s / n + (i == j ? 1 : 0);
            }
        });
        return a;
    }

    /** {@code batch} lower-triangular matrices, column-major, diagonal in [1, 2), below it uniform in [-0.5, 0.5). */
    static double[] lowers(int n, int batch) {
        SplittableRandom r = new SplittableRandom(9);
        double[] l = new double[n * n * batch];
        for (int e = 0; e < batch; e++) {
            for (int j = 0; j < n; j++) {
                l[e * n * n + j + j * n] = 1 + r.nextDouble();
                for (int i = j + 1; i < n; i++) l[e * n * n + i + j * n] = r.nextDouble(-0.5, 0.5);
            }
        }
        return l;
    }

    /** One n x n SPD matrix. */
    @State(Scope.Benchmark)
    public static class Spd {
        @Param({"1024", "2048"})
        public int n;

        double[] a;

        @Setup
        public void setup() {
            a = spd(n);
        }
    }

    /** Squall's Cholesky on a device. */
    @State(Scope.Benchmark)
    public static class OnDevice {
        @Param({"jvm", "opencl", "cuda"})
        public String device;

        CholeskyRun run;

        @Setup
        public void setup(Spd s) {
            run = new CholeskyRun(BenchDevice.open(device), DoubleArray.fromArray(s.a), s.n);
            run.execute();
            double[] got = Precision.toDoubles(run.factor().l()), want = ReferenceCholesky.factor(s.n, s.a);
            double[] lower = new double[want.length];
            for (int j = 0; j < s.n; j++) for (int i = j; i < s.n; i++) lower[i + j * s.n] = got[i + j * s.n];
            BenchDevice.check("cholesky n=" + s.n + " on " + device, lower, want, 1e-12);
        }

        @TearDown
        public void tearDown() {
            if (run != null) run.close();
        }
    }

    /** EJML's Cholesky, one- and multi-threaded, factoring a fresh copy each time. */
    @State(Scope.Benchmark)
    public static class Ejml {
        DMatrixRMaj input, work;
        CholeskyDecomposition_F64<DMatrixRMaj> single, multi;

        @Setup
        public void setup(Spd s) {
            input = new DMatrixRMaj(s.n, s.n, false, s.a);
            work = new DMatrixRMaj(s.n, s.n);
            single = DecompositionFactory_DDRM.chol(s.n, true);
            multi = DecompositionFactory_MT_DDRM.chol(s.n, true);
            work.setTo(input);
            if (!single.decompose(work)) throw new IllegalStateException("EJML failed to factor the test matrix");
            double[] want = ReferenceCholesky.factor(s.n, s.a), got = new double[want.length];
            DMatrixRMaj l = single.getT(null);   // row-major lower factor
            for (int j = 0; j < s.n; j++) for (int i = j; i < s.n; i++) got[i + j * s.n] = l.get(i, j);
            BenchDevice.check("ejml cholesky n=" + s.n, got, want, 1e-12);
        }
    }

    /** A batch of lower-triangular matrices to invert. */
    @State(Scope.Benchmark)
    public static class Lowers {
        @Param({"64"})
        public int order;

        @Param({"10000"})
        public int batch;

        double[] l;

        @Setup
        public void setup() {
            l = lowers(order, batch);
        }
    }

    /** Squall's triangular inverse on a device. */
    @State(Scope.Benchmark)
    public static class InverseOnDevice {
        @Param({"jvm", "opencl", "cuda"})
        public String device;

        Device d;
        DoubleArray l;

        @Setup
        public void setup(Lowers s) {
            d = BenchDevice.open(device);
            l = DoubleArray.fromArray(s.l);
            double[] got = Precision.toDoubles(TriangularInverse.invert(d, l, s.order, s.batch));
            int nn = s.order * s.order;
            double[] first = new double[nn];
            System.arraycopy(s.l, 0, first, 0, nn);
            double[] mine = new double[nn];
            System.arraycopy(got, 0, mine, 0, nn);
            double[] want = ReferenceTriangular.invertLower(s.order, first);
            for (int j = 0; j < s.order; j++) for (int i = 0; i < j; i++) mine[i + j * s.order] = want[i + j * s.order];
            BenchDevice.check("triangular inverse n=" + s.order + " on " + device, mine, want, 1e-12);
        }
    }

    /** The same batch row-major for EJML. */
    @State(Scope.Benchmark)
    public static class InverseEjml {
        double[] rowMajor, inverse;

        @Setup
        public void setup(Lowers s) {
            int n = s.order, nn = n * n;
            rowMajor = new double[s.l.length];
            inverse = new double[nn];
            for (int e = 0; e < s.batch; e++) for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) rowMajor[e * nn + i * n + j] = s.l[e * nn + i + j * n];
            TriangularSolver_DDRM.invertLower(java.util.Arrays.copyOf(rowMajor, nn), inverse, n);
            double[] first = java.util.Arrays.copyOf(s.l, nn), want = ReferenceTriangular.invertLower(n, first), got = new double[nn];
            for (int j = 0; j < n; j++) for (int i = j; i < n; i++) got[i + j * n] = inverse[i * n + j];
            for (int j = 0; j < n; j++) for (int i = 0; i < j; i++) got[i + j * n] = want[i + j * n];
            BenchDevice.check("ejml triangular inverse n=" + n, got, want, 1e-12);
        }
    }

    /** Squall: Cholesky of A (the lower triangle copied in, factored in place on the device). */
    @Benchmark
    public Object squallCholesky(OnDevice s) {
        return s.run.execute();
    }

    /** EJML, one thread. */
    @Benchmark
    public boolean ejmlCholesky(Spd a, Ejml s) {
        s.work.setTo(s.input);
        return s.single.decompose(s.work);
    }

    /** EJML's block Cholesky on its own thread pool over all cores. */
    @Benchmark
    public boolean ejmlCholeskyMt(Spd a, Ejml s) {
        s.work.setTo(s.input);
        return s.multi.decompose(s.work);
    }

    /** Squall: the batch's inverses (L uploaded, the inverses copied back). */
    @Benchmark
    public Object squallTriangularInverse(Lowers l, InverseOnDevice s) {
        return TriangularInverse.invert(s.d, s.l, l.order, l.batch);
    }

    /** EJML: {@code invertLower} on each matrix of the batch, one thread. */
    @Benchmark
    public double[] ejmlTriangularInverse(Lowers l, InverseEjml s) {
        int nn = l.order * l.order;
        double[] one = new double[nn];
        for (int e = 0; e < l.batch; e++) {
            System.arraycopy(s.rowMajor, e * nn, one, 0, nn);
            TriangularSolver_DDRM.invertLower(one, s.inverse, l.order);
        }
        return s.inverse;
    }
}
