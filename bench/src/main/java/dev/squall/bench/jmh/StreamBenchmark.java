package dev.squall.bench.jmh;

import dev.squall.bench.stream.StreamKernels;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.runtime.*;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * JMH: STREAM triad {@code a = b + s c} per device, size and precision, and the dispatch overhead of a one-kernel
 * graph. The triad's GB/s is 3 * (4 or 8) * size bytes over the reported time. Setup checks one triad's result.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar StreamBenchmark -p device=jvm,opencl -p precision=fp64 -rf json
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class StreamBenchmark {
    /** jvm, opencl, cuda, or a device id such as opencl:1:0 (see {@code squall devices}). */
    @Param({"jvm", "opencl", "cuda"})
    public String device;

    /** Elements an array. */
    @Param({"4194304"})
    public int size;

    @Param({"fp32", "fp64"})
    public String precision;

    private ExecutionPlan triad, touch;

    @Setup
    public void setup() {
        Device d = BenchDevice.open(device);
        TaskGraph g = new TaskGraph("triad");
        double[] got;
        if (Precision.parse(precision) == Precision.FP64) {
            DoubleArray a = new DoubleArray(size), b = new DoubleArray(size), c = new DoubleArray(size);
            b.init(1.0);
            c.init(2.0);
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b, c).task("t", StreamKernels::triad64, a, b, c, 3.0, size);
            triad = new ExecutionPlan(g.snapshot()).withDevice(d);
            triad.execute().transferToHost(a);
            got = new double[]{a.get(0), a.get(size / 2), a.get(size - 1)};
        } else {
            FloatArray a = new FloatArray(size), b = new FloatArray(size), c = new FloatArray(size);
            b.init(1.0f);
            c.init(2.0f);
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b, c).task("t", StreamKernels::triad32, a, b, c, 3.0f, size);
            triad = new ExecutionPlan(g.snapshot()).withDevice(d);
            triad.execute().transferToHost(a);
            got = new double[]{a.get(0), a.get(size / 2), a.get(size - 1)};
        }
        BenchDevice.check("triad on " + device, got, new double[]{7, 7, 7}, 0);
        IntArray z = new IntArray(256);
        touch = new ExecutionPlan(new TaskGraph("touch").transferToDevice(DataTransferMode.FIRST_EXECUTION, z)
                .task("t", StreamKernels::touch, z, 256).snapshot()).withDevice(d);
        touch.execute();
    }

    @TearDown
    public void tearDown() {
        if (triad != null) triad.close();
        if (touch != null) touch.close();
    }

    /** One triad over resident arrays, launch to completion. */
    @Benchmark
    public void triad() {
        triad.execute();
    }

    /** Host cost of a one-kernel graph with resident data (launch + wait). */
    @Benchmark
    public void dispatchOverhead() {
        touch.execute();
    }
}
