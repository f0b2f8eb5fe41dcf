package dev.squall.permanent.cpu;

import dev.squall.permanent.numeric.KahanSum;
/**
 * Sums {@code (-1)^g prod_i x_i^(g)} over a range of Nijenhuis–Wilf Gray-code steps.
 * Implementations keep their own x vector, so one instance serves one thread.
 */
public interface GraySweep {
    /** Adds the terms of steps {@code [start, end)} to {@code acc}. */
    void sum(long start, long end, KahanSum acc);
}
