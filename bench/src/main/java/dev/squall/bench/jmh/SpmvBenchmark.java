package dev.squall.bench.jmh;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Precision;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.sparse.csc.CommonOps_DSCC;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * JMH: SpMV {@code y = A x} per device, storage format, precision and matrix ({@code squall spmv --generate}
 * descriptions), with EJML's {@code CommonOps_DSCC.mult} (fp64, A in CSC, one thread) on the same matrix as the CPU
 * peer in the same run. Format {@code auto} is what {@link FormatChooser} picks for the device. Setup checks each
 * product against {@link ReferenceSpmv}. A benchmark op is one product on resident data (launch to completion).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar SpmvBenchmark -p device=jvm -p format=csr,sell,auto -p precision=fp64
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx6g"})
public class SpmvBenchmark {
    static double[] x(CsrMatrix a) {
        return new SplittableRandom(7).doubles(a.cols(), -1, 1).toArray();
    }

    /** Squall's executor for one format on one device. */
    @State(Scope.Benchmark)
    public static class OnDevice {
        @Param({"jvm", "opencl", "cuda"})
        public String device;

        /** A format's command-line name ({@code csr}, {@code csr-vector}, {@code sell}, ...) or {@code auto}. */
        @Param({"csr", "csr-vector", "csr-merge", "csr-binned", "csr-stream", "coo", "ell", "sell", "dia", "hyb", "bcsr", "auto"})
        public String format;

        @Param({"fp32", "fp64"})
        public String precision;

        @Param({"27pt:64x64x64"})
        public String matrix;

        SpmvExecutor spmv;

        @Setup
        public void setup() {
            Device d = BenchDevice.open(device);
            CsrMatrix a = MatrixGenerators.generate(matrix);
            SpmvFormat f = format.equals("auto") ? FormatChooser.choose(a, d).format() : SpmvFormat.parse(format);
            Precision p = Precision.parse(precision);
            spmv = SpmvExecutor.create(a, f, p, d);
            double[] x = x(a);
            spmv.setX(x);
            BenchDevice.check("spmv " + f.cliName() + " " + precision + " on " + device, spmv.multiply(1, x, 0, null),
                    ReferenceSpmv.multiply(a, x), p == Precision.FP64 ? 1e-12 : 1e-5);
        }

        @TearDown
        public void tearDown() {
            if (spmv != null) spmv.close();
        }
    }

    /** EJML's sparse product on the same matrix: A in CSC, built from the CSR of A's transpose. */
    @State(Scope.Benchmark)
    public static class Ejml {
        @Param({"27pt:64x64x64"})
        public String matrix;

        DMatrixSparseCSC a;
        DMatrixRMaj x, y;

        @Setup
        public void setup() {
            CsrMatrix m = MatrixGenerators.generate(matrix);
            CsrMatrix t = CsrTranspose.of(m);
            a = new DMatrixSparseCSC(m.rows(), m.cols(), m.nnz());
            System.arraycopy(t.rowPtr(), 0, a.col_idx, 0, m.cols() + 1);
            System.arraycopy(t.colIdx(), 0, a.nz_rows, 0, m.nnz());
            System.arraycopy(t.values(), 0, a.nz_values, 0, m.nnz());
            a.nz_length = m.nnz();
            a.indicesSorted = true;
            double[] xs = x(m);
            x = new DMatrixRMaj(m.cols(), 1, true, xs);
            y = new DMatrixRMaj(m.rows(), 1);
            CommonOps_DSCC.mult(a, x, y);
            BenchDevice.check("ejml spmv", y.data, ReferenceSpmv.multiply(m, xs), 1e-12);
        }
    }

    /** Squall: one product on the device. */
    @Benchmark
    public Object squall(OnDevice s) {
        return s.spmv.execute();
    }

    /** EJML 0.44 on the CPU, one thread, fp64. */
    @Benchmark
    public DMatrixRMaj ejml(Ejml s) {
        CommonOps_DSCC.mult(s.a, s.x, s.y);
        return s.y;
    }
}
