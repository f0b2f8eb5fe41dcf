package dev.squall.tasks.runtime.conformance;

import dev.squall.tasks.api.*;

/**
 * Kernels that together use every feature of the kernel language. {@link ConformanceTest} runs
 * each on every device present and compares with {@link ConformanceReference} (plain Java,
 * written independently of these kernels) and with the JVM run.
 */
public final class ConformanceKernels {
    static final int TILE = 64;
    static final int K = 5;

    private ConformanceKernels() {
    }

    /** Local stride and stage size (elements) of {@link #tileCopyPipelined}: up to 16 rows of up to 20 elements. */
    static final int TS_LD = 20, TS = 16 * TS_LD;
    /** Sentinel that local memory holds where a tile copy must not write. */
    static final double UNTOUCHED = -7.5;

    /**
     * Copies {@code tiles} consecutive row blocks of {@code x} (row-major, stride ld, from {@code off}; block t is rows
     * {@code t rows ..} of {@code rows x cols}, zero past {@code srcRows x srcCols}) through a 3-stage pipeline of
     * asyncCopyTile + asyncCommit + asyncWaitGroups(1), and writes each stage as it is read (all TS elements, the ones
     * the copy must not touch included) to {@code out[(group * tiles + t) * TS ..]}.
     */
    @Kernel
    public static void tileCopyPipelined(KernelContext ctx, @ReadOnly DoubleArray x, DoubleArray out, long off, int ld, int rows, int cols,
                                         int srcRows, int srcCols, int tiles) {
        double[] st = ctx.allocateDoubleLocalArray(3 * TS);
        int lid = ctx.localIdx, nt = ctx.localGroupSizeX;
        for (int i = lid; i < 3 * TS; i += nt) st[i] = UNTOUCHED;
        ctx.localBarrier();
        for (int t = 0; t < 2; t++) {
            if (t < tiles) ctx.asyncCopyTile(st, t * TS, TS_LD, x, off + (long) t * rows * ld, ld, rows, cols, srcRows - t * rows, srcCols);
            ctx.asyncCommit();
        }
        for (int t = 0; t < tiles; t++) {
            ctx.asyncWaitGroups(1);
            ctx.localBarrier();
            int next = t + 2;
            if (next < tiles) {
                ctx.asyncCopyTile(st, (next % 3) * TS, TS_LD, x, off + (long) next * rows * ld, ld, rows, cols, srcRows - next * rows, srcCols);
            }
            ctx.asyncCommit();
            long base = ((long) ctx.groupIdx * tiles + t) * TS;
            for (int i = lid; i < TS; i += nt) out.set(base + i, st[(t % 3) * TS + i]);
        }
        ctx.asyncWait();
        ctx.localBarrier();
    }

    /**
     * One asyncCopyTile of each other element type into its own local array (stride TS_LD, rows x cols, zero past
     * srcRows x srcCols), awaited with asyncWait; writes the whole local arrays (UNTOUCHED where not copied) out.
     */
    @Kernel
    public static void tileCopyTypes(KernelContext ctx, @ReadOnly FloatArray f, @ReadOnly IntArray i, @ReadOnly LongArray l, FloatArray fo, IntArray io,
                                     LongArray lo, long off, int ld, int rows, int cols, int srcRows, int srcCols) {
        float[] fs = ctx.allocateFloatLocalArray(TS);
        int[] is = ctx.allocateIntLocalArray(TS);
        long[] ls = ctx.allocateLongLocalArray(TS);
        int lid = ctx.localIdx, nt = ctx.localGroupSizeX;
        for (int q = lid; q < TS; q += nt) {
            fs[q] = (float) UNTOUCHED;
            is[q] = -7;
            ls[q] = -7;
        }
        ctx.localBarrier();
        ctx.asyncCopyTile(fs, 0, TS_LD, f, off, ld, rows, cols, srcRows, srcCols);
        ctx.asyncCopyTile(is, 0, TS_LD, i, off, ld, rows, cols, srcRows, srcCols);
        ctx.asyncCopyTile(ls, 0, TS_LD, l, off, ld, rows, cols, srcRows, srcCols);
        ctx.asyncCommit();
        ctx.asyncWait();
        ctx.localBarrier();
        for (int q = lid; q < TS; q += nt) {
            fo.set(q, fs[q]);
            io.set(q, is[q]);
            lo.set(q, ls[q]);
        }
    }

