package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.testing.TestDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import dev.squall.sparse.sgd.kernels.SgdKernels;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Training on every device: the noise floor, equality with the sequential pass, bit-identical reruns, bad input. */
class SgdTrainerTest {
    /** The small preset, split once (generation is seeded, so every test sees the same data). */
    private static final Ratings.Split SMALL = RatingsGenerator.generate(RatingsGenerator.SMALL, 11).split(0.1, 12);

    /** The defaults (those of the command line), at the planted rank. */
    static TrainingOptions floorOptions() {
        return TrainingOptions.defaults(RatingsGenerator.SMALL.rank());
    }

    static Schedule schedule(Ratings r, ScheduleKind kind) {
        return ScheduleInspector.build(r, kind, new ScheduleInspector.Options(8, 4096, 1, 3));
    }

    @TestFactory
    Stream<DynamicTest> everyScheduleReachesTheNoiseFloor() {
        List<DynamicTest> tests = new ArrayList<>();
        double floor = RatingsGenerator.SMALL.floor();
        for (Device d : TestDevices.all()) {
            for (ScheduleKind kind : ScheduleKind.values()) {
                tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName(), () -> {
                    Schedule s = schedule(SMALL.train(), kind);
                    try (SgdTrainer t = new SgdTrainer(SMALL.train(), SMALL.test(), s, floorOptions(), d, SgdTrainer.Style.AUTO)) {
                        List<SgdTrainer.EpochStats> h = t.train(12, 0, null);
                        double test = h.getLast().testRmse();
                        // the device's RMSE agrees with the host's, computed from the factors copied back
                        assertEquals(t.factors().rmse(SMALL.test()), test, 1e-5 * test, "device and host test RMSE");
                        assertTrue(test <= 1.02 * floor, kind + " on " + d.id() + ": test RMSE " + test + " is not within 2% of the floor " + floor);
                        assertTrue(test >= 0.95 * floor, "test RMSE " + test + " below the noise itself: the test set leaks into training");
                    }
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> theDefaultsReachTheFloorAtRank128WithoutOverfitting() {
        // k = 128 against a planted rank of 2: the defaults' regularisation must keep the 126 spare features from
        // fitting the noise, for every schedule (the kernels AUTO picks on the device)
        List<DynamicTest> tests = new ArrayList<>();
        double floor = RatingsGenerator.SMALL.floor();
        for (Device d : TestDevices.all()) {
            for (ScheduleKind kind : ScheduleKind.values()) {
                tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName(), () -> {
                    Schedule s = schedule(SMALL.train(), kind);
                    try (SgdTrainer t = new SgdTrainer(SMALL.train(), SMALL.test(), s, TrainingOptions.defaults(128), d, SgdTrainer.Style.AUTO)) {
                        List<SgdTrainer.EpochStats> h = t.train(12, 0, null);
                        double test = h.getLast().testRmse();
                        assertTrue(test <= 1.02 * floor, kind + " on " + d.id() + " at rank 128: test RMSE " + test + " is not within 2% of the floor " + floor);
                        double best = h.stream().mapToDouble(SgdTrainer.EpochStats::testRmse).min().orElseThrow();
                        assertTrue(test <= best * 1.002, kind + " at rank 128 overfits: test RMSE " + test + " after 12 epochs, " + best + " at best");
                    }
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> fp16StorageReachesTheFloorAndRepeatsBitForBit() {
        List<DynamicTest> tests = new ArrayList<>();
        double floor = RatingsGenerator.SMALL.floor();
        for (Device d : TestDevices.all()) {
            for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.BLKDIAG, ScheduleKind.HOGWILD}) {
                for (SgdTrainer.Style style : new SgdTrainer.Style[] {SgdTrainer.Style.TASKS, SgdTrainer.Style.LANES, SgdTrainer.Style.WARPS}) {
                    if (style == SgdTrainer.Style.WARPS && kind.conflictFree()) continue;
                    tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName() + " " + style, () -> {
                        Schedule s = schedule(SMALL.train(), kind);
                        float[][] runs = new float[2][];
                        for (int rep = 0; rep < (kind.conflictFree() ? 2 : 1); rep++) {
                            try (SgdTrainer t = new SgdTrainer(SMALL.train(), SMALL.test(), s, floorOptions(), d, style, null, SgdTrainer.Storage.FP16)) {
                                List<SgdTrainer.EpochStats> h = t.train(12, 0, null);
                                double test = h.getLast().testRmse();
                                Factors f = t.factors();
                                // the factors are fp16 values (every one survives a round trip through half)
                                for (float v : f.w()) assertEquals(v, Float.float16ToFloat(Float.floatToFloat16(v)), "W value " + v + " is not a half");
                                // the device's RMSE (fp16 loads) agrees with the host's on the widened factors
                                assertEquals(f.rmse(SMALL.test()), test, 1e-5 * test, "device and host test RMSE");
                                assertTrue(test <= 1.02 * floor, kind + " fp16 on " + d.id() + ": test RMSE " + test + " is not within 2% of the floor " + floor);
                                runs[rep] = f.w();
                            }
                        }
                        if (kind.conflictFree()) assertTrue(java.util.Arrays.equals(runs[0], runs[1]), "blkdiag fp16 run twice differs");
                    }));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> warpsKernelReachesTheNoiseFloorWithHogwild() {
        // 8 sub-groups a work-group racing on shared rows, launches of 4,096 ratings (not a multiple of the groups' reach)
        List<DynamicTest> tests = new ArrayList<>();
        double floor = RatingsGenerator.SMALL.floor();
        for (Device d : TestDevices.all()) {
            tests.add(DynamicTest.dynamicTest(d.id(), () -> {
                Schedule s = schedule(SMALL.train(), ScheduleKind.HOGWILD);
                try (SgdTrainer t = new SgdTrainer(SMALL.train(), SMALL.test(), s, floorOptions(), d, SgdTrainer.Style.WARPS)) {
                    assertEquals(SgdTrainer.Style.WARPS, t.kernel());
                    double test = t.train(12, 0, null).getLast().testRmse();
                    assertEquals(t.factors().rmse(SMALL.test()), test, 1e-5 * test, "device and host test RMSE");
                    assertTrue(test <= 1.02 * floor, "warps on " + d.id() + ": test RMSE " + test + " is not within 2% of the floor " + floor);
                }
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> warpsKernelEqualsTheSequentialPassWhenALaunchHoldsOneRating() {
        // Hogwild launches of one rating: one sub-group works, so the kernel must give the sequential pass. Ranks below
        // the 32 lanes, between multiples of them, exactly the 128 held in registers, and above it (the wide kernel)
        List<DynamicTest> tests = new ArrayList<>();
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse("200x160x1500"), 33);
        for (Device d : TestDevices.all()) {
            for (int k : new int[] {5, 37, 128, 150}) {
                tests.add(DynamicTest.dynamicTest(d.id() + " rank " + k, () -> {
                    TrainingOptions o = new TrainingOptions(k, 0.02, 0.1, 0.05, 0.02, k == 37 || k == 150, 4);
                    Schedule s = ScheduleInspector.build(r, ScheduleKind.HOGWILD, new ScheduleInspector.Options(8, 1, 1, 6));
                    Factors ref = Factors.random(r.users(), r.items(), k, o.biases(), (float) r.mean(), o.seed());
                    SgdReference.pass(r, s, ref, o.learningRate(0), (float) o.reg(), (float) o.regBias());
                    try (SgdTrainer t = new SgdTrainer(r, null, s, o, d, SgdTrainer.Style.WARPS)) {
                        t.train(1, 0, null);
                        Factors got = t.factors();
                        assertClose(ref.w(), got.w(), "W");
                        assertClose(ref.h(), got.h(), "H");
                        if (o.biases()) {
                            assertClose(ref.userBias(), got.userBias(), "user biases");
                            assertClose(ref.itemBias(), got.itemBias(), "item biases");
                        }
                    }
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void warpsKernelIsForHogwildAndFp16RanksUpTo128() {
        Device jvm = dev.squall.tasks.runtime.Devices.jvm();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(MID, null, schedule(MID, ScheduleKind.BLKDIAG), TrainingOptions.defaults(4), jvm, SgdTrainer.Style.WARPS));
        assertTrue(e.getMessage().contains("--kernel warps races ratings") && e.getMessage().contains("blkdiag"), e.getMessage());
        IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(MID, null, schedule(MID, ScheduleKind.HOGWILD), TrainingOptions.defaults(150), jvm, SgdTrainer.Style.WARPS, null,
                        SgdTrainer.Storage.FP16));
        assertTrue(wide.getMessage().contains("rank up to 128, not 150"), wide.getMessage());
    }

    /** A sparser generated matrix: 300 users x 200 items, 8,000 ratings (trained at rank 8 with biases). */
    private static final Ratings MID = RatingsGenerator.generate(RatingsGenerator.parse("300x200x8000"), 21);

    @TestFactory
    Stream<DynamicTest> conflictFreeSchedulesEqualTheSequentialPassAndRepeatBitForBit() {
        List<DynamicTest> tests = new ArrayList<>();
        TrainingOptions o = new TrainingOptions(8, 0.02, 0.1, 0.05, 0.02, true, 9);
        for (Device d : TestDevices.all()) {
            for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.DIAG, ScheduleKind.BLKDIAG, ScheduleKind.STRATIFIED}) {
                for (SgdTrainer.Style style : new SgdTrainer.Style[] {SgdTrainer.Style.TASKS, SgdTrainer.Style.LANES, SgdTrainer.Style.PREFETCH,
                        SgdTrainer.Style.PIPELINE}) {
                    tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName() + " " + style, () -> {
                        Schedule s = schedule(MID, kind);
                        Factors ref = Factors.random(MID.users(), MID.items(), o.rank(), true, (float) MID.mean(), o.seed());
                        for (int e = 0; e < 2; e++) SgdReference.pass(MID, s, ref, o.learningRate(e), (float) o.reg(), (float) o.regBias());
                        Factors a = run(d, s, o, style, 2);
                        Factors b = run(d, s, o, style, 2);
                        assertTrue(java.util.Arrays.equals(a.w(), b.w()) && java.util.Arrays.equals(a.h(), b.h())
                                && java.util.Arrays.equals(a.userBias(), b.userBias()) && java.util.Arrays.equals(a.itemBias(), b.itemBias()),
                                "two runs of a conflict-free schedule differ");
                        assertClose(ref.w(), a.w(), "W");
                        assertClose(ref.h(), a.h(), "H");
                        assertClose(ref.userBias(), a.userBias(), "user biases");
                        assertClose(ref.itemBias(), a.itemBias(), "item biases");
                    }));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> prefetchKernelEqualsTheSequentialPassAtRanksAroundTheLaneCount() {
        // ranks below, between and above multiples of the 32 lanes; block-diagonal tasks sorted by item, so users recur
        // within the prefetch window across item runs, and stratified tasks in random order, so items recur too (the
        // stale rows are re-read: asserted to happen)
        List<DynamicTest> tests = new ArrayList<>();
        // (rank <= 128 runs the kernel that holds the rows in registers, 150 the general one)
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse("200x160x3000"), 31);
        for (Device d : TestDevices.all()) {
            for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.BLKDIAG, ScheduleKind.STRATIFIED})
            for (int k : new int[] {5, 37, 128, 150}) {
                tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName() + " rank " + k, () -> {
                    TrainingOptions o = new TrainingOptions(k, 0.02, 0.1, 0.05, 0.02, k == 37, 4);
                    Schedule s = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(3, 1, 1, 1));
                    int stale = 0;
                    for (int v : SgdTrainer.staleRows(r, s, SgdKernels.PREFETCH)) stale += v;
                    assertTrue(stale > 0, "no stale user prefetch to exercise");
                    int staleItems = 0;
                    for (int v : SgdTrainer.staleItems(r, s, SgdKernels.PREFETCH)) staleItems += v;
                    if (kind == ScheduleKind.STRATIFIED) assertTrue(staleItems > 0, "no stale item prefetch to exercise");
                    Factors ref = Factors.random(r.users(), r.items(), k, o.biases(), (float) r.mean(), o.seed());
                    for (int e = 0; e < 2; e++) SgdReference.pass(r, s, ref, o.learningRate(e), (float) o.reg(), (float) o.regBias());
                    try (SgdTrainer t = new SgdTrainer(r, null, s, o, d, SgdTrainer.Style.PREFETCH)) {
                        t.train(2, 0, null);
                        Factors got = t.factors();
                        assertClose(ref.w(), got.w(), "W");
                        assertClose(ref.h(), got.h(), "H");
                        if (o.biases()) assertClose(ref.userBias(), got.userBias(), "user biases");
                    }
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> pipelineKernelEqualsTheSequentialPassAtRanksAroundTheLaneCount() {
        // the ring holds the next 8 ratings' rows: block-diagonal tasks sorted by item (users recur across item runs
        // within 8 ratings) and stratified tasks in random order (items recur): the stale rows are re-read (asserted
        // to happen); tasks longer and shorter than the ring, rank 1 and ranks below, between and at multiples of the 32 lanes
        List<DynamicTest> tests = new ArrayList<>();
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse("200x160x3000"), 31);
        for (Device d : TestDevices.all()) {
            for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.BLKDIAG, ScheduleKind.STRATIFIED})
            for (int blocks : new int[] {3, 40})
            for (int k : new int[] {1, 5, 37, 128}) {
                tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName() + " B " + blocks + " rank " + k, () -> {
                    TrainingOptions o = new TrainingOptions(k, 0.02, 0.1, 0.05, 0.02, k == 37, 4);
                    Schedule s = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(blocks, 1, 1, 1));
                    if (blocks == 3) {
                        int stale = 0;
                        for (int v : SgdTrainer.staleRows(r, s, SgdKernels.PIPELINE)) stale += v;
                        assertTrue(stale > 0, "no stale user row to exercise");
                        int staleItems = 0;
                        for (int v : SgdTrainer.staleItems(r, s, SgdKernels.PIPELINE)) staleItems += v;
                        if (kind == ScheduleKind.STRATIFIED) assertTrue(staleItems > 0, "no stale item row to exercise");
                    }
                    Factors ref = Factors.random(r.users(), r.items(), k, o.biases(), (float) r.mean(), o.seed());
                    for (int e = 0; e < 2; e++) SgdReference.pass(r, s, ref, o.learningRate(e), (float) o.reg(), (float) o.regBias());
                    try (SgdTrainer t = new SgdTrainer(r, null, s, o, d, SgdTrainer.Style.PIPELINE)) {
                        t.train(2, 0, null);
                        Factors got = t.factors();
                        assertClose(ref.w(), got.w(), "W");
                        assertClose(ref.h(), got.h(), "H");
                        if (o.biases()) assertClose(ref.userBias(), got.userBias(), "user biases");
                    }
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void hogwildInFlightIsHalfTheSmallerSide() {
        // small: 2,000 x 1,000, so 500 ratings at once (a row has on average half a concurrent update)
        assertEquals(500, SgdTrainer.hogwildInFlight(SMALL.train()));
        assertEquals(1, SgdTrainer.hogwildInFlight(Ratings.of(1, 3, new int[] {0}, new int[] {2}, new float[] {1f})));
        Ratings tall = Ratings.of(40, 7, new int[] {0, 39}, new int[] {6, 0}, new float[] {1f, 2f});
        assertEquals(3, SgdTrainer.hogwildInFlight(tall));
    }

    @Test
    void pipelineKernelRefusesHogwildRankAbove128AndFp16() {
        Device jvm = dev.squall.tasks.runtime.Devices.jvm();
        IllegalArgumentException hog = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(MID, null, schedule(MID, ScheduleKind.HOGWILD), TrainingOptions.defaults(4), jvm, SgdTrainer.Style.PIPELINE));
        assertTrue(hog.getMessage().contains("conflict-free"), hog.getMessage());
        IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(MID, null, schedule(MID, ScheduleKind.BLKDIAG), TrainingOptions.defaults(150), jvm, SgdTrainer.Style.PIPELINE));
        assertTrue(wide.getMessage().contains("not rank 150"), wide.getMessage());
        IllegalArgumentException half = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(MID, null, schedule(MID, ScheduleKind.BLKDIAG), TrainingOptions.defaults(8), jvm, SgdTrainer.Style.PIPELINE, null,
                        SgdTrainer.Storage.FP16));
        assertTrue(half.getMessage().contains("fp16"), half.getMessage());
    }

    @Test
    void staleRowsMarkAUserRecurringWithinTheWindowOfItsTask() {
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse("60x50x900"), 8);
        for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.BLKDIAG, ScheduleKind.STRATIFIED}) {
            Schedule s = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(2, 1, 1, 5));
            for (int depth : new int[] {1, 3, 8}) {
                int[] got = SgdTrainer.staleRows(r, s, depth);
                int[] task = new int[s.size()];
                for (int t = 0; t < s.tasks(); t++) for (int p = s.taskPtr()[t]; p < s.taskPtr()[t + 1]; p++) task[p] = t;
                for (int p = 0; p < s.size(); p++) {
                    int want = 0;
                    for (int q = Math.max(0, p - depth + 1); q < p; q++) {
                        if (task[q] == task[p] && r.user(s.order()[q]) == r.user(s.order()[p])) want = 1;
                    }
                    assertEquals(want, got[p], kind + " depth " + depth + " position " + p);
                }
            }
        }
    }

    @Test
    void staleItemsMarkAnItemRunStartingWithinTheWindowAfterAnEarlierRunOfTheSameItem() {
        Ratings r = RatingsGenerator.generate(RatingsGenerator.parse("60x50x900"), 8);
        for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.BLKDIAG, ScheduleKind.STRATIFIED}) {
            Schedule s = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(2, 1, 1, 5));
            int[] task = new int[s.size()];
            for (int t = 0; t < s.tasks(); t++) for (int p = s.taskPtr()[t]; p < s.taskPtr()[t + 1]; p++) task[p] = t;
            for (int depth : new int[] {1, 2, 4, 8}) {
                int[] got = SgdTrainer.staleItems(r, s, depth);
                int marked = 0;
                for (int p = 0; p < s.size(); p++) {
                    int item = r.item(s.order()[p]);
                    boolean newRun = p > 0 && task[p - 1] == task[p] && r.item(s.order()[p - 1]) != item;
                    int want = 0;
                    for (int q = Math.max(0, p - depth); q <= p - 2; q++) {
                        if (newRun && task[q] == task[p] && r.item(s.order()[q]) == item) want = 1;
                    }
                    assertEquals(want, got[p], kind + " depth " + depth + " position " + p);
                    marked += got[p];
                }
                // block-diagonal tasks are sorted by item: an item's ratings form one run, never stale
                if (kind == ScheduleKind.BLKDIAG) assertEquals(0, marked, "blkdiag depth " + depth);
                if (kind == ScheduleKind.STRATIFIED && depth >= 4) assertTrue(marked > 0, "stratified depth " + depth + ": nothing marked");
            }
            int[] flags = SgdTrainer.staleFlags(r, s, 4), users = SgdTrainer.staleRows(r, s, 4), items = SgdTrainer.staleItems(r, s, 4);
            for (int p = 0; p < flags.length; p++) assertEquals(users[p] * SgdKernels.STALE_USER + items[p] * SgdKernels.STALE_ITEM, flags[p]);
        }
    }

    @Test
    void prefetchKernelNeedsAConflictFreeSchedule() {
        Schedule s = schedule(MID, ScheduleKind.HOGWILD);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(MID, null, s, TrainingOptions.defaults(4), dev.squall.tasks.runtime.Devices.jvm(), SgdTrainer.Style.PREFETCH));
        assertTrue(e.getMessage().contains("conflict-free"), e.getMessage());
    }

    private static Factors run(Device d, Schedule s, TrainingOptions o, SgdTrainer.Style style, int epochs) {
        try (SgdTrainer t = new SgdTrainer(MID, null, s, o, d, style)) {
            t.train(epochs, 0, null);
            return t.factors();
        }
    }

    /** Equal to rounding: devices may fuse multiply-adds, so values agree to a few float ulps of the largest entry. */
    private static void assertClose(float[] want, float[] got, String what) {
        float scale = 0;
        for (float v : want) scale = Math.max(scale, Math.abs(v));
        double worst = 0;
        for (int q = 0; q < want.length; q++) worst = Math.max(worst, Math.abs(want[q] - got[q]));
        assertTrue(worst <= 1e-5 * Math.max(1, scale), what + ": largest difference from the sequential pass " + worst + " (largest value " + scale + ")");
    }

    @Test
    void hogwildOnTheJvmAlsoMatchesItsOrderWhenOneTaskRunsAtATime() {
        // a batch of one rating makes every step a single task: Hogwild's executor then is the sequential pass
        Schedule s = ScheduleInspector.build(MID, ScheduleKind.HOGWILD, new ScheduleInspector.Options(8, 1, 1, 4));
        TrainingOptions o = new TrainingOptions(4, 0.02, 0, 0.05, 0.02, false, 2);
        Factors ref = Factors.random(MID.users(), MID.items(), 4, false, (float) MID.mean(), 2);
        SgdReference.pass(MID, s, ref, o.learningRate(0), (float) o.reg(), (float) o.regBias());
        assertClose(ref.w(), run(dev.squall.tasks.runtime.Devices.jvm(), s, o, SgdTrainer.Style.TASKS, 1).w(), "W");
    }

    @Test
    void badInputIsNamed() {
        Ratings few = Ratings.of(5, 3, new int[] {0, 1, 4}, new int[] {0, 2, 1}, new float[] {1, 2, 3});
        Schedule s = schedule(few, ScheduleKind.BLKDIAG);
        Device jvm = dev.squall.tasks.runtime.Devices.jvm();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SgdTrainer(few, null, s, TrainingOptions.defaults(4), jvm, SgdTrainer.Style.AUTO));
        assertTrue(e.getMessage().contains("rank 4 is larger than the number of items (3)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TrainingOptions.defaults(513));
        Ratings none = Ratings.of(2, 2, new int[0], new int[0], new float[0]);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> schedule(none, ScheduleKind.DIAG)).getMessage().contains("no ratings"));
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                () -> Ratings.of(2, 2, new int[] {0, 1}, new int[] {1, 1}, new float[] {3, Float.NaN}));
        assertTrue(nan.getMessage().contains("rating 1 (user 1, item 1) is NaN"), nan.getMessage());
    }

    @Test
    void aSingleRatingTrainsAndHasNoTestRmse() {
        Ratings one = Ratings.of(1, 1, new int[] {0}, new int[] {0}, new float[] {4f});
        Ratings.Split sp = one.split(0.5, 1);
        assertEquals(1, sp.train().size(), "a user's only rating stays in training");
        TrainingOptions o = new TrainingOptions(1, 0.1, 0, 0, 0, true, 3);
        try (SgdTrainer t = new SgdTrainer(sp.train(), sp.test(), schedule(sp.train(), ScheduleKind.DIAG), o, dev.squall.tasks.runtime.Devices.jvm(), SgdTrainer.Style.AUTO)) {
            List<SgdTrainer.EpochStats> h = t.train(30, 0, null);
            assertTrue(Double.isNaN(h.getLast().testRmse()));
            // mean 4 is predicted from the start; the features and biases only move away from 0 as far as the tiny residual asks
            assertEquals(Math.abs(4f - t.factors().predict(0, 0)), h.getLast().trainRmse(), 1e-6);
            assertTrue(h.getLast().trainRmse() < 1e-3, "one rating is fitted: " + h.getLast().trainRmse());
        }
    }
}
