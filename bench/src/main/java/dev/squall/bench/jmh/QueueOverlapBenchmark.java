package dev.squall.bench.jmh;

import dev.squall.bench.queues.QueueOverlap;
import dev.squall.tasks.runtime.Devices;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * JMH: two independent kernels, each a quarter of the device's compute units of a long dependent loop,
 * back to back on one queue ({@code oneQueue}) and on two queues ({@code twoQueues}); the ratio of the
 * two scores is the overlap the second queue buys. {@code squall bench queues} prints the ratio directly.
 *
 * <pre>
 * java -cp '&lt;jars&gt;' org.openjdk.jmh.Main QueueOverlapBenchmark -p device=cuda:0 -p iterations=1048576
 * </pre>
 *
 * Prediction for an H100 (132 SMs), written before any GPU run: each kernel is 33 blocks of 128 threads,
 * one block per SM, latency-bound on two dependent fp64 recurrences (about 4 ms at 2^20 steps); the two
 * kernels fit side by side on 66 SMs, so two non-blocking streams run them together and one stream runs
 * them in turn: oneQueue about 2x twoQueues (1.9 to 2.0, the difference being launch and event overhead
 * of a few microseconds against milliseconds).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class QueueOverlapBenchmark {
    @Param({"jvm"})
    public String device;

    /** Work-groups per kernel; 0: a quarter of the compute units. */
    @Param({"0"})
    public int groups;

    @Param({"128"})
    public int local;

    /** Loop steps per work-item: 2^20 for GPUs (milliseconds per kernel), smaller on CPUs. */
    @Param({"16384"})
    public int iterations;

    private QueueOverlap overlap;

    @Setup
    public void setup() {
        overlap = new QueueOverlap(Devices.get(device), groups, local, iterations);
        double err = overlap.maxRelError();
        if (!(err <= 1e-9)) throw new IllegalStateException("spin kernel differs from the host reference by " + err);
    }

    @TearDown
    public void tearDown() {
        overlap.close();
    }

    /** Both kernels on one queue: the second starts when the first has finished. */
    @Benchmark
    public double oneQueue() {
        return overlap.oneQueue();
    }

    /** The kernels on two queues: they may run at the same time. */
    @Benchmark
    public double twoQueues() {
        return overlap.twoQueues();
    }
}
