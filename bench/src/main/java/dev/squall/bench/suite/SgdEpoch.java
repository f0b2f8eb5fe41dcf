package dev.squall.bench.suite;

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

import java.util.Locale;

/**
 * Epochs of matrix-factorisation SGD ({@link SgdTrainer}, fp32, rank 16, the deterministic block-diagonal schedule)
 * on generated ratings with a planted low-rank model. A sample is one epoch's device time; bytes are
 * {@code squall sgd}'s 16 k + 12 an update. Verified against {@link SgdReference}: the sequential pass over the same
 * schedule, epoch by epoch from the same initial factors, must give the same factors up to float rounding.
 */
public final class SgdEpoch extends Workload {
    static final int RANK = 16;
    private final int users;
    private final int items;
    private final long ratings;

    public SgdEpoch(int users, int items, long ratings) {
        super("sgd", "SGD epoch, rank " + RANK, "ratings", "fp32", Bound.MEMORY);
        this.users = users;
        this.items = items;
        this.ratings = ratings;
    }

    @Override
    public String size() {
        return String.format(Locale.ROOT, "%dx%d, %d ratings", users, items, ratings);
    }

    @Override
    public double scale() {
        return ratings;
    }

    @Override
    protected Run start(Device device) {
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse(users + "x" + items + "x" + ratings), 1);
        Schedule s = ScheduleInspector.build(r, ScheduleKind.BLKDIAG,
                new ScheduleInspector.Options(ScheduleInspector.defaultBlocks(r, device.info().isGpu()), 1 << 20, 1, 2));
        TrainingOptions o = TrainingOptions.defaults(RANK);
        SgdTrainer t = new SgdTrainer(r, null, s, o, device, SgdTrainer.Style.AUTO);
        return new Run() {
            int epochs;

            @Override
            public double sample() {
                epochs++;
                return t.epoch().kernelMillis();
            }

            @Override
            public double work() {
                return (16.0 * RANK + 12) * r.size();
            }

            @Override
            public String note(double medianMs) {
                return String.format(Locale.ROOT, "%.3g updates/s, %d steps", r.size() / (medianMs * 1e-3), s.steps());
            }

            @Override
            public Check check(ResultHook hook) {
                Factors got = t.factors();
                float[] w = got.w();
                double[] wd = new double[w.length];
                for (int q = 0; q < w.length; q++) wd[q] = w[q];
                hook.accept(name(), wd);
                Factors ref = Factors.random(r.users(), r.items(), RANK, false, (float) r.mean(), o.seed());
                for (int e = 0; e < epochs; e++) SgdReference.pass(r, s, ref, o.learningRate(e), (float) o.reg(), (float) o.regBias());
                double worst = 0, scale = 1;
                float[] rw = ref.w(), rh = ref.h(), gh = got.h();
                for (int q = 0; q < rw.length; q++) {
                    double d = Math.abs(wd[q] - rw[q]);
                    worst = Math.max(worst, Double.isNaN(d) ? Double.POSITIVE_INFINITY : d);
                    scale = Math.max(scale, Math.abs(rw[q]));
                }
                for (int q = 0; q < rh.length; q++) {
                    double d = Math.abs(gh[q] - rh[q]);
                    worst = Math.max(worst, Double.isNaN(d) ? Double.POSITIVE_INFINITY : d);
                    scale = Math.max(scale, Math.abs(rh[q]));
                }
                return new Check(worst / scale, 1e-5, "SgdReference, " + epochs + " sequential epochs, max factor difference / max(1, max factor)");
            }

            @Override
            public void close() {
                t.close();
            }
        };
    }
}