    /** Side of the tiles that {@link #tiledMatmulAsync} stages in local memory. */
    static final int AT = 8;
    /** Work-items per group of {@link #stencilAsync}. */
    static final int ST = 64;

    /**
     * c = a b (row-major, m x k times k x n) by AT x AT tiles staged with asyncCopy, double-buffered: tile t + 1 is
     * copied while tile t is multiplied. Groups are AT x AT work-items (x: row in the tile, y: column); tiles at the
     * edges are partial, and only their valid rows and columns are copied and used.
     */
    @Kernel
    public static void tiledMatmulAsync(KernelContext ctx, @ReadOnly DoubleArray a, @ReadOnly DoubleArray b, DoubleArray c, int m, int n, int k) {
        double[] as = ctx.allocateDoubleLocalArray(2 * AT * AT);
        double[] bs = ctx.allocateDoubleLocalArray(2 * AT * AT);
        int i = ctx.localIdx, j = ctx.localIdy;
        int row0 = ctx.groupIdx * AT, col0 = ctx.groupIdy * AT;
        int rows = Math.min(AT, m - row0), cols = Math.min(AT, n - col0);
        int tiles = (k + AT - 1) / AT;
        int kc0 = Math.min(AT, k);
        for (int r = 0; r < rows; r++) ctx.asyncCopy(as, r * AT, a, (long) (row0 + r) * k, kc0);
        for (int q = 0; q < kc0; q++) ctx.asyncCopy(bs, q * AT, b, (long) q * n + col0, cols);
        double s = 0;
        for (int t = 0; t < tiles; t++) {
            int cur = (t & 1) * AT * AT, next = AT * AT - cur;
            ctx.asyncWait();
            ctx.localBarrier();
            // the next tile goes to the buffer every work-item finished reading before the barrier that ended step t - 1
            int kn = t + 1 < tiles ? Math.min(AT, k - (t + 1) * AT) : 0;
            for (int r = 0; r < (kn > 0 ? rows : 0); r++) ctx.asyncCopy(as, next + r * AT, a, (long) (row0 + r) * k + (t + 1) * AT, kn);
            for (int q = 0; q < kn; q++) ctx.asyncCopy(bs, next + q * AT, b, (long) ((t + 1) * AT + q) * n + col0, cols);
            int kc = Math.min(AT, k - t * AT);
            if (i < rows && j < cols) {
                for (int q = 0; q < kc; q++) s += as[cur + i * AT + q] * bs[cur + q * AT + j];
            }
            ctx.localBarrier();
        }
        if (i < rows && j < cols) c.set((row0 + i) * n + col0 + j, s);
    }

    /**
     * y[g] = (x[g - 1] + x[g] + x[g + 1]) w[g] + o[g] (x is 0 outside 0..n-1), with x, w and o staged by asyncCopy:
     * x with a halo of one on each side. One group of ST work-items per ST outputs; the last group is partial.
     */
    @Kernel
    public static void stencilAsync(KernelContext ctx, @ReadOnly FloatArray x, @ReadOnly IntArray w, @ReadOnly LongArray o, FloatArray y, int n) {
        float[] xs = ctx.allocateFloatLocalArray(ST + 2);
        int[] ws = ctx.allocateIntLocalArray(ST);
        long[] os = ctx.allocateLongLocalArray(ST);
        int lid = ctx.localIdx;
        int g0 = ctx.groupIdx * ST;
        int valid = Math.min(ST, n - g0);
        // xs[1 + l] holds x[g0 + l]; xs[0] and xs[valid + 1] the neighbours, or 0 past the ends
        int from = Math.max(g0 - 1, 0), to = Math.min(g0 + valid + 1, n);
        xs[0] = 0f;
        xs[valid + 1] = 0f;
        ctx.localBarrier();
        ctx.asyncCopy(xs, from - (g0 - 1), x, from, to - from);
        ctx.asyncCopy(ws, 0, w, g0, valid);
        ctx.asyncCopy(os, 0, o, g0, valid);
        ctx.asyncWait();
        ctx.localBarrier();
        if (lid < valid) y.set(g0 + lid, (xs[lid] + xs[lid + 1] + xs[lid + 2]) * ws[lid] + os[lid]);
    }

