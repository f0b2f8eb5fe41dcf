package dev.squall.tasks.api.spi;

/**
 * The sub-group operations of {@code KernelContext} for a whole work-group at once, as the JVM's
 * generated work-group runners execute them between their loops over the work-items. Arrays hold one
 * value per work-item (by linear local id, {@code n} of them); sub-groups are the consecutive
 * {@code min(32, n)} work-items. Each computes exactly what every work-item's own call computes in
 * {@code KernelContext} (same lanes, same order of additions), so results are bit for bit the same.
 */
public final class WorkGroupOps {
    private WorkGroupOps() {
    }

    /** The first work-item of {@code w}'s sub-group: sub-groups are 32 wide, or the whole group when it is smaller. */
    private static int base(int w) {
        return w & ~31;
    }

    /** {@code out[w] = v[lane src[w] of w's sub-group]}: {@code KernelContext.shuffle}. */
    public static void shuffle(int[] v, int[] src, int[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + src[w]];
    }

    /** {@code KernelContext.shuffleDown}: lane + delta, or the lane itself past the sub-group's end. */
    public static void shuffleDown(int[] v, int[] delta, int[] out, int n) {
        int size = Math.min(32, n);
        for (int w = 0; w < n; w++) {
            int lane = w & 31, src = lane + delta[w];
            out[w] = v[base(w) + (src < size ? src : lane)];
        }
    }

    /** {@code KernelContext.shuffleXor}: lane ^ mask. */
    public static void shuffleXor(int[] v, int[] mask, int[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + ((w & 31) ^ mask[w])];
    }

    /** {@code KernelContext.subgroupReduceAdd}: the butterfly {@code v += shuffleXor(v, m)} for m = size / 2 ... 1. */
    public static void subgroupReduceAdd(int[] v, int[] out, int n) {
        System.arraycopy(v, 0, out, 0, n);
        for (int m = Math.min(32, n) / 2; m > 0; m >>= 1) {
            for (int w = 0; w < n; w++) {
                if ((w & m) != 0) continue;
                int p = base(w) + ((w & 31) ^ m);
                int a = out[w], b = out[p];
                out[w] = (int) (a + b);
                out[p] = (int) (b + a);
            }
        }
    }

    /** {@code out[w] = v[lane src[w] of w's sub-group]}: {@code KernelContext.shuffle}. */
    public static void shuffle(long[] v, int[] src, long[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + src[w]];
    }

    /** {@code KernelContext.shuffleDown}: lane + delta, or the lane itself past the sub-group's end. */
    public static void shuffleDown(long[] v, int[] delta, long[] out, int n) {
        int size = Math.min(32, n);
        for (int w = 0; w < n; w++) {
            int lane = w & 31, src = lane + delta[w];
            out[w] = v[base(w) + (src < size ? src : lane)];
        }
    }

    /** {@code KernelContext.shuffleXor}: lane ^ mask. */
    public static void shuffleXor(long[] v, int[] mask, long[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + ((w & 31) ^ mask[w])];
    }

    /** {@code KernelContext.subgroupReduceAdd}: the butterfly {@code v += shuffleXor(v, m)} for m = size / 2 ... 1. */
    public static void subgroupReduceAdd(long[] v, long[] out, int n) {
        System.arraycopy(v, 0, out, 0, n);
        for (int m = Math.min(32, n) / 2; m > 0; m >>= 1) {
            for (int w = 0; w < n; w++) {
                if ((w & m) != 0) continue;
                int p = base(w) + ((w & 31) ^ m);
                long a = out[w], b = out[p];
                out[w] = (long) (a + b);
                out[p] = (long) (b + a);
            }
        }
    }

    /** {@code out[w] = v[lane src[w] of w's sub-group]}: {@code KernelContext.shuffle}. */
    public static void shuffle(float[] v, int[] src, float[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + src[w]];
    }

