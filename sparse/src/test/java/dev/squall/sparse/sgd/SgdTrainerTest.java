package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.squall.sparse.testing.SparseTestDevices;
import dev.squall.tasks.runtime.Device;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Training on every device: the noise floor, equality with the sequential pass, bit-identical reruns, bad input. */
class SgdTrainerTest {
    /** The small preset, split once (generation is seeded, so every test sees the same data). */
    private static final Ratings.Split SMALL = RatingsGenerator.generate(RatingsGenerator.SMALL, 11).split(0.1, 12);

    static TrainingOptions floorOptions() {
        return new TrainingOptions(RatingsGenerator.SMALL.rank(), 0.02, 0.1, 0.02, 0.01, false, 5);
    }

    static Schedule schedule(Ratings r, ScheduleKind kind) {
        return ScheduleInspector.build(r, kind, new ScheduleInspector.Options(8, 4096, 1, 3));
    }

    @TestFactory
    Stream<DynamicTest> everyScheduleReachesTheNoiseFloor() {
        List<DynamicTest> tests = new ArrayList<>();
        double floor = RatingsGenerator.SMALL.floor();
        for (Device d : SparseTestDevices.all()) {
            for (ScheduleKind kind : ScheduleKind.values()) {
                tests.add(DynamicTest.dynamicTest(d.id() + " " + kind.cliName(), () -> {
                    Schedule s = schedule(SMALL.train(), kind);
                    try (SgdTrainer t = new SgdTrainer(SMALL.train(), SMALL.test(), s, floorOptions(), d, SgdTrainer.Style.AUTO)) {
                        List<SgdTrainer.EpochStats> h = t.train(25, 0, st -> System.err.println(d.id() + " " + kind + " " + st));
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
}