    @DeviceFunction
    static double poly(double x) {
        return 1.0 + x * (0.5 + x * (0.25 - x * 0.125));
    }

    @DeviceFunction
    static int collatzSteps(long v) {
        int steps = 0;
        while (v != 1 && steps < 500) {
            v = (v & 1) == 0 ? v >> 1 : 3 * v + 1;
            steps++;
        }
        return steps;
    }

    /** 1D loop, double, device function, read-only hint. */
    @Kernel
    public static void polyMap(@ReadOnly DoubleArray x, @NoAlias DoubleArray y, int n) {
        for (@Parallel int i = 0; i < n; i++) y.set(i, poly(x.get(i)));
    }

    /** 1D loop with a step, float arithmetic, KernelMath float functions. */
    @Kernel
    public static void floatMath(FloatArray x, FloatArray y, int n) {
        for (@Parallel int i = 0; i < n; i += 1) {
            float v = x.get(i);
            y.set(i, KernelMath.sqrt(v) + KernelMath.exp(-v) * KernelMath.cos(v) - KernelMath.log(1f + v) / (2f + KernelMath.sin(v))
                    + KernelMath.pow(v, 1.5f) + KernelMath.fma(v, v, 0.5f) + KernelMath.rsqrt(v + 1f));
        }
    }