    /** {@code KernelContext.shuffleDown}: lane + delta, or the lane itself past the sub-group's end. */
    public static void shuffleDown(float[] v, int[] delta, float[] out, int n) {
        int size = Math.min(32, n);
        for (int w = 0; w < n; w++) {
            int lane = w & 31, src = lane + delta[w];
            out[w] = v[base(w) + (src < size ? src : lane)];
        }
    }

    /** {@code KernelContext.shuffleXor}: lane ^ mask. */
    public static void shuffleXor(float[] v, int[] mask, float[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + ((w & 31) ^ mask[w])];
    }

    /** {@code KernelContext.subgroupReduceAdd}: the butterfly {@code v += shuffleXor(v, m)} for m = size / 2 ... 1. */
    public static void subgroupReduceAdd(float[] v, float[] out, int n) {
        System.arraycopy(v, 0, out, 0, n);
        for (int m = Math.min(32, n) / 2; m > 0; m >>= 1) {
            for (int w = 0; w < n; w++) {
                if ((w & m) != 0) continue;
                int p = base(w) + ((w & 31) ^ m);
                float a = out[w], b = out[p];
                out[w] = (float) (a + b);
                out[p] = (float) (b + a);
            }
        }
    }

    /** {@code out[w] = v[lane src[w] of w's sub-group]}: {@code KernelContext.shuffle}. */
    public static void shuffle(double[] v, int[] src, double[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + src[w]];
    }

    /** {@code KernelContext.shuffleDown}: lane + delta, or the lane itself past the sub-group's end. */
    public static void shuffleDown(double[] v, int[] delta, double[] out, int n) {
        int size = Math.min(32, n);
        for (int w = 0; w < n; w++) {
            int lane = w & 31, src = lane + delta[w];
            out[w] = v[base(w) + (src < size ? src : lane)];
        }
    }

    /** {@code KernelContext.shuffleXor}: lane ^ mask. */
    public static void shuffleXor(double[] v, int[] mask, double[] out, int n) {
        for (int w = 0; w < n; w++) out[w] = v[base(w) + ((w & 31) ^ mask[w])];
    }

    /** {@code KernelContext.subgroupReduceAdd}: the butterfly {@code v += shuffleXor(v, m)} for m = size / 2 ... 1. */
    public static void subgroupReduceAdd(double[] v, double[] out, int n) {
        System.arraycopy(v, 0, out, 0, n);
        for (int m = Math.min(32, n) / 2; m > 0; m >>= 1) {
            for (int w = 0; w < n; w++) {
                if ((w & m) != 0) continue;
                int p = base(w) + ((w & 31) ^ m);
                double a = out[w], b = out[p];
                out[w] = (double) (a + b);
                out[p] = (double) (b + a);
            }
        }
    }

    /** {@code KernelContext.mma8x8x4} for every sub-group: lane l's {@code acc[l][at[l]]} and {@code acc[l][at[l] + 1]} get D. */
    public static void mma8x8x4(double[] a, double[] b, double[][] acc, int[] at, int n) {
        for (int w = 0; w < n; w++) {
            int lane = w & 31, s = base(w);
            int row = lane >> 2, col = (lane & 3) * 2;
            double[] c = acc[w];
            int i = at[w];
            double d0 = c[i], d1 = c[i + 1];
            for (int k = 0; k < 4; k++) {
                double ak = a[s + row * 4 + k];
                double b0 = b[s + col * 4 + k];
                double b1 = b[s + (col + 1) * 4 + k];
                d0 = Math.fma(ak, b0, d0);
                d1 = Math.fma(ak, b1, d1);
            }
            c[i] = d0;
            c[i + 1] = d1;
        }
    }

    /** {@code KernelContext.mma16x8x4}: {@code mma8x8x4(a0, b, acc, at)} then {@code mma8x8x4(a1, b, acc, at + 2)}. */
    public static void mma16x8x4(double[] a0, double[] a1, double[] b, double[][] acc, int[] at, int n) {
        mma8x8x4(a0, b, acc, at, n);
        int[] at2 = new int[n];
        for (int w = 0; w < n; w++) at2[w] = at[w] + 2;
        mma8x8x4(a1, b, acc, at2, n);
    }
}
