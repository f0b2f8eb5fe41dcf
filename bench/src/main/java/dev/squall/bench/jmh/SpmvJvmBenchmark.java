package dev.squall.bench.jmh;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.format.CsrTranspose;
import dev.squall.sparse.generate.MatrixGenerators;
import dev.squall.sparse.inspect.FormatChooser;
import dev.squall.sparse.reference.ReferenceSpmv;
import dev.squall.sparse.spmv.SpmvExecutor;
import dev.squall.sparse.spmv.SpmvFormat;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.Precision;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.sparse.csc.CommonOps_DSCC;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * JMH: fp64 SpMV {@code y = A x} on the {@code jvm} device, Squall's executors against EJML's
 * {@code CommonOps_DSCC.mult(DMatrixSparseCSC, DMatrixRMaj, DMatrixRMaj)} on the same matrix, in
 * one run. Squall keeps A in its executor's format (inspected once, in setup); EJML holds A in
 * CSC, built exactly from the same CSR (its transpose's arrays), so both multiply identical entries.
 * Setup checks that the three products agree with the plain Java reference before timing.
 *
 * <pre>{@code
 * java -cp 'bench/target/*:bench/target/lib/*' org.openjdk.jmh.Main SpmvJvmBenchmark -f 1 -wi 3 -i 5
 * java -cp ... org.openjdk.jmh.Main SpmvJvmBenchmark -p matrix=rmat:18
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx6g"})
public class SpmvJvmBenchmark {
    /** {@code --generate} descriptions of {@code squall spmv}: the 27-point stencil with 1M rows, and 0.1% rows of 5000 entries. */
    @Param({"27pt:100x100x100", "skewed:1000000"})
    public String matrix;

    private SpmvExecutor csr;
    private SpmvExecutor auto;
    private DMatrixSparseCSC cscA;
    private DMatrixRMaj ejmlX;
    private DMatrixRMaj ejmlY;

    @Setup(Level.Trial)
    public void setup() {
        CsrMatrix a = MatrixGenerators.generate(matrix);
        double[] x = new Random(7).doubles(a.cols(), -1, 1).toArray();
        double[] want = ReferenceSpmv.multiply(a, x);

        csr = SpmvExecutor.create(a, SpmvFormat.CSR, Precision.FP64, Devices.get("jvm"));
        csr.setX(x);
        FormatChooser.Choice pick = FormatChooser.choose(a, Devices.get("jvm"));
        auto = SpmvExecutor.create(a, pick.format(), Precision.FP64, Devices.get("jvm"));
        auto.setX(x);
        System.err.println("# " + matrix + ": " + a.rows() + " rows, " + a.nnz() + " entries; auto = " + pick.format().cliName()
                + " (" + pick.reason() + ")");

        // CSC of A is CSR of A^T: column pointers, row indices and values in column order
        CsrMatrix at = CsrTranspose.of(a);
        cscA = new DMatrixSparseCSC(a.rows(), a.cols(), a.nnz());
        System.arraycopy(at.rowPtr(), 0, cscA.col_idx, 0, a.cols() + 1);
        System.arraycopy(at.colIdx(), 0, cscA.nz_rows, 0, a.nnz());
        System.arraycopy(at.values(), 0, cscA.nz_values, 0, a.nnz());
        cscA.nz_length = a.nnz();
        cscA.indicesSorted = true;
        ejmlX = new DMatrixRMaj(a.cols(), 1, true, x);
        ejmlY = new DMatrixRMaj(a.rows(), 1);

        check("squall csr", csr.multiply(1, x, 0, null), want);
        check("squall auto", auto.multiply(1, x, 0, null), want);
        CommonOps_DSCC.mult(cscA, ejmlX, ejmlY);
        check("ejml", ejmlY.data, want);
    }

    private static void check(String who, double[] got, double[] want) {
        double num = 0, den = 0;
        for (int i = 0; i < want.length; i++) {
            num += (got[i] - want[i]) * (got[i] - want[i]);
            den += want[i] * want[i];
        }
        double rel = Math.sqrt(num / Math.max(den, Double.MIN_NORMAL));
        if (!(rel < 1e-12)) throw new IllegalStateException(who + ": relative error " + rel + " against the reference");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        csr.close();
        auto.close();
    }

    /** Squall, CSR with one work-item per row, on the jvm device (fork-join chunks of rows). */
    @Benchmark
    public Object squallCsr() {
        return csr.execute();
    }

    /** Squall, the format {@code auto} picks for the jvm device. */
    @Benchmark
    public Object squallAuto() {
        return auto.execute();
    }

    /** EJML 0.44, A in CSC times a dense column (single-threaded). */
    @Benchmark
    public DMatrixRMaj ejmlCsc() {
        CommonOps_DSCC.mult(cscA, ejmlX, ejmlY);
        return ejmlY;
    }
}
