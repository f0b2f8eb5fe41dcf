package dev.squall.permanent.kernel;

import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.Devices;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.api.DoubleArray;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeptPlansTest {
    record Kept(int size, ExecutionPlan plan) {
    }

    private static Kept build(Device d, int size) {
        DoubleArray a = new DoubleArray(size);
        return new Kept(size, new ExecutionPlan(new TaskGraph("kept").transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(d));
    }

    @Test
    void aFittingPlanIsReusedAndAnyOtherIsReleasedOnce() {
        Device d = Devices.jvm();
        List<Kept> released = new ArrayList<>();
        KeptPlans<Kept> kept = new KeptPlans<>(k -> {
            released.add(k);
            return k.plan();
        });
        Kept first = kept.take(d, k -> k.size() == 4, () -> build(d, 4));
        assertEquals(4, first.size());
        kept.keep(d, first);
        assertSame(first, kept.take(d, k -> k.size() == 4, () -> build(d, 4)), "the kept plan fits: reused");
        assertTrue(released.isEmpty(), released.toString());

        kept.keep(d, first);
        Kept other = kept.take(d, k -> k.size() == 8, () -> build(d, 8));
        assertNotSame(first, other);
        assertEquals(List.of(first), released, "the unfit plan is released");

        // while one call holds `other`, a second call on the device builds its own; keeping both releases the older
        Kept concurrent = kept.take(d, k -> k.size() == 8, () -> build(d, 8));
        assertNotSame(other, concurrent);
        kept.keep(d, other);
        kept.keep(d, concurrent);
        assertEquals(List.of(first, other), released);
        kept.keep(d, concurrent);
        assertEquals(List.of(first, other), released, "keeping the kept value again releases nothing");
        kept.release(kept.take(d, k -> true, () -> build(d, 1)));
        assertEquals(List.of(first, other, concurrent), released);
    }
}
