package dev.squall.permanent.frontier;

import dev.squall.tasks.api.*;

/**
 * The frontier program's kernels ({@link DeviceFrontierPermanent}): the state table of a row holds, for every subset
 * {@code s} of the {@code w} column slots (a dense table of {@code 2^w} states, index = mask), the value and its
 * {@code |A|} companion interleaved ({@code table[2s]}, {@code table[2s + 1]}). One work-item per state pulls from the
 * previous row's table: {@code next[s] = sum_d [b_d in s] prev[(s - b_d) | closing] * a(row, col_d)}, where
 * {@code closing} are the slots whose columns closed after the previous row (they must have been used, and are free
 * now: a state that still has one of them set, other than through a column that reuses the slot, gets 0). Unreachable
 * states hold 0, so no state list is needed and no two work-items write the same state.
 */
public final class FrontierKernels {
    private FrontierKernels() {
    }

    /** The empty matching: state 0 has value 1 (and |A| companion 1), every other state 0. */
    @Kernel
    public static void start(KernelContext ctx, DoubleArray table, int states) {
        int s = ctx.globalIdx;
        if (s >= states) return;
        double v = s == 0 ? 1.0 : 0.0;
        table.set(2 * s, v);
        table.set(2 * s + 1, v);
    }

    /** One row: {@code deg} entries at {@code offset} of {@code bits} (slot masks) and {@code vals}. */
    @Kernel
    public static void row(KernelContext ctx, @ReadOnly DoubleArray prev, DoubleArray next, @ReadOnly IntArray bits, @ReadOnly DoubleArray vals,
                           int offset, int deg, int closing, int states) {
        int s = ctx.globalIdx;
        if (s >= states) return;
        double acc = 0.0;
        double abs = 0.0;
        for (int d = 0; d < deg; d++) {
            int b = bits.get(offset + d);
            int t = s ^ b;
            if ((s & b) != 0 && (t & closing) == 0) {
                int src = 2 * (t | closing);
                double e = vals.get(offset + d);
                acc += prev.get(src) * e;
                abs += prev.get(src + 1) * (e < 0.0 ? -e : e);
            }
        }
        next.set(2 * s, acc);
        next.set(2 * s + 1, abs);
    }

    /** The final state (every slot still open at the last row closes there): value and companion into {@code out}. */
    @Kernel
    public static void pick(KernelContext ctx, @ReadOnly DoubleArray table, DoubleArray out, int state) {
        if (ctx.globalIdx != 0) return;
        out.set(0, table.get(2 * state));
        out.set(1, table.get(2 * state + 1));
    }
}
