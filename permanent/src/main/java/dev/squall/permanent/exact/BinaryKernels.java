package dev.squall.permanent.exact;

import dev.squall.tasks.api.*;

/**
 * The exact 0/1 permanent kernel: Ryser's formula over all 2^n column subsets in Gray-code order
 * with integer row sums and 64-bit wrapping products and sums, so each work-item's partial is
 * its chunk's contribution modulo 2^64 (no half-integers as in the Nijenhuis–Wilf variant, whose
 * 2^(n-1) scaling would cost n-1 bits of the 64). Work-item t runs the steps
 * {@code [offset + t*delta, min(offset + (t+1)*delta, total))} of the launch's {@code plan}
 * (Elbek and Kaya, Algorithm 2: power-of-two aligned chunks).
 *
 * <p>Relies on 64-bit signed multiplication and addition wrapping modulo 2^64 in the C
 * translations (undefined behaviour in C, two's-complement wrapping on the devices Squall
 * targets); the tests check it at sizes where the products overflow.
 */
public final class BinaryKernels {
    /** Size of the private row-sum array: the largest order the exact sweep supports. */
    public static final int MAX_N = 62;

    private BinaryKernels() {
    }

    /**
     * {@code cols} is the 0/1 matrix column-major as ints; {@code partials[t]} receives
     * {@code sum over the chunk's steps g of (-1)^g prod_i rowSum_i(gray(g))} modulo 2^64.
     */
    @Kernel
    public static void ryserChunks(KernelContext ctx, @ReadOnly IntArray cols, @ReadOnly LongArray plan,
                                   LongArray partials, int n, int threads) {
        int t = ctx.globalIdx;
        if (t >= threads) return;
        long start = plan.get(0) + (long) t * plan.get(1);
        long end = Math.min(start + plan.get(1), plan.get(2));
        long sum = 0;
        if (start < end) {
            int[] r = new int[MAX_N];
            long code = start ^ (start >>> 1);
            for (int j = 0; j < n; j++) {
                if (((code >>> j) & 1L) != 0) {
                    for (int i = 0; i < n; i++) r[i] += cols.get(j * n + i);
                }
            }
            long p = 1;
            for (int i = 0; i < n; i++) p *= r[i];
            // the popcount of gray(g) has the parity of g
            sum = (start & 1L) == 0 ? p : -p;
            for (long g = start + 1; g < end; g++) {
                int j = Long.numberOfTrailingZeros(g);
                // step g adds column j when bit j+1 of g is 0 (it flips bit j of the Gray code to 1)
                int s = ((g >>> (j + 1)) & 1L) == 0 ? 1 : -1;
                int off = j * n;
                long prod = 1;
                for (int i = 0; i < n; i++) {
                    int v = r[i] + s * cols.get(off + i);
                    r[i] = v;
                    prod *= v;
                }
                sum += (g & 1L) == 0 ? prod : -prod;
            }
        }
        partials.set(t, sum);
    }
}
