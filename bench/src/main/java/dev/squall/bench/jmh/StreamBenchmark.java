package dev.squall.bench.jmh;

import dev.squall.bench.stream.StreamKernels;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.runtime.*;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * JMH: STREAM triad (fp64) and dispatch overhead per device. Run from the bundle or a build with
 * {@code java -cp '<jars>' org.openjdk.jmh.Main StreamBenchmark -p device=cuda:0}. The triad's
 * GB/s is 3 * 8 * size bytes over the reported time; {@code squall bench stream} prints it
 * with the ratio to the copy kernel.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class StreamBenchmark {
    @Param({"jvm"})
    public String device;

    @Param({"4194304"})
    public int size;

    private ExecutionPlan triad, touch;

    @Setup
    public void setup() {
        Device d = Devices.get(device);
        DoubleArray a = new DoubleArray(size), b = new DoubleArray(size), c = new DoubleArray(size);
        b.init(1.0);
        c.init(2.0);
        triad = new ExecutionPlan(new TaskGraph("triad").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b, c)
                .task("t", StreamKernels::triad64, a, b, c, 3.0, size).snapshot()).withDevice(d);
        IntArray z = new IntArray(256);
        touch = new ExecutionPlan(new TaskGraph("touch").transferToDevice(DataTransferMode.FIRST_EXECUTION, z)
                .task("t", StreamKernels::touch, z, 256).snapshot()).withDevice(d);
        triad.execute();
        touch.execute();
    }

    @TearDown
    public void tearDown() {
        triad.close();
        touch.close();
    }

    /** One triad over resident arrays, launch to completion. */
    @Benchmark
    public void triad64() {
        triad.execute();
    }

    /** Host cost of a one-kernel graph with resident data (launch + wait). */
    @Benchmark
    public void dispatchOverhead() {
        touch.execute();
    }
}
