package dev.squall.permanent.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * How the 2^(n-1) Gray-code steps are split over launches (Elbek and Kaya, Algorithm 2): each
 * launch runs {@code threads} work-items on consecutive chunks of a power-of-two size
 * {@code delta}, the largest with {@code delta * threads <= remaining} (but at least
 * {@code minDelta}); the next launch takes what is left with a smaller delta. Every chunk then
 * starts at a multiple of its size, so within a chunk all work-items change the same column at
 * the same local step except at the chunk's start and middle (the paper's Lemma 1): warps stay
 * convergent and balanced.
 *
 * <pre>{@code
 * for (LaunchPlan.Launch l : LaunchPlan.of(1L << 39, 135168, 1024)) { ... l.offset(), l.delta(), l.threads() ... }
 * }</pre>
 */
public final class LaunchPlan {
    /** One launch: work-item t runs steps {@code [offset + t*delta, min(offset + (t+1)*delta, total))}. */
    public record Launch(long offset, long delta, int threads) {
        /** One past the launch's last step. */
        public long end(long totalSteps) {
            return Math.min(totalSteps, offset + threads * delta);
        }

        /** The kernels' {@code plan} argument: {@code {offset, delta, end}}. */
        public long[] planWords(long totalSteps) {
            return new long[] {offset, delta, end(totalSteps)};
        }
    }

    private LaunchPlan() {
    }

    public static List<Launch> of(long totalSteps, int maxThreads, long minDelta) {
        if (totalSteps < 1 || maxThreads < 1 || minDelta < 1 || Long.bitCount(minDelta) != 1) {
            throw new IllegalArgumentException("bad launch plan request: steps=" + totalSteps + ", threads=" + maxThreads + ", minDelta=" + minDelta);
        }
        List<Launch> out = new ArrayList<>();
        long offset = 0;
        long prevDelta = Long.MAX_VALUE;
        while (offset < totalSteps) {
            long rem = totalSteps - offset;
            long delta = rem / maxThreads >= 1 ? Long.highestOneBit(rem / maxThreads) : 1;
            delta = Math.max(delta, Math.min(minDelta, Long.highestOneBit(rem)));
            delta = Math.min(delta, prevDelta); // keeps offset a multiple of delta
            long threads = Math.min(maxThreads, (rem + delta - 1) / delta);
            out.add(new Launch(offset, delta, (int) threads));
            offset += threads * delta;
            prevDelta = delta;
        }
        return out;
    }
}
