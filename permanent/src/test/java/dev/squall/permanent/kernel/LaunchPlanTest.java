package dev.squall.permanent.kernel;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class LaunchPlanTest {
    @Test
    void coversEveryStepOnceWithAlignedPowerOfTwoChunks() {
        long[] totals = {1, 2, 1L << 10, 1L << 20, (1L << 27) + 12345, 1L << 39};
        int[] threadCounts = {1, 7, 1000, 135168};
        for (long total : totals) {
            for (int threads : threadCounts) {
                List<LaunchPlan.Launch> plan = LaunchPlan.of(total, threads, 1024);
                long next = 0;
                for (LaunchPlan.Launch l : plan) {
                    assertEquals(next, l.offset(), "contiguous");
                    assertEquals(1, Long.bitCount(l.delta()), "power of two");
                    assertEquals(0, l.offset() % l.delta(), "aligned");
                    assertTrue(l.threads() >= 1 && l.threads() <= threads);
                    next = l.offset() + (long) l.threads() * l.delta();
                    long end = Math.min(next, total);
                    assertEquals(end, l.end(total), "end is clipped to the total");
                    assertArrayEquals(new long[] {l.offset(), l.delta(), end}, l.planWords(total));
                }
                assertTrue(next >= total && next - total < plan.getLast().delta(), "covers " + total + " with " + threads);
                assertTrue(plan.size() <= 64);
            }
        }
    }

    @Test
    void bigProblemsUseTheLargestChunkThatFillsTheThreads() {
        List<LaunchPlan.Launch> plan = LaunchPlan.of(1L << 39, 135168, 1024);
        // 2^39 / 135168 = 4067203.4..., largest power of two below is 2^21
        assertEquals(1L << 21, plan.getFirst().delta());
        assertEquals(135168, plan.getFirst().threads());
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> LaunchPlan.of(0, 1, 1024));
        assertThrows(IllegalArgumentException.class, () -> LaunchPlan.of(10, 1, 1000));
    }
}