    /** Every Math function on doubles, written to 24 outputs per element. */
    @Kernel
    public static void doubleMath(DoubleArray x, DoubleArray out, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            double v = x.get(i);           // in (-1, 1)
            double a = Math.abs(v) + 0.5;  // positive
            int o = i * 24;
            out.set(o, Math.sqrt(a));
            out.set(o + 1, Math.cbrt(v));
            out.set(o + 2, Math.exp(v));
            out.set(o + 3, Math.expm1(v));
            out.set(o + 4, Math.log(a));
            out.set(o + 5, Math.log1p(a));
            out.set(o + 6, Math.log10(a));
            out.set(o + 7, Math.sin(v) + Math.cos(v) + Math.tan(v));
            out.set(o + 8, Math.asin(v) + Math.acos(v) + Math.atan(v));
            out.set(o + 9, Math.atan2(v, a));
            out.set(o + 10, Math.sinh(v) + Math.cosh(v) + Math.tanh(v));
            out.set(o + 11, Math.pow(a, v));
            out.set(o + 12, Math.hypot(v, a));
            out.set(o + 13, Math.floor(v * 10) + Math.ceil(v * 10) + Math.rint(v * 10));
            out.set(o + 14, (double) Math.round(v * 10));
            out.set(o + 15, Math.signum(v) + Math.copySign(a, v));
            out.set(o + 16, Math.fma(v, a, v));
            out.set(o + 17, Math.min(v, a) + Math.max(v, -a));
            out.set(o + 18, Math.abs(v) + Math.PI + Math.E);
            out.set(o + 19, v % 0.3);
            out.set(o + 20, Double.longBitsToDouble(Double.doubleToRawLongBits(v) ^ (1L << 63)));
            out.set(o + 21, Math.min(i, 7) + Math.max((long) i, 3L) + Math.abs(-i) + Math.abs(-3L));
            out.set(o + 22, (double) Math.round((float) v * 10f));
            out.set(o + 23, Double.MAX_VALUE > v ? Math.min(Double.POSITIVE_INFINITY, 1.0) : 0.0);
        }
    }

    /** Integer and long bit operations, shifts with Java's masking, >>>, integer division and remainder. */
    @Kernel
    public static void bits(IntArray a, LongArray b, LongArray out, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            int x = a.get(i);
            long y = b.get(i);
            int s = i % 70;
            long r = Integer.bitCount(x) + 3L * Long.bitCount(y)
                    + 7L * Integer.numberOfTrailingZeros(x) + 11L * Long.numberOfTrailingZeros(y)
                    + 13L * Integer.numberOfLeadingZeros(x) + 17L * Long.numberOfLeadingZeros(y);
            r ^= (long) Integer.lowestOneBit(x) ^ Long.highestOneBit(y) ^ (long) Integer.rotateLeft(x, s) ^ Long.rotateRight(y, s);
            r += (x << s) + (x >> s) + (x >>> s) + (y << s) + (y >> s) + (y >>> s);
            r += x / (s + 1) + x % (s - 35 == 0 ? 1 : s - 35) + y / 7 + y % -13;
            r += (long) Float.floatToRawIntBits((float) x) + Float.intBitsToFloat(x & 0x3fffffff) > 1f ? 1 : 0;
            r += (short) x + (byte) y + (int) y;
            r += Integer.MAX_VALUE + Integer.MIN_VALUE + (Long.MIN_VALUE >>> 60);
            out.set(i, r);
        }
    }

    /** 2D loop: C = A * B for small dense row-major matrices; sequential inner loop unrolled by 4 (a factor, bounds at run time). */
    @Kernel
    public static void matmul(DoubleArray a, DoubleArray b, DoubleArray c, int m, int n, int k) {
        for (@Parallel int i = 0; i < m; i++) {
            for (@Parallel int j = 0; j < n; j++) {
                double s = 0;
                for (@Unroll(4) int p = 0; p < k; p++) s += a.get(i * k + p) * b.get(p * n + j);
                c.set(i * n + j, s);
            }
        }
    }

    /** 3D loop with <= bounds and long arithmetic. */
    @Kernel
    public static void grid3(LongArray out, int nx, int ny, int nz) {
        for (@Parallel int z = 0; z <= nz - 1; z++) {
            for (@Parallel int y = 0; y < ny; y++) {
                for (@Parallel int x = 0; x < nx; x++) {
                    long id = ((long) z * ny + y) * nx + x;
                    out.set(id, id * 1_000_003L + x - 2L * y + 3L * z);
                }
            }
        }
    }

    /** Branches, switch, while, do-while, break, continue, ternaries, private arrays, boolean and byte/short. */
    @Kernel
    public static void control(IntArray in, IntArray out, ByteArray flags, ShortArray shorts, boolean negate, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            int v = in.get(i);
            int[] hist = new int[K];
            double[] w = new double[] {0.5, 1.5, 2.5};
            int acc = 0;
            switch (v & 3) {
                case 0:
                    acc = 10;
                    break;
                case 1:
                    acc = 20;
                    break;
                default:
                    acc = -5;
            }
            int j = 0;
            while (j < 40) {
                j++;
                if (j % 3 == 0) continue;
                if (j > (v & 31)) break;
                hist[j % K] += j;
            }
            int d = 0;
            do {
                d += 2;
            } while (d < (v & 7));
            for (@Unroll int q = 0; q < K; q++) acc += hist[q] * (q + 1);
            acc += (int) (w[v & 1] * 4) + d + collatzSteps(v & 255 | 1);
            boolean big = v > 1000 && !(v > 5000) || v < -1000;
            acc = big ? acc * 2 : acc;
            if (negate) acc = -acc;
            flags.set(i, (byte) (big ? 1 : 0));
            shorts.set(i, (short) (acc & 0x7fff));
            out.set(i, acc);
        }
    }

    /** 64-bit indices: a loop whose index is long. */
    @Kernel
    public static void longIndex(FloatArray x, FloatArray y, long n, long offset) {
        for (@Parallel long i = 0; i < n; i++) y.set(i, x.get(i) * 2f + (float) ((i + offset) % 1000));
    }

    /** Local memory, barriers, group ids: one partial sum per work-group (tree reduction). */
    @Kernel
    public static void blockSum(KernelContext ctx, DoubleArray x, DoubleArray sums, int n) {
        double[] part = ctx.allocateDoubleLocalArray(256);
        int gid = ctx.globalIdx;
        int lid = ctx.localIdx;
        part[lid] = gid < n ? x.get(gid) : 0.0;
        ctx.localBarrier();
        for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
            if (lid < s) part[lid] += part[lid + s];
            ctx.localBarrier();
        }
        if (lid == 0) sums.set(ctx.groupIdx, part[0]);
    }

    /**
     * Work-items publish values that later ones wait for, across and within work-groups, in one launch: item k adds
     * half of its predecessor's double (a quarter of its float, all of its long) to its own once the predecessor's
     * flag is up. Groups take their block of items from an atomic ticket, so a group waits only on blocks whose groups
     * have started; inside a group an item waits only on earlier items, which a backend that runs a group's items in a
     * loop has finished by then.
     */
    @Kernel
    public static void ticketedChain(KernelContext ctx, IntArray pred, DoubleArray in, DoubleArray dout, FloatArray fout, LongArray lout,
                                     IntArray ready, IntArray ticket, int n) {
        int[] block = ctx.allocateIntLocalArray(1);
        if (ctx.localIdx == 0) block[0] = ctx.atomicAdd(ticket, 0, 1);
        ctx.localBarrier();
        int k = block[0] * ctx.localGroupSizeX + ctx.localIdx;
        if (k < n) {
            int p = pred.get(k);
            double d = in.get(k);
            float f = (float) in.get(k);
            long l = k;
            if (p >= 0) {
                while (ctx.volatileLoad(ready, p) == 0) {
                }
                d += 0.5 * ctx.volatileLoad(dout, p);
                f += 0.25f * ctx.volatileLoad(fout, p);
                l += ctx.volatileLoad(lout, p);
            }
            ctx.volatileStore(dout, k, d);
            ctx.volatileStore(fout, k, f);
            ctx.volatileStore(lout, k, l);
            ctx.globalFence();
            ctx.volatileStore(ready, k, 1);
        }
    }

    /** Every atomic on global memory: int/long/float/double add, int/long min/max, CAS. */
    @Kernel
    public static void atomics(KernelContext ctx, IntArray keys, IntArray ihist, LongArray lhist, FloatArray fsum, DoubleArray dsum,
                               IntArray imax, LongArray lmin, IntArray counter, IntArray order, int n) {
        int i = ctx.globalIdx;
        if (i >= n) return;
        int k = keys.get(i);
        int bin = k & 15;
        ctx.atomicAdd(ihist, bin, 1);
        ctx.atomicAdd(lhist, bin, (long) k);
        ctx.atomicAdd(fsum, bin, 0.5f);
        ctx.atomicAdd(dsum, bin, (double) k * 0.25);
        ctx.atomicMax(imax, bin, k);
        ctx.atomicMin(lmin, bin, (long) k * 3L);
        ctx.atomicMin(imax, 16 + bin, k);
        ctx.atomicMax(lmin, 16 + bin, (long) k * 3L);
        int old = ctx.atomicCompareAndSwap(order, bin, -1, i);
        if (old != -1) ctx.atomicCompareAndSwap(order, 16 + bin, -1, i);
        ctx.atomicAdd(counter, 0, 1);
    }

    /** Atomics on local memory: a per-group histogram merged into global memory. */
    @Kernel
    public static void localHistogram(KernelContext ctx, IntArray keys, IntArray hist, DoubleArray weights, int n) {
        int[] h = ctx.allocateIntLocalArray(16);
        double[] w = ctx.allocateDoubleLocalArray(16);
        int lid = ctx.localIdx;
        if (lid < 16) {
            h[lid] = 0;
            w[lid] = 0.0;
        }
        ctx.localBarrier();
        int i = ctx.globalIdx;
        if (i < n) {
            ctx.atomicAdd(h, keys.get(i) & 15, 1);
            ctx.atomicAdd(w, keys.get(i) & 15, 0.5);
        }
        ctx.localBarrier();
        if (lid < 16) {
            ctx.atomicAdd(hist, lid, h[lid]);
            ctx.atomicAdd(weights, lid, w[lid]);
        }
    }

    /** Sub-group shuffles and reductions: per-sub-group sums three ways. */
    @Kernel
    public static void subgroups(KernelContext ctx, FloatArray x, DoubleArray y, IntArray z, DoubleArray out, IntArray sizes) {
        int i = ctx.globalIdx;
        float v = x.get(i);
        double dv = y.get(i);
        int iv = z.get(i);
        float s = v;
        for (int off = ctx.subgroupSize() / 2; off > 0; off >>= 1) s += ctx.shuffleDown(s, off);
        double d = ctx.subgroupReduceAdd(dv);
        int t = ctx.subgroupReduceAdd(iv);
        double xr = ctx.shuffleXor(dv, 1);
        if (ctx.subgroupLocalId() == 0) {
            int sg = i / ctx.subgroupSize();
            out.set(sg * 3, s);
            out.set(sg * 3 + 1, d);
            out.set(sg * 3 + 2, t);
        }
        y.set(i, xr);
        sizes.set(0, ctx.subgroupSize());
    }

    /** 2D SPMD grid: ids and sizes in two dimensions. */
    @Kernel
    public static void ids2d(KernelContext ctx, IntArray out, int width) {
        int x = ctx.globalIdx, y = ctx.globalIdy;
        int v = x + 1000 * y + 7 * ctx.groupIdx + 11 * ctx.groupIdy + 13 * ctx.localIdy + 17 * ctx.localGroupSizeY
                + 19 * ctx.globalGroupSizeY + ctx.globalGroupSizeX;
        out.set(y * width + x, v);
    }

    @DeviceFunction
    static double groupSum(double[] part, int count) {
        double s = 0;
        for (int k = 0; k < count; k++) s += part[k];
        return s;
    }

    @DeviceFunction
    static double weighted(double[] w, double v) {
        return w[0] + w[1] * v + w[2] * v * v;
    }

    /** Device functions taking a local array (groupSum) and a private array (weighted). */
    @Kernel
    public static void arrayHelpers(KernelContext ctx, DoubleArray x, DoubleArray out, int n) {
        double[] part = ctx.allocateDoubleLocalArray(64);
        double[] w = new double[] {1.0, 2.0, 3.0};
        int i = ctx.globalIdx;
        double v = i < n ? x.get(i) : 0.0;
        part[ctx.localIdx] = v;
        ctx.localBarrier();
        if (ctx.localIdx == 0) out.set(ctx.groupIdx, groupSum(part, ctx.localGroupSizeX) + weighted(w, v));
    }

    /** High halves of 128-bit products, signed and unsigned. */
    @Kernel
    public static void multiplyHigh(LongArray a, LongArray b, LongArray out, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            out.set(2 * i, Math.multiplyHigh(a.get(i), b.get(i)));
            out.set(2 * i + 1, Math.unsignedMultiplyHigh(a.get(i), b.get(i)));
        }
    }

    /** One launch, grid-wide sum: the last work-group to finish (seen through an atomic after a global fence) adds the partials. */
    @Kernel
    public static void lastGroupSum(KernelContext ctx, DoubleArray x, DoubleArray partials, IntArray counter, DoubleArray total, int n) {
        double[] part = ctx.allocateDoubleLocalArray(64);
        int[] last = ctx.allocateIntLocalArray(1);
        int lid = ctx.localIdx, gid = ctx.globalIdx;
        int groups = ctx.globalGroupSizeX / ctx.localGroupSizeX;
        part[lid] = gid < n ? x.get(gid) : 0.0;
        ctx.localBarrier();
        for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
            if (lid < s) part[lid] += part[lid + s];
            ctx.localBarrier();
        }
        if (lid == 0) {
            partials.set(ctx.groupIdx, part[0]);
            ctx.globalFence();
            last[0] = ctx.atomicAdd(counter, 0, 1) == groups - 1 ? 1 : 0;
        }
        ctx.localBarrier();
        if (lid == 0 && last[0] == 1) {
            double t = 0;
            for (int g = 0; g < groups; g++) t += partials.get(g);
            total.set(0, t);
        }
    }

    /** Shuffle from a given lane: every lane reads lane 3 of its sub-group, and lane (l + 5) % size for a rotation. */
    @Kernel
    public static void laneShuffles(KernelContext ctx, DoubleArray x, DoubleArray broadcast, IntArray rotated) {
        int i = ctx.globalIdx;
        int lane = ctx.subgroupLocalId();
        broadcast.set(i, ctx.shuffle(x.get(i), 3));
        rotated.set(i, ctx.shuffle(i, (lane + 5) % ctx.subgroupSize()));
    }

    /**
     * mma8x8x4: sub-group w computes the 8 x 8 tile D = A B + C with A (8 x K) and B (K x 8) row-major at
     * {@code w * 8 * K}, C row-major at {@code w * 64}, K = 4 kSteps, accumulating over the K/4 steps.
     */
    @Kernel
    public static void mmaTiles(KernelContext ctx, DoubleArray a, DoubleArray b, DoubleArray c, int kSteps) {
        int w = ctx.globalIdx / 32;
        int lane = ctx.subgroupLocalId();
        int kk = 4 * kSteps;
        int row = lane >> 2, q = lane & 3;
        double[] acc = new double[2];
        for (@Unroll int i = 0; i < 2; i++) acc[i] = c.get(w * 64 + row * 8 + 2 * q + i);
        for (int s = 0; s < kSteps; s++) {
            double av = a.get(w * 8 * kk + row * kk + 4 * s + q);
            double bv = b.get(w * kk * 8 + (4 * s + q) * 8 + row);
            ctx.mma8x8x4(av, bv, acc, 0);
        }
        for (@Unroll int i = 0; i < 2; i++) c.set(w * 64 + row * 8 + 2 * q + i, acc[i]);
    }

    /**
     * mma16x8x4: sub-group w computes the 16 x 8 tile D = A B + C with A (16 x K) and B (K x 8) row-major at
     * {@code w * 16 * K} and {@code w * K * 8}, C row-major at {@code w * 128}, K = 4 kSteps.
     */
    @Kernel
    public static void mmaTiles16(KernelContext ctx, DoubleArray a, DoubleArray b, DoubleArray c, int kSteps) {
        int w = ctx.globalIdx / 32;
        int lane = ctx.subgroupLocalId();
        int kk = 4 * kSteps;
        int row = lane >> 2, q = lane & 3;
        double[] acc = new double[4];
        for (@Unroll int i = 0; i < 4; i++) acc[i] = c.get(w * 128 + (row + 8 * (i >> 1)) * 8 + 2 * q + (i & 1));
        for (int s = 0; s < kSteps; s++) {
            double a0 = a.get(w * 16 * kk + row * kk + 4 * s + q);
            double a1 = a.get(w * 16 * kk + (row + 8) * kk + 4 * s + q);
            double bv = b.get(w * kk * 8 + (4 * s + q) * 8 + row);
            ctx.mma16x8x4(a0, a1, bv, acc, 0);
        }
        for (@Unroll int i = 0; i < 4; i++) c.set(w * 128 + (row + 8 * (i >> 1)) * 8 + 2 * q + (i & 1), acc[i]);
    }

    /** Fast transcendental variants, explicit opt-in. */
    @Kernel
    public static void fastMath(FloatArray x, FloatArray y, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            float v = x.get(i);
            y.set(i, KernelMath.fastExp(-v) + KernelMath.fastLog(v + 1f) + KernelMath.fastSin(v) + KernelMath.fastCos(v)
                    + KernelMath.fastSqrt(v) + KernelMath.fastRsqrt(v + 1f) + KernelMath.fastDivide(v, 3f));
        }
    }

    // ---- kernels that stress the JVM's work-group fission (barriers and sub-group operations inside control flow) ----

    /** A barrier inside a loop with a uniform trip count; {@code v} lives across both barriers of every step. */
    @Kernel
    public static void rotateInLoop(KernelContext ctx, LongArray x, LongArray out, int steps) {
        long[] buf = ctx.allocateLongLocalArray(64);
        int lid = ctx.localIdx, size = ctx.localGroupSizeX;
        long v = x.get(ctx.globalIdx);
        for (int s = 0; s < steps; s++) {
            buf[lid] = v;
            ctx.localBarrier();
            v = buf[(lid + 1) % size] * 3 + s;
            ctx.localBarrier();
        }
        out.set(ctx.globalIdx, v);
    }

    /** Locals ({@code mine}, {@code twice}, {@code left}) that live across two and three barriers. */
    @Kernel
    public static void liveAcrossBarriers(KernelContext ctx, IntArray x, IntArray out) {
        int[] a = ctx.allocateIntLocalArray(64);
        int lid = ctx.localIdx, size = ctx.localGroupSizeX;
        int mine = x.get(ctx.globalIdx) * 7 + lid;
        int twice = mine * 2;
        a[lid] = mine;
        ctx.localBarrier();
        int left = a[(lid + size - 1) % size];
        ctx.localBarrier();
        a[lid] = left + twice;
        ctx.localBarrier();
        out.set(ctx.globalIdx, a[size - 1 - lid] + mine - left);
    }

    /** Nested loops with barriers in the inner one, and a uniform branch with a barrier in the outer one. */
    @Kernel
    public static void nestedLoopBarriers(KernelContext ctx, LongArray x, LongArray out, int outer, int inner) {
        long[] buf = ctx.allocateLongLocalArray(64);
        int lid = ctx.localIdx, size = ctx.localGroupSizeX;
        long acc = x.get(ctx.globalIdx);
        for (int i = 0; i < outer; i++) {
            for (int j = 0; j < inner; j++) {
                buf[lid] = acc + j;
                ctx.localBarrier();
                acc = buf[(lid + i + 1) % size] ^ (acc * 31 + i);
                ctx.localBarrier();
            }
            if (i % 2 == 1) {
                buf[lid] = acc;
                ctx.localBarrier();
                acc += buf[0];
                ctx.localBarrier();
            }
        }
        out.set(ctx.globalIdx, acc);
    }

    /** C = A B for n x n row-major matrices (n a multiple of 16), one 16 x 16 tile of C per group, 16 x 16 tiles of A and B in local memory. */
    @Kernel
    public static void tiledGemm(KernelContext ctx, DoubleArray a, DoubleArray b, DoubleArray c, int n) {
        double[] as = ctx.allocateDoubleLocalArray(256);
        double[] bs = ctx.allocateDoubleLocalArray(256);
        int tx = ctx.localIdx, ty = ctx.localIdy;
        int row = ctx.globalIdy, col = ctx.globalIdx;
        double sum = 0;
        for (int t = 0; t < n; t += 16) {
            as[ty * 16 + tx] = a.get(row * n + t + tx);
            bs[ty * 16 + tx] = b.get((t + ty) * n + col);
            ctx.localBarrier();
            for (int k = 0; k < 16; k++) sum += as[ty * 16 + k] * bs[k * 16 + tx];
            ctx.localBarrier();
        }
        c.set(row * n + col, sum);
    }

    /** Tree reduction with two barriers a step; the partner's value lives across the first. Writes the group sum and the step count. */
    @Kernel
    public static void treeReduceSteps(KernelContext ctx, LongArray x, LongArray out) {
        long[] part = ctx.allocateLongLocalArray(64);
        int lid = ctx.localIdx;
        part[lid] = x.get(ctx.globalIdx);
        int steps = 0;
        ctx.localBarrier();
        for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
            long partner = lid < s ? part[lid + s] : 0;
            ctx.localBarrier();
            if (lid < s) part[lid] += partner;
            steps++;
            ctx.localBarrier();
        }
        if (lid == 0) {
            out.set(2 * ctx.groupIdx, part[0]);
            out.set(2 * ctx.groupIdx + 1, steps);
        }
    }

    /** Sub-group reductions and a broadcast inside a loop, their results carried from one round to the next. */
    @Kernel
    public static void subgroupRounds(KernelContext ctx, DoubleArray x, DoubleArray out, IntArray counts, int rounds) {
        int i = ctx.globalIdx;
        double v = x.get(i);
        for (int r = 0; r < rounds; r++) {
            double s = ctx.subgroupReduceAdd(v);
            double first = ctx.shuffle(v, 0);
            v = v * 0.5 + s / ctx.subgroupSize() - first * 0.25;
        }
        int lanes = ctx.subgroupReduceAdd(ctx.subgroupLocalId());
        out.set(i, v);
        counts.set(i, lanes);
    }
}
