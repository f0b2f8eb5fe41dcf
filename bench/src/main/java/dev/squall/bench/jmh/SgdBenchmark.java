package dev.squall.bench.jmh;

import dev.squall.sparse.sgd.Factors;
import dev.squall.sparse.sgd.Ratings;
import dev.squall.sparse.sgd.RatingsGenerator;
import dev.squall.sparse.sgd.Schedule;
import dev.squall.sparse.sgd.ScheduleInspector;
import dev.squall.sparse.sgd.ScheduleKind;
import dev.squall.sparse.sgd.SgdReference;
import dev.squall.sparse.sgd.SgdTrainer;
import dev.squall.sparse.sgd.TrainingOptions;
import dev.squall.tasks.runtime.Device;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * JMH: one epoch of matrix-factorisation SGD ({@link SgdTrainer}, fp32 — the module's only precision — the
 * block-diagonal schedule) per device, rank and ratings ({@code squall sgd --generate USERSxITEMSxRATINGS}). Setup
 * checks the first epoch against {@link SgdReference}'s sequential pass over the same schedule. No CPU library peer.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar SgdBenchmark -p device=cuda -p ratings=138493x26744x20000000
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx8g"})
public class SgdBenchmark {
    @Param({"jvm", "opencl", "cuda"})
    public String device;

    /** USERSxITEMSxRATINGS of the generated ratings (a planted low-rank model). */
    @Param({"20000x5000x1000000"})
    public String ratings;

    @Param({"16"})
    public int rank;

    private SgdTrainer trainer;

    @Setup
    public void setup() {
        Device d = BenchDevice.open(device);
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse(ratings), 1);
        Schedule s = ScheduleInspector.build(r, ScheduleKind.BLKDIAG,
                new ScheduleInspector.Options(ScheduleInspector.defaultBlocks(r, d.info().isGpu()), 1 << 20, 1, 2));
        TrainingOptions o = TrainingOptions.defaults(rank);
        trainer = new SgdTrainer(r, null, s, o, d, SgdTrainer.Style.AUTO);
        trainer.epoch();
        Factors ref = Factors.random(r.users(), r.items(), rank, false, (float) r.mean(), o.seed());
        SgdReference.pass(r, s, ref, o.learningRate(0), (float) o.reg(), (float) o.regBias());
        Factors got = trainer.factors();
        BenchDevice.check("sgd epoch, user factors, on " + device, toDoubles(got.w()), toDoubles(ref.w()), 1e-5);
        BenchDevice.check("sgd epoch, item factors, on " + device, toDoubles(got.h()), toDoubles(ref.h()), 1e-5);
    }

    private static double[] toDoubles(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }

    @TearDown
    public void tearDown() {
        if (trainer != null) trainer.close();
    }

    /** One epoch over all ratings. */
    @Benchmark
    public Object epoch() {
        return trainer.epoch();
    }
}
