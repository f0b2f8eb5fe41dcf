package dev.squall.sparse.sgd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The inspector's schedules: every rating once, no row twice in a parallel step, the documented layouts. */
class ScheduleInspectorTest {
    /** Random ratings with repeated (user, item) pairs, a dense user and an empty item. */
    static Ratings awkward(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int users = 97, items = 61, n = 3000;
        int[] u = new int[n + items];
        int[] i = new int[n + items];
        float[] v = new float[n + items];
        for (int e = 0; e < n; e++) {
            u[e] = rnd.nextInt(users);
            i[e] = rnd.nextInt(items - 1);           // item 60 stays empty
            if (e % 50 == 0 && e > 0) {              // repeat an earlier pair
                u[e] = u[e - 1];
                i[e] = i[e - 1];
            }
            v[e] = (float) rnd.nextDouble(1, 5);
        }
        for (int q = 0; q < items - 1; q++) {        // user 5 rates every item but the last
            u[n + q] = 5;
            i[n + q] = q;
            v[n + q] = 3;
        }
        return Ratings.of(users, items, java.util.Arrays.copyOf(u, n + items - 1), java.util.Arrays.copyOf(i, n + items - 1),
                java.util.Arrays.copyOf(v, n + items - 1));
    }

    @Test
    void conflictFreeSchedulesNeverTouchARowTwiceInAStep() {
        for (long seed = 1; seed <= 3; seed++) {
            Ratings r = awkward(seed);
            for (ScheduleKind kind : ScheduleKind.values()) {
                if (!kind.conflictFree()) continue;
                for (int blocks : new int[] {1, 2, 7, 64, 1000}) {
                    Schedule s = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(blocks, 100, 1, seed));
                    assertNull(s.firstConflict(r), kind + " blocks " + blocks + " seed " + seed);
                    assertEquals(r.size(), s.size());
                    for (int t = 0; t < s.tasks(); t++) assertTrue(s.taskPtr()[t] < s.taskPtr()[t + 1], "empty task " + t);
                    for (int st = 0; st < s.steps(); st++) assertTrue(s.stepPtr()[st] < s.stepPtr()[st + 1], "empty step " + st);
                    // span: each row's ratings lie in one task per step, so the sum of the steps' longest tasks covers the busiest row
                    long span = 0;
                    int[] taskOf = new int[s.size()];
                    for (int t = 0; t < s.tasks(); t++) for (int p = s.taskPtr()[t]; p < s.taskPtr()[t + 1]; p++) taskOf[p] = t;
                    for (int st = 0; st < s.steps(); st++) {
                        int longest = 0;
                        for (int p = s.taskPtr()[s.stepPtr()[st]]; p < s.taskPtr()[s.stepPtr()[st + 1]]; p++) {
                            longest = Math.max(longest, s.taskPtr()[taskOf[p] + 1] - s.taskPtr()[taskOf[p]]);
                        }
                        span += longest;
                    }
                    assertEquals(span, s.span(), kind + " span");
                    assertTrue(s.span() >= Schedule.largestRowDegree(r), kind + " span " + s.span() + " below the largest row " + Schedule.largestRowDegree(r));
                    if (kind == ScheduleKind.BLKDIAG) {
                        for (int t = 0; t < s.tasks(); t++) {
                            for (int p = s.taskPtr()[t] + 1; p < s.taskPtr()[t + 1]; p++) {
                                assertTrue(r.item(s.order()[p - 1]) <= r.item(s.order()[p]), "blkdiag task " + t + " not sorted by item at " + p);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void theCheckFindsConflicts() {
        Ratings r = awkward(4);
        // Hogwild's batches share rows: the check must see it
        Schedule h = ScheduleInspector.build(r, ScheduleKind.HOGWILD, new ScheduleInspector.Options(1, 500, 1, 1));
        assertNotNull(h.firstConflict(r));
        // a hand-made step of two tasks on the same user
        Ratings two = Ratings.of(2, 2, new int[] {0, 0}, new int[] {0, 1}, new float[] {1, 2});
        Schedule bad = new Schedule(ScheduleKind.DIAG, new int[] {0, 1}, new int[] {0, 1, 2}, new int[] {0, 2}, "bad");
        assertEquals("step 0: user 0 is touched by tasks 0 and 1", bad.firstConflict(two));
        Schedule twice = new Schedule(ScheduleKind.DIAG, new int[] {0, 0}, new int[] {0, 1, 2}, new int[] {0, 1, 2}, "bad");
        assertNotNull(twice.firstConflict(two));
    }

    @Test
    void diagonalsOfASmallMatrix() {
        // 3 x 3, ratings at (0,0) (1,1) (2,2) (0,1) (1,2) (2,0) (0,2): diagonals (i - u) mod 3 = 0, 1, 2
        Ratings r = Ratings.of(3, 3, new int[] {0, 1, 2, 0, 1, 2, 0}, new int[] {0, 1, 2, 1, 2, 0, 2}, new float[7]);
        Schedule s = ScheduleInspector.build(r, ScheduleKind.DIAG, new ScheduleInspector.Options(1, 1, 1, 1));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6}, s.order());
        // diagonal 0: (0,0) (1,1) (2,2); 1: (0,1) (1,2) (2,0), which wraps round; 2: (0,2)
        assertArrayEquals(new int[] {0, 3, 6, 7}, s.stepPtr());
        assertEquals(7, s.tasks());
        assertEquals(3, s.widestStep());
    }

    @Test
    void blockDiagonalStepsAreShiftedBlockDiagonals() {
        Ratings r = awkward(5);
        int b = 4;
        Schedule s = ScheduleInspector.build(r, ScheduleKind.BLKDIAG, new ScheduleInspector.Options(b, 1, 1, 1));
        assertTrue(s.steps() <= b && s.tasks() <= b * b);
        int[] ub = ScheduleInspector.balancedRanges(r.userDegrees(), b), ib = ScheduleInspector.balancedRanges(r.itemDegrees(), b);
        boolean[] shiftSeen = new boolean[b];
        for (int st = 0; st < s.steps(); st++) {
            int stepShift = -1;
            for (int t = s.stepPtr()[st]; t < s.stepPtr()[st + 1]; t++) {
                int first = s.order()[s.taskPtr()[t]];
                int shift = Math.floorMod(ib[r.item(first)] - ub[r.user(first)], b);
                if (stepShift < 0) {
                    assertTrue(!shiftSeen[shift], "block diagonal " + shift + " in two steps");
                    shiftSeen[shift] = true;
                    stepShift = shift;
                }
                int prevItem = -1;
                for (int p = s.taskPtr()[t]; p < s.taskPtr()[t + 1]; p++) {
                    int e = s.order()[p];
                    assertEquals(ub[r.user(first)], ub[r.user(e)], "one user block per task");
                    assertEquals(shift, Math.floorMod(ib[r.item(e)] - ub[r.user(e)], b), "one block diagonal per step");
                    assertTrue(r.item(e) >= prevItem, "ratings sorted by item in a block");
                    prevItem = r.item(e);
                }
            }
        }
    }

    @Test
    void blockDiagonalStratifiedAndHogwildAreSeeded() {
        Ratings r = awkward(6);
        for (ScheduleKind kind : new ScheduleKind[] {ScheduleKind.BLKDIAG, ScheduleKind.STRATIFIED, ScheduleKind.HOGWILD}) {
            Schedule a = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(5, 64, 2, 9));
            Schedule b = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(5, 64, 2, 9));
            Schedule c = ScheduleInspector.build(r, kind, new ScheduleInspector.Options(5, 64, 2, 10));
            assertArrayEquals(a.order(), b.order(), kind + ": same seed, same order");
            assertTrue(!java.util.Arrays.equals(a.order(), c.order()), kind + ": another seed, another order");
        }
        Schedule h = ScheduleInspector.build(r, ScheduleKind.HOGWILD, new ScheduleInspector.Options(5, 64, 2, 9));
        assertEquals((r.size() + 1) / 2, h.tasks());
        assertEquals((h.tasks() + 31) / 32, h.steps());
    }
}
