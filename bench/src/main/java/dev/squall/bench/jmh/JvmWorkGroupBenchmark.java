package dev.squall.bench.jmh;

import dev.squall.bench.demo.DemoKernels;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.*;
import org.openjdk.jmh.annotations.*;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * JMH: SPMD kernels with barriers and sub-group operations on the JVM device, which runs them as
 * loops over each work-group's work-items (work-group fission), against loop-parallel and plain
 * Java peers of the same work: {@code sumSquares} (the demo's kernel: sub-group sums, a barrier,
 * 2^20 doubles on its grid of 64 groups of 256) against the loop-parallel {@code saxpy} over 2^20
 * floats, and a 16 x 16 local-memory tiled GEMM ({@code n = 256}) against the same tiled loops in
 * plain Java over the same cores. Run with
 * {@code java -cp 'bench/target/*:bench/target/lib/*' org.openjdk.jmh.Main JvmWorkGroup -f 1 -wi 3 -i 5};
 * add {@code -jvmArgsAppend -Dsquall.jvm.workGroupRunners=false} for the per-work-item path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class JvmWorkGroupBenchmark {
    private static final int N = 1 << 20, GROUPS = 64, LOCAL = 256, GEMM_N = 256;

    private ExecutionPlan sumSquares, saxpy, tiledGemm;
    private double[] a, b, c;

    @Setup
    public void setup() {
        Device jvm = Devices.jvm();
        SplittableRandom rnd = new SplittableRandom(7);
        DoubleArray v = DoubleArray.fromArray(rnd.doubles(N, -1, 1).toArray()), partial = new DoubleArray(GROUPS);
        sumSquares = new ExecutionPlan(new TaskGraph("sumSquares").transferToDevice(DataTransferMode.FIRST_EXECUTION, v)
                .task("t", DemoKernels::sumSquares, new KernelContext(), v, partial, N).snapshot()).withDevice(jvm)
                .withGrid("t", WorkerGrid.of((long) GROUPS * LOCAL).withLocal(LOCAL));
        FloatArray x = new FloatArray(N), y = new FloatArray(N);
        x.init(1f);
        y.init(2f);
        saxpy = new ExecutionPlan(new TaskGraph("saxpy").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, y)
                .task("t", DemoKernels::saxpy, x, y, 0.5f, N).snapshot()).withDevice(jvm);
        a = rnd.doubles(GEMM_N * GEMM_N, -1, 1).toArray();
        b = rnd.doubles(GEMM_N * GEMM_N, -1, 1).toArray();
        c = new double[GEMM_N * GEMM_N];
        DoubleArray da = DoubleArray.fromArray(a), db = DoubleArray.fromArray(b), dc = new DoubleArray(GEMM_N * GEMM_N);
        tiledGemm = new ExecutionPlan(new TaskGraph("gemm").transferToDevice(DataTransferMode.FIRST_EXECUTION, da, db)
                .task("t", WorkGroupKernels::tiledGemm, new KernelContext(), da, db, dc, GEMM_N).snapshot()).withDevice(jvm)
                .withGrid("t", WorkerGrid.of(GEMM_N, GEMM_N).withLocal(WorkGroupKernels.TILE, WorkGroupKernels.TILE));
        sumSquares.execute();
        saxpy.execute();
        tiledGemm.execute();
    }

    @TearDown
    public void tearDown() {
        sumSquares.close();
        saxpy.close();
        tiledGemm.close();
    }

    /** The demo's SPMD kernel over 2^20 doubles: 64 groups of 256, sub-group sums, a barrier. */
    @Benchmark
    public void sumSquares() {
        sumSquares.execute();
    }

    /** The loop-parallel peer: saxpy over 2^20 floats. */
    @Benchmark
    public void saxpy() {
        saxpy.execute();
    }

    /** 256 x 256 GEMM, 16 x 16 work-groups, tiles in local memory, two barriers a tile. */
    @Benchmark
    public void tiledGemm() {
        tiledGemm.execute();
    }

    /** The same tiled loops in plain Java on heap arrays, tile rows spread over the same cores. */
    @Benchmark
    public double[] plainTiledGemm() {
        int n = GEMM_N, t = WorkGroupKernels.TILE;
        IntStream.range(0, n / t).parallel().forEach(bi -> {
            double[] as = new double[t * t], bs = new double[t * t], acc = new double[t * t];
            for (int bj = 0; bj < n / t; bj++) {
                java.util.Arrays.fill(acc, 0);
                for (int k0 = 0; k0 < n; k0 += t) {
                    for (int ty = 0; ty < t; ty++) {
                        for (int tx = 0; tx < t; tx++) {
                            as[ty * t + tx] = a[(bi * t + ty) * n + k0 + tx];
                            bs[ty * t + tx] = b[(k0 + ty) * n + bj * t + tx];
                        }
                    }
                    for (int ty = 0; ty < t; ty++) {
                        for (int tx = 0; tx < t; tx++) {
                            double s = acc[ty * t + tx];
                            for (int k = 0; k < t; k++) s += as[ty * t + k] * bs[k * t + tx];
                            acc[ty * t + tx] = s;
                        }
                    }
                }
                for (int ty = 0; ty < t; ty++) System.arraycopy(acc, ty * t, c, (bi * t + ty) * n + bj * t, t);
            }
        });
        return c;
    }
}
