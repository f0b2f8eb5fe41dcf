package dev.squall.sparse.sgd.kernels;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.ShortArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LaunchBounds;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;
import dev.squall.tasks.api.Unroll;

/**
 * SGD matrix-factorisation kernels, fp32 factors. A schedule is a list of tasks (each a range of ratings in
 * {@code taskPtr}, applied in order by one worker) grouped into steps; one launch runs the tasks
 * {@code [t0, t1)} of one step. For each rating {@code (u, i, r)}, with {@code pred = mean + w_u . h_i} (plus
 * {@code bu[u] + bi[i]} when biases are on) and {@code err = r - pred}, every feature {@code f} becomes
 * {@code w = w + lr (err h - reg w)}, {@code h = h + lr (err w - reg h)} (both from the old values), and the biases
 * {@code b = b + lr (err - regBias b)}. Factors are row-major, {@code k} per row.
 *
 * <p>{@code params} holds {@link #LR}, {@link #REG}, {@link #REG_BIAS}, {@link #MEAN} and {@link #BIASES} (1 or 0),
 * read on the device so that a new learning rate each epoch costs only a copy of this small array.
 */
public final class SgdKernels {
    /** Index of the learning rate in {@code params}. */
    public static final int LR = 0;
    /** Index of the factor regularisation. */
    public static final int REG = 1;
    /** Index of the bias regularisation. */
    public static final int REG_BIAS = 2;
    /** Index of the global mean (subtracted implicitly: predictions start from it). */
    public static final int MEAN = 3;
    /** Index of the bias switch (1: biases are learnt and used, 0: ignored). */
    public static final int BIASES = 4;
    /** Length of {@code params}. */
    public static final int PARAMS = 8;

    private SgdKernels() {
    }

    /** {@code acc} plus {@code w[wu + f] h[hi + f]} for {@code f = f0, f0 + stride, ... < k}, added in that order. */
    @DeviceFunction
    static float addDot(float acc, @ReadOnly FloatArray w, @ReadOnly FloatArray h, long wu, long hi, int f0, int stride, int k) {
        float s = acc;
        for (int f = f0; f < k; f += stride) {
            s += w.get(wu + f) * h.get(hi + f);
        }
        return s;
    }

    /** The prediction of user {@code u} for item {@code i}: {@code mean + w_u . h_i}, plus both biases when {@code biases != 0}. */
    @DeviceFunction
    static float predict(@ReadOnly FloatArray w, @ReadOnly FloatArray h, @ReadOnly FloatArray bu, @ReadOnly FloatArray bi,
                         int u, int i, int k, float mean, float biases) {
        float pred = mean + addDot(0.0f, w, h, (long) u * k, (long) i * k, 0, 1, k);
        if (biases != 0.0f) {
            pred = pred + bu.get(u) + bi.get(i);
        }
        return pred;
    }

    /** The factor step of one rating for features {@code f = f0, f0 + stride, ... < k}, both rows from their old values. */
    @DeviceFunction
    static void stepFactors(FloatArray w, FloatArray h, long wu, long hi, int f0, int stride, int k, float lr, float reg, float err) {
        for (int f = f0; f < k; f += stride) {
            float wf = w.get(wu + f);
            float hf = h.get(hi + f);
            w.set(wu + f, wf + lr * (err * hf - reg * wf));
            h.set(hi + f, hf + lr * (err * wf - reg * hf));
        }
    }

    /** The bias step of one rating: {@code b = b + lr (err - regBias b)} for the user's and the item's bias. */
    @DeviceFunction
    static void stepBiases(FloatArray bu, FloatArray bi, int u, int i, float lr, float regBias, float err) {
        float b = bu.get(u);
        bu.set(u, b + lr * (err - regBias * b));
        float c = bi.get(i);
        bi.set(i, c + lr * (err - regBias * c));
    }

    /**
     * One work-item per task, its ratings in order, features in sequence (CPU devices: the JVM, OpenCL on CPUs).
     * The tasks of one launch must not share a user or an item row (conflict-free schedules), or their races
     * are accepted (Hogwild).
     */
    @Kernel
    public static void updateTasks(@ReadOnly IntArray taskPtr, @ReadOnly IntArray user, @ReadOnly IntArray item,
                                   @ReadOnly FloatArray rating, FloatArray w, FloatArray h, FloatArray bu, FloatArray bi,
                                   @ReadOnly FloatArray params, int t0, int t1, int k) {
        for (@Parallel int t = t0; t < t1; t++) {
            float lr = params.get(0);
            float reg = params.get(1);
            float regBias = params.get(2);
            float mean = params.get(3);
            float biases = params.get(4);
            int end = taskPtr.get(t + 1);
            for (int e = taskPtr.get(t); e < end; e++) {
                int u = user.get(e);
                int i = item.get(e);
                float err = rating.get(e) - predict(w, h, bu, bi, u, i, k, mean, biases);
                stepFactors(w, h, (long) u * k, (long) i * k, 0, 1, k, lr, reg, err);
                if (biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
        }
    }

    /**
     * One work-group (a single sub-group of up to 32 lanes) per task, GPU style: lane {@code l} owns features
     * {@code l, l + lanes, ...} of both rows, so the rows are read and written coalesced and a lane only ever reads
     * features it wrote itself; the dot product is a sub-group reduction. Groups stride over the step's tasks.
     * Lane 0 alone reads and writes the biases (it adds them to its part of the prediction).
     */
    @Kernel
    public static void updateTasksLanes(KernelContext ctx, @ReadOnly IntArray taskPtr, @ReadOnly IntArray user,
                                        @ReadOnly IntArray item, @ReadOnly FloatArray rating, FloatArray w, FloatArray h,
                                        FloatArray bu, FloatArray bi, @ReadOnly FloatArray params, int t0, int t1, int k) {
        int lane = ctx.localIdx;
        int lanes = ctx.localGroupSizeX;
        int groups = ctx.globalGroupSizeX / lanes;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        for (int t = t0 + ctx.groupIdx; t < t1; t += groups) {
            int end = taskPtr.get(t + 1);
            for (int e = taskPtr.get(t); e < end; e++) {
                int u = user.get(e);
                int i = item.get(e);
                long wu = (long) u * k;
                long hi = (long) i * k;
                float part = 0.0f;
                if (lane == 0) {
                    part = mean;
                    if (biases != 0.0f) {
                        part = part + bu.get(u) + bi.get(i);
                    }
                }
                part = addDot(part, w, h, wu, hi, lane, lanes, k);
                float pred = ctx.subgroupReduceAdd(part);
                float err = rating.get(e) - pred;
                stepFactors(w, h, wu, hi, lane, lanes, k, lr, reg, err);
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
        }
    }

    /** Sub-groups of 32 lanes in one work-group of {@link #updateRatingsWarps} and {@link #updateRatingsWarpsHalf}. */
    public static final int WARPS = 8;
    /** Features of each row a lane keeps in registers between the dot product and the step: 4 a lane, rank 128 for 32 lanes. */
    public static final int HELD = 4;

    /**
     * Hogwild, GPU style, built for memory-level parallelism: work-groups of {@link #WARPS} sub-groups of 32 lanes
     * (256 work-items; 32-lane groups cap an H100 SM at half its warps), each sub-group updating one rating at a time,
     * ratings {@code p0 + g, p0 + g + G, ...} of the launch's range {@code [p0, p1)} for sub-group {@code g} of
     * {@code G}. Rank at most {@code 32 HELD} = 128: lane {@code l} owns features {@code l + 32 j}, {@code j < HELD},
     * loaded at once into registers, both rows together, so every load of an update is in flight at the same time and
     * the step reuses them instead of reading again (32 registers, no spills, on sm_90: 8 groups, 64 warps an SM); the next rating's ids and value are loaded before
     * the current update so their latency overlaps it. Tasks are ignored: every rating races with the others (Hogwild).
     * The loop is uniform over a work-group (sub-group operations synchronise the whole group on OpenCL CPUs).
     */
    @Kernel
    @LaunchBounds(maxGroupSize = 256, minGroupsPerUnit = 8)
    public static void updateRatingsWarps(KernelContext ctx, @ReadOnly IntArray user, @ReadOnly IntArray item, @ReadOnly FloatArray rating,
                                          FloatArray w, FloatArray h, FloatArray bu, FloatArray bi, @ReadOnly FloatArray params,
                                          int p0, int p1, int k) {
        int lane = ctx.localIdx & 31;
        int warps = ctx.localGroupSizeX >> 5;
        int stride = ctx.globalGroupSizeX >> 5;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        float[] wr = new float[4];
        float[] hr = new float[4];
        int first = p0 + ctx.groupIdx * warps;
        int e = first + (ctx.localIdx >> 5);
        int u = 0;
        int i = 0;
        float r = 0.0f;
        if (e < p1) {
            u = user.get(e);
            i = item.get(e);
            r = rating.get(e);
        }
        for (int base = first; base < p1; base += stride) {
            int en = e + stride;
            int uNext = 0;
            int iNext = 0;
            float rNext = 0.0f;
            if (en < p1) {
                uNext = user.get(en);
                iNext = item.get(en);
                rNext = rating.get(en);
            }
            long wu = (long) u * k;
            long hi = (long) i * k;
            for (@Unroll int j = 0; j < 4; j++) {
                int f = lane + 32 * j;
                wr[j] = f < k ? w.get(wu + f) : 0.0f;
                hr[j] = f < k ? h.get(hi + f) : 0.0f;
            }
            float part = 0.0f;
            if (lane == 0) {
                part = mean;
                if (biases != 0.0f) {
                    part = part + bu.get(u) + bi.get(i);
                }
            }
            for (@Unroll int j = 0; j < 4; j++) {
                part += wr[j] * hr[j];
            }
            float pred = ctx.subgroupReduceAdd(part);
            float err = r - pred;
            if (e < p1) {
                for (@Unroll int j = 0; j < 4; j++) {
                    int f = lane + 32 * j;
                    if (f < k) {
                        w.set(wu + f, wr[j] + lr * (err * hr[j] - reg * wr[j]));
                        h.set(hi + f, hr[j] + lr * (err * wr[j] - reg * hr[j]));
                    }
                }
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
            e = en;
            u = uNext;
            i = iNext;
            r = rNext;
        }
    }

    /**
     * {@link #updateRatingsWarps} for any rank: features from {@code 32 HELD} on are read and stepped in a loop after
     * the held ones (more registers: 4 groups an SM on sm_90). Hogwild, GPU style: work-groups of {@link #WARPS} sub-groups of 32 lanes
     * (256 work-items; 32-lane groups cap an H100 SM at half its warps), each sub-group updating one rating at a time,
     * ratings {@code p0 + g, p0 + g + G, ...} of the launch's range {@code [p0, p1)} for sub-group {@code g} of
     * {@code G}. Lane {@code l} owns features {@code l, l + 32, ...}; the first {@link #HELD} of them are loaded at once
     * into registers and reused by the step; the next rating's ids and value are loaded before
     * the current update so their latency overlaps it. Tasks are ignored: every rating races with the others (Hogwild).
     * The loop is uniform over a work-group (sub-group operations synchronise the whole group on OpenCL CPUs).
     */
    @Kernel
    @LaunchBounds(maxGroupSize = 256, minGroupsPerUnit = 4)
    public static void updateRatingsWarpsWide(KernelContext ctx, @ReadOnly IntArray user, @ReadOnly IntArray item, @ReadOnly FloatArray rating,
                                          FloatArray w, FloatArray h, FloatArray bu, FloatArray bi, @ReadOnly FloatArray params,
                                          int p0, int p1, int k) {
        int lane = ctx.localIdx & 31;
        int warps = ctx.localGroupSizeX >> 5;
        int stride = ctx.globalGroupSizeX >> 5;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        float[] wr = new float[4];
        float[] hr = new float[4];
        int first = p0 + ctx.groupIdx * warps;
        int e = first + (ctx.localIdx >> 5);
        int u = 0;
        int i = 0;
        float r = 0.0f;
        if (e < p1) {
            u = user.get(e);
            i = item.get(e);
            r = rating.get(e);
        }
        for (int base = first; base < p1; base += stride) {
            int en = e + stride;
            int uNext = 0;
            int iNext = 0;
            float rNext = 0.0f;
            if (en < p1) {
                uNext = user.get(en);
                iNext = item.get(en);
                rNext = rating.get(en);
            }
            long wu = (long) u * k;
            long hi = (long) i * k;
            for (@Unroll int j = 0; j < 4; j++) {
                int f = lane + 32 * j;
                wr[j] = f < k ? w.get(wu + f) : 0.0f;
                hr[j] = f < k ? h.get(hi + f) : 0.0f;
            }
            float part = 0.0f;
            if (lane == 0) {
                part = mean;
                if (biases != 0.0f) {
                    part = part + bu.get(u) + bi.get(i);
                }
            }
            for (@Unroll int j = 0; j < 4; j++) {
                part += wr[j] * hr[j];
            }
            part = addDot(part, w, h, wu, hi, lane + 32 * HELD, 32, k);
            float pred = ctx.subgroupReduceAdd(part);
            float err = r - pred;
            if (e < p1) {
                for (@Unroll int j = 0; j < 4; j++) {
                    int f = lane + 32 * j;
                    if (f < k) {
                        w.set(wu + f, wr[j] + lr * (err * hr[j] - reg * wr[j]));
                        h.set(hi + f, hr[j] + lr * (err * wr[j] - reg * hr[j]));
                    }
                }
                stepFactors(w, h, wu, hi, lane + 32 * HELD, 32, k, lr, reg, err);
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
            e = en;
            u = uNext;
            i = iNext;
            r = rNext;
        }
    }

    /**
     * {@link #updateRatingsWarps} (rank at most 128) with W and H stored as IEEE half (widened on load, rounded to nearest
     * even on store); the conversions take 40 registers on sm_90, so 6 groups an SM.
     */
    @Kernel
    @LaunchBounds(maxGroupSize = 256, minGroupsPerUnit = 6)
    public static void updateRatingsWarpsHalf(KernelContext ctx, @ReadOnly IntArray user, @ReadOnly IntArray item, @ReadOnly FloatArray rating,
                                              ShortArray w, ShortArray h, FloatArray bu, FloatArray bi, @ReadOnly FloatArray params,
                                              int p0, int p1, int k) {
        int lane = ctx.localIdx & 31;
        int warps = ctx.localGroupSizeX >> 5;
        int stride = ctx.globalGroupSizeX >> 5;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        float[] wr = new float[4];
        float[] hr = new float[4];
        int first = p0 + ctx.groupIdx * warps;
        int e = first + (ctx.localIdx >> 5);
        int u = 0;
        int i = 0;
        float r = 0.0f;
        if (e < p1) {
            u = user.get(e);
            i = item.get(e);
            r = rating.get(e);
        }
        for (int base = first; base < p1; base += stride) {
            int en = e + stride;
            int uNext = 0;
            int iNext = 0;
            float rNext = 0.0f;
            if (en < p1) {
                uNext = user.get(en);
                iNext = item.get(en);
                rNext = rating.get(en);
            }
            long wu = (long) u * k;
            long hi = (long) i * k;
            for (@Unroll int j = 0; j < 4; j++) {
                int f = lane + 32 * j;
                wr[j] = f < k ? halfToFloat(w.get(wu + f) & 0xFFFF) : 0.0f;
                hr[j] = f < k ? halfToFloat(h.get(hi + f) & 0xFFFF) : 0.0f;
            }
            float part = 0.0f;
            if (lane == 0) {
                part = mean;
                if (biases != 0.0f) {
                    part = part + bu.get(u) + bi.get(i);
                }
            }
            for (@Unroll int j = 0; j < 4; j++) {
                part += wr[j] * hr[j];
            }
            float pred = ctx.subgroupReduceAdd(part);
            float err = r - pred;
            if (e < p1) {
                for (@Unroll int j = 0; j < 4; j++) {
                    int f = lane + 32 * j;
                    if (f < k) {
                        w.set(wu + f, (short) floatToHalf(wr[j] + lr * (err * hr[j] - reg * wr[j])));
                        h.set(hi + f, (short) floatToHalf(hr[j] + lr * (err * wr[j] - reg * hr[j])));
                    }
                }
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
            e = en;
            u = uNext;
            i = iNext;
            r = rNext;
        }
    }

    /**
     * The IEEE binary16 value of {@code bits} (low 16 bits) as a float: exact (every half is a float), subnormals
     * {@code m 2^-24}, infinities and NaNs kept (the NaN's payload shifted into the float's). Integer operations only,
     * so every backend gives the same bits as {@link Float#float16ToFloat}.
     */
    @DeviceFunction
    public static float halfToFloat(int bits) {
        int e = (bits >>> 10) & 0x1F;
        int m = bits & 0x3FF;
        float mag;                                              // the magnitude; the sign is a negation (a sign-bit flip, NaNs included)
        if (e == 31) {
            mag = Float.intBitsToFloat(0x7F800000 | (m << 13));
        } else if (e == 0) {
            mag = (float) m * 5.9604645E-8f;                    // m 2^-24, exact
        } else {
            mag = Float.intBitsToFloat(((e + 112) << 23) | (m << 13));
        }
        return (bits & 0x8000) != 0 ? -mag : mag;
    }

    /**
     * {@code f} rounded to IEEE binary16, round to nearest even (as {@link Float#floatToFloat16}): overflow to
     * infinity, gradual underflow to subnormals, NaN to a quiet NaN of the same sign. Integer operations only, bit-exact
     * on every backend. Returns the 16 bits in an int.
     */
    @DeviceFunction
    public static int floatToHalf(float f) {
        int x = Float.floatToRawIntBits(f);
        int sign = (x >>> 16) & 0x8000;
        int e = (x >>> 23) & 0xFF;
        int m = x & 0x7FFFFF;
        int he = e - 112;                                       // the half's biased exponent: e - 127 + 15
        int out;
        if (e == 255) {
            out = m != 0 ? (sign | 0x7E00 | (m >>> 13)) : (sign | 0x7C00);
        } else if (he >= 31) {
            out = sign | 0x7C00;
        } else if (he <= 0) {
            if (he < -10) {
                out = sign;                                     // below half the smallest subnormal: zero
            } else {
                int full = m | 0x800000;
                int shift = 14 - he;                            // 14..24 bits dropped
                int q = full >>> shift;
                int rem = full & ((1 << shift) - 1);
                int mid = 1 << (shift - 1);
                if (rem > mid || (rem == mid && (q & 1) != 0)) {
                    q = q + 1;
                }
                out = sign | q;
            }
        } else {
            int q = (he << 10) | (m >>> 13);
            int rem = m & 0x1FFF;
            if (rem > 0x1000 || (rem == 0x1000 && (q & 1) != 0)) {
                q = q + 1;                                      // a carry into the exponent (or to infinity) is right
            }
            out = sign | q;
        }
        return out;
    }

    /** {@code dst[e] = halfToFloat(src[e])} for {@code e < n}: fp16-stored factors widened (download, checks). */
    @Kernel
    public static void widenHalf(@ReadOnly ShortArray src, FloatArray dst, int n) {
        for (@Parallel int e = 0; e < n; e++) {
            dst.set(e, halfToFloat(src.get(e) & 0xFFFF));
        }
    }

    /** {@code dst[e] = floatToHalf(src[e])} for {@code e < n}: factors rounded to fp16 storage. */
    @Kernel
    public static void narrowToHalf(@ReadOnly FloatArray src, ShortArray dst, int n) {
        for (@Parallel int e = 0; e < n; e++) {
            dst.set(e, (short) floatToHalf(src.get(e)));
        }
    }

    /** As {@link #addDot} with fp16-stored rows (widened to float, products and sums in float). */
    @DeviceFunction
    static float addDotHalf(float acc, @ReadOnly ShortArray w, @ReadOnly ShortArray h, long wu, long hi, int f0, int stride, int k) {
        float s = acc;
        for (int f = f0; f < k; f += stride) {
            s += halfToFloat(w.get(wu + f) & 0xFFFF) * halfToFloat(h.get(hi + f) & 0xFFFF);
        }
        return s;
    }

    /** As {@link #predict} with fp16-stored factors (biases in float). */
    @DeviceFunction
    static float predictHalf(@ReadOnly ShortArray w, @ReadOnly ShortArray h, @ReadOnly FloatArray bu, @ReadOnly FloatArray bi,
                             int u, int i, int k, float mean, float biases) {
        float pred = mean + addDotHalf(0.0f, w, h, (long) u * k, (long) i * k, 0, 1, k);
        if (biases != 0.0f) {
            pred = pred + bu.get(u) + bi.get(i);
        }
        return pred;
    }

    /** As {@link #stepFactors} with fp16 storage: the step in float, the new values rounded to fp16 (nearest even). */
    @DeviceFunction
    static void stepFactorsHalf(ShortArray w, ShortArray h, long wu, long hi, int f0, int stride, int k, float lr, float reg, float err) {
        for (int f = f0; f < k; f += stride) {
            float wf = halfToFloat(w.get(wu + f) & 0xFFFF);
            float hf = halfToFloat(h.get(hi + f) & 0xFFFF);
            w.set(wu + f, (short) floatToHalf(wf + lr * (err * hf - reg * wf)));
            h.set(hi + f, (short) floatToHalf(hf + lr * (err * wf - reg * hf)));
        }
    }

    /** {@link #updateTasks} with W and H stored as IEEE half (half the bytes of a row; arithmetic in float). */
    @Kernel
    public static void updateTasksHalf(@ReadOnly IntArray taskPtr, @ReadOnly IntArray user, @ReadOnly IntArray item,
                                       @ReadOnly FloatArray rating, ShortArray w, ShortArray h, FloatArray bu, FloatArray bi,
                                       @ReadOnly FloatArray params, int t0, int t1, int k) {
        for (@Parallel int t = t0; t < t1; t++) {
            float lr = params.get(0);
            float reg = params.get(1);
            float regBias = params.get(2);
            float mean = params.get(3);
            float biases = params.get(4);
            int end = taskPtr.get(t + 1);
            for (int e = taskPtr.get(t); e < end; e++) {
                int u = user.get(e);
                int i = item.get(e);
                float err = rating.get(e) - predictHalf(w, h, bu, bi, u, i, k, mean, biases);
                stepFactorsHalf(w, h, (long) u * k, (long) i * k, 0, 1, k, lr, reg, err);
                if (biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
        }
    }

    /** {@link #updateTasksLanes} with W and H stored as IEEE half (a lane still reads only features it wrote). */
    @Kernel
    public static void updateTasksLanesHalf(KernelContext ctx, @ReadOnly IntArray taskPtr, @ReadOnly IntArray user,
                                            @ReadOnly IntArray item, @ReadOnly FloatArray rating, ShortArray w, ShortArray h,
                                            FloatArray bu, FloatArray bi, @ReadOnly FloatArray params, int t0, int t1, int k) {
        int lane = ctx.localIdx;
        int lanes = ctx.localGroupSizeX;
        int groups = ctx.globalGroupSizeX / lanes;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        for (int t = t0 + ctx.groupIdx; t < t1; t += groups) {
            int end = taskPtr.get(t + 1);
            for (int e = taskPtr.get(t); e < end; e++) {
                int u = user.get(e);
                int i = item.get(e);
                long wu = (long) u * k;
                long hi = (long) i * k;
                float part = 0.0f;
                if (lane == 0) {
                    part = mean;
                    if (biases != 0.0f) {
                        part = part + bu.get(u) + bi.get(i);
                    }
                }
                part = addDotHalf(part, w, h, wu, hi, lane, lanes, k);
                float pred = ctx.subgroupReduceAdd(part);
                float err = rating.get(e) - pred;
                stepFactorsHalf(w, h, wu, hi, lane, lanes, k, lr, reg, err);
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
            }
        }
    }

    /** {@link #squaredErrors} with fp16-stored factors. */
    @Kernel
    public static void squaredErrorsHalf(@ReadOnly IntArray user, @ReadOnly IntArray item, @ReadOnly FloatArray rating,
                                         @ReadOnly ShortArray w, @ReadOnly ShortArray h, @ReadOnly FloatArray bu, @ReadOnly FloatArray bi,
                                         @ReadOnly FloatArray params, DoubleArray sums, int n, int k, int chunk, int chunks) {
        for (@Parallel int c = 0; c < chunks; c++) {
            float mean = params.get(3);
            float biases = params.get(4);
            int e1 = Math.min(n, (c + 1) * chunk);
            double s = 0.0;
            for (int e = c * chunk; e < e1; e++) {
                float pred = predictHalf(w, h, bu, bi, user.get(e), item.get(e), k, mean, biases);
                double d = (double) rating.get(e) - (double) pred;
                s += d * d;
            }
            sums.set(c, s);
        }
    }

    /**
     * Ratings ahead whose rows are in flight in {@link #updateTasksPrefetch}: the user row (and the item row where a new
     * item starts) of each of the next {@code PREFETCH} ratings of a task are being copied.
     */
    public static final int PREFETCH = 4;
    /** Bit of {@code stale[p]} in {@link #updateTasksPrefetch}: the user row prefetched for position {@code p} is out of date. */
    public static final int STALE_USER = 1;
    /** Bit of {@code stale[p]}: the item row prefetched for position {@code p} is out of date. */
    public static final int STALE_ITEM = 2;

    /**
     * GPU style for conflict-free schedules, built to shorten the chain of dependent updates of one task (on power-law
     * data the longest tasks of each step bound the epoch; see sparse/SGD.md). One 32-lane work-group per task, lanes
     * own features {@code l, l + 32, ...} as in {@link #updateTasksLanes}, and:
     * <ul>
     * <li>the item row stays in local memory while consecutive ratings of the task share the item (tasks of the
     *     block-diagonal schedule are sorted by item), written back when the item changes and at the task's end; each
     *     lane only touches its own features of it, so it needs no barrier;</li>
     * <li>the user row of each of the next {@link #PREFETCH} ratings, and its item row when the item differs from the
     *     rating before it, are copied asynchronously into rings in local memory while the current rating is updated,
     *     so neither row's memory latency is on the chain (two copy groups a rating, one of them empty when the item
     *     runs on). A prefetched row is out of date when its row was written after the copy started: {@code stale[p]}
     *     ({@link #STALE_USER}, {@link #STALE_ITEM}; computed by the host, {@code SgdTrainer}) makes the lanes read it
     *     from global memory instead.</li>
     * </ul>
     * The arithmetic is that of {@link #updateTasksLanes}, in the same order, so the two agree bit for bit on a device.
     */
    @Kernel
    public static void updateTasksPrefetch(KernelContext ctx, @ReadOnly IntArray taskPtr, @ReadOnly IntArray user,
                                           @ReadOnly IntArray item, @ReadOnly FloatArray rating, @ReadOnly IntArray stale,
                                           FloatArray w, FloatArray h, FloatArray bu, FloatArray bi,
                                           @ReadOnly FloatArray params, int t0, int t1, int k) {
        float[] ring = ctx.allocateFloatLocalArray(4 * 512);
        float[] hring = ctx.allocateFloatLocalArray(4 * 512);
        float[] hrow = ctx.allocateFloatLocalArray(512);
        int lane = ctx.localIdx;
        int lanes = ctx.localGroupSizeX;
        int groups = ctx.globalGroupSizeX / lanes;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        for (int t = t0 + ctx.groupIdx; t < t1; t += groups) {
            int e0 = taskPtr.get(t);
            int e1 = taskPtr.get(t + 1);
            int iPrev = -1;
            for (int d = 0; d < 4; d++) {
                if (e0 + d < e1) {
                    int iAt = item.get(e0 + d);
                    ctx.asyncCopy(ring, d * k, w, (long) user.get(e0 + d) * k, k);
                    if (iAt != iPrev) {
                        ctx.asyncCopy(hring, d * k, h, (long) iAt * k, k);
                    } else {
                        ctx.asyncCommit();
                    }
                    iPrev = iAt;
                } else {
                    ctx.asyncCommit();
                    ctx.asyncCommit();
                }
            }
            int cur = -1;
            int u = 0;
            int i = 0;
            int old = 0;
            float r = 0.0f;
            if (e0 < e1) {
                u = user.get(e0);
                i = item.get(e0);
                old = stale.get(e0);
                r = rating.get(e0);
            }
            for (int e = e0; e < e1; e++) {
                int slot = ((e - e0) % 4) * k;
                // the next rating's ids and the ids of the rows to prefetch are loaded now, used later: their
                // latency overlaps this update instead of adding to it
                int en = e + 1 < e1 ? e + 1 : e;
                int uNext = user.get(en);
                int iNext = item.get(en);
                int oldNext = stale.get(en);
                float rNext = rating.get(en);
                int ea = e + 4 < e1 ? e + 4 : e;
                int uAhead = user.get(ea);
                int iAhead = item.get(ea);
                int iBefore = item.get(ea - 1 >= e0 ? ea - 1 : ea);
                ctx.asyncWaitGroups(6);
                ctx.localBarrier();
                long wu = (long) u * k;
                long hi = (long) i * k;
                if (i != cur) {
                    if (cur >= 0) {
                        for (int f = lane; f < k; f += lanes) {
                            h.set((long) cur * k + f, hrow[f]);
                        }
                    }
                    if ((old & 2) != 0) {
                        for (int f = lane; f < k; f += lanes) {
                            hrow[f] = h.get(hi + f);
                        }
                    } else {
                        for (int f = lane; f < k; f += lanes) {
                            hrow[f] = hring[slot + f];
                        }
                    }
                    cur = i;
                }
                if ((old & 1) != 0) {
                    for (int f = lane; f < k; f += lanes) {
                        ring[slot + f] = w.get(wu + f);
                    }
                }
                float part = 0.0f;
                if (lane == 0) {
                    part = mean;
                    if (biases != 0.0f) {
                        part = part + bu.get(u) + bi.get(i);
                    }
                }
                for (int f = lane; f < k; f += lanes) {
                    part += ring[slot + f] * hrow[f];
                }
                float pred = ctx.subgroupReduceAdd(part);
                float err = r - pred;
                for (int f = lane; f < k; f += lanes) {
                    float wf = ring[slot + f];
                    float hf = hrow[f];
                    w.set(wu + f, wf + lr * (err * hf - reg * wf));
                    hrow[f] = hf + lr * (err * wf - reg * hf);
                }
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
                ctx.localBarrier();
                if (e + 4 < e1) {
                    ctx.asyncCopy(ring, slot, w, (long) uAhead * k, k);
                    if (iAhead != iBefore) {
                        ctx.asyncCopy(hring, slot, h, (long) iAhead * k, k);
                    } else {
                        ctx.asyncCommit();
                    }
                } else {
                    ctx.asyncCommit();
                    ctx.asyncCommit();
                }
                u = uNext;
                i = iNext;
                old = oldNext;
                r = rNext;
            }
            if (cur >= 0) {
                for (int f = lane; f < k; f += lanes) {
                    h.set((long) cur * k + f, hrow[f]);
                }
            }
            ctx.asyncWait();
            ctx.localBarrier();
        }
    }

    /**
     * {@link #updateTasksPrefetch} for rank at most {@code 32 HELD} = 128, with the rows in registers: lane {@code l}
     * holds features {@code l + 32 j}, {@code j < HELD}, of the current item row for the whole item run (written back
     * from registers when the item changes) and of the current user row (from the ring, read once), so an update
     * reads local memory once and the dot product, step and write-back are register work. The rings hold 128
     * features a slot (4 KB a work-group). Same arithmetic and order as {@link #updateTasksLanes}: equal bit for bit.
     */
    @Kernel
    public static void updateTasksPrefetchHeld(KernelContext ctx, @ReadOnly IntArray taskPtr, @ReadOnly IntArray user,
                                               @ReadOnly IntArray item, @ReadOnly FloatArray rating, @ReadOnly IntArray stale,
                                               FloatArray w, FloatArray h, FloatArray bu, FloatArray bi,
                                               @ReadOnly FloatArray params, int t0, int t1, int k) {
        float[] ring = ctx.allocateFloatLocalArray(4 * 128);
        float[] hring = ctx.allocateFloatLocalArray(4 * 128);
        float[] wr = new float[4];
        float[] hr = new float[4];
        int lane = ctx.localIdx;
        int groups = ctx.globalGroupSizeX / ctx.localGroupSizeX;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        for (int t = t0 + ctx.groupIdx; t < t1; t += groups) {
            int e0 = taskPtr.get(t);
            int e1 = taskPtr.get(t + 1);
            int iPrev = -1;
            for (int d = 0; d < 4; d++) {
                if (e0 + d < e1) {
                    int iAt = item.get(e0 + d);
                    ctx.asyncCopy(ring, d * k, w, (long) user.get(e0 + d) * k, k);
                    if (iAt != iPrev) {
                        ctx.asyncCopy(hring, d * k, h, (long) iAt * k, k);
                    } else {
                        ctx.asyncCommit();
                    }
                    iPrev = iAt;
                } else {
                    ctx.asyncCommit();
                    ctx.asyncCommit();
                }
            }
            int cur = -1;
            int u = 0;
            int i = 0;
            int old = 0;
            float r = 0.0f;
            if (e0 < e1) {
                u = user.get(e0);
                i = item.get(e0);
                old = stale.get(e0);
                r = rating.get(e0);
            }
            for (int e = e0; e < e1; e++) {
                int slot = ((e - e0) % 4) * k;
                int en = e + 1 < e1 ? e + 1 : e;
                int uNext = user.get(en);
                int iNext = item.get(en);
                int oldNext = stale.get(en);
                float rNext = rating.get(en);
                int ea = e + 4 < e1 ? e + 4 : e;
                int uAhead = user.get(ea);
                int iAhead = item.get(ea);
                int iBefore = item.get(ea - 1 >= e0 ? ea - 1 : ea);
                ctx.asyncWaitGroups(6);
                ctx.localBarrier();
                long wu = (long) u * k;
                long hi = (long) i * k;
                if (i != cur) {
                    if (cur >= 0) {
                        for (@Unroll int j = 0; j < 4; j++) {
                            int f = lane + 32 * j;
                            if (f < k) {
                                h.set((long) cur * k + f, hr[j]);
                            }
                        }
                    }
                    if ((old & 2) != 0) {
                        for (@Unroll int j = 0; j < 4; j++) {
                            int f = lane + 32 * j;
                            hr[j] = f < k ? h.get(hi + f) : 0.0f;
                        }
                    } else {
                        for (@Unroll int j = 0; j < 4; j++) {
                            int f = lane + 32 * j;
                            hr[j] = f < k ? hring[slot + f] : 0.0f;
                        }
                    }
                    cur = i;
                }
                if ((old & 1) != 0) {
                    for (@Unroll int j = 0; j < 4; j++) {
                        int f = lane + 32 * j;
                        wr[j] = f < k ? w.get(wu + f) : 0.0f;
                    }
                } else {
                    for (@Unroll int j = 0; j < 4; j++) {
                        int f = lane + 32 * j;
                        wr[j] = f < k ? ring[slot + f] : 0.0f;
                    }
                }
                float part = 0.0f;
                if (lane == 0) {
                    part = mean;
                    if (biases != 0.0f) {
                        part = part + bu.get(u) + bi.get(i);
                    }
                }
                for (@Unroll int j = 0; j < 4; j++) {
                    part += wr[j] * hr[j];
                }
                float pred = ctx.subgroupReduceAdd(part);
                float err = r - pred;
                for (@Unroll int j = 0; j < 4; j++) {
                    int f = lane + 32 * j;
                    if (f < k) {
                        w.set(wu + f, wr[j] + lr * (err * hr[j] - reg * wr[j]));
                        hr[j] = hr[j] + lr * (err * wr[j] - reg * hr[j]);
                    }
                }
                if (lane == 0 && biases != 0.0f) {
                    stepBiases(bu, bi, u, i, lr, regBias, err);
                }
                ctx.localBarrier();
                if (e + 4 < e1) {
                    ctx.asyncCopy(ring, slot, w, (long) uAhead * k, k);
                    if (iAhead != iBefore) {
                        ctx.asyncCopy(hring, slot, h, (long) iAhead * k, k);
                    } else {
                        ctx.asyncCommit();
                    }
                } else {
                    ctx.asyncCommit();
                    ctx.asyncCommit();
                }
                u = uNext;
                i = iNext;
                old = oldNext;
                r = rNext;
            }
            if (cur >= 0) {
                for (@Unroll int j = 0; j < 4; j++) {
                    int f = lane + 32 * j;
                    if (f < k) {
                        h.set((long) cur * k + f, hr[j]);
                    }
                }
            }
            ctx.asyncWait();
            ctx.localBarrier();
        }
    }

    /** Ratings ahead whose rows {@link #updateTasksPipelined} has in flight (its register ring's slots). */
    public static final int PIPELINE = 8;

    /**
     * GPU style for conflict-free schedules at rank at most {@code 32 HELD} = 128, built so that one update of a task
     * costs few instructions: on power-law data the hottest item's run (hundreds of thousands of dependent updates, all
     * in one task a step) bounds the epoch, and a single warp's chain of instructions is its time per update (there are
     * few warps a step to hide latency). One 32-lane work-group per task, lane {@code l} owning features
     * {@code l + 32 j}, {@code j < HELD}:
     * <ul>
     * <li>the current item row stays in registers for the whole run of an item (tasks are sorted by item), written back
     *     when the item changes and at the task's end;</li>
     * <li>the user row of each of the next {@link #PIPELINE} ratings, and the item row of each of them that starts a new
     *     item run, are loaded into a ring of registers (plain loads, no shared memory, no barriers, no copy groups) right
     *     after the update {@code PIPELINE} ratings before, so their memory latency is covered by the updates in
     *     between; the ring is indexed by constants (the loop over slots is unrolled), so it stays in registers;</li>
     * <li>a row loaded before it was last written in the task ({@code stale[p]}: {@link #STALE_USER}, {@link #STALE_ITEM},
     *     from the host with depth {@link #PIPELINE}) is read again from global memory;</li>
     * <li>the next rating's ids load during the current update.</li>
     * </ul>
     * The dot product is reduced by an unrolled butterfly of 32 lanes (xor 16, 8, 4, 2, 1: the order of the CUDA
     * sub-group reduction), the arithmetic otherwise that of {@link #updateTasksLanes}.
     */
    @Kernel
    public static void updateTasksPipelined(KernelContext ctx, @ReadOnly IntArray taskPtr, @ReadOnly IntArray user,
                                            @ReadOnly IntArray item, @ReadOnly FloatArray rating, @ReadOnly IntArray stale,
                                            FloatArray w, FloatArray h, FloatArray bu, FloatArray bi,
                                            @ReadOnly FloatArray params, int t0, int t1, int k) {
        float[] wq = new float[32];
        float[] hq = new float[32];
        float[] wr = new float[4];
        float[] hr = new float[4];
        int lane = ctx.localIdx;
        int groups = ctx.globalGroupSizeX / ctx.localGroupSizeX;
        float lr = params.get(0);
        float reg = params.get(1);
        float regBias = params.get(2);
        float mean = params.get(3);
        float biases = params.get(4);
        for (int t = t0 + ctx.groupIdx; t < t1; t += groups) {
            int e0 = taskPtr.get(t);
            int e1 = taskPtr.get(t + 1);
            for (@Unroll int d = 0; d < 8; d++) {
                int ea = e0 + d;
                if (ea < e1) {
                    int ua = user.get(ea);
                    int ia = item.get(ea);
                    int ib = ea > e0 ? item.get(ea - 1) : -1;
                    for (@Unroll int j = 0; j < 4; j++) {
                        int f = lane + 32 * j;
                        wq[d * 4 + j] = f < k ? w.get((long) ua * k + f) : 0.0f;
                    }
                    if (ia != ib) {
                        for (@Unroll int j = 0; j < 4; j++) {
                            int f = lane + 32 * j;
                            hq[d * 4 + j] = f < k ? h.get((long) ia * k + f) : 0.0f;
                        }
                    }
                }
            }
            int cur = -1;
            int u = 0;
            int i = 0;
            int old = 0;
            float r = 0.0f;
            if (e0 < e1) {
                u = user.get(e0);
                i = item.get(e0);
                old = stale.get(e0);
                r = rating.get(e0);
            }
            for (int base = e0; base < e1; base += 8) {
                for (@Unroll int d = 0; d < 8; d++) {
                    int e = base + d;
                    if (e < e1) {
                        int en = e + 1 < e1 ? e + 1 : e;
                        int uNext = user.get(en);
                        int iNext = item.get(en);
                        int oldNext = stale.get(en);
                        float rNext = rating.get(en);
                        int ea = e + 8;
                        int uAhead = 0;
                        int iAhead = 0;
                        int iBefore = 0;
                        if (ea < e1) {
                            uAhead = user.get(ea);
                            iAhead = item.get(ea);
                            iBefore = item.get(ea - 1);
                        }
                        long wu = (long) u * k;
                        if (i != cur) {
                            if (cur >= 0) {
                                for (@Unroll int j = 0; j < 4; j++) {
                                    int f = lane + 32 * j;
                                    if (f < k) {
                                        h.set((long) cur * k + f, hr[j]);
                                    }
                                }
                            }
                            if ((old & 2) != 0) {
                                for (@Unroll int j = 0; j < 4; j++) {
                                    int f = lane + 32 * j;
                                    hr[j] = f < k ? h.get((long) i * k + f) : 0.0f;
                                }
                            } else {
                                for (@Unroll int j = 0; j < 4; j++) {
                                    hr[j] = hq[d * 4 + j];
                                }
                            }
                            cur = i;
                        }
                        if ((old & 1) != 0) {
                            for (@Unroll int j = 0; j < 4; j++) {
                                int f = lane + 32 * j;
                                wr[j] = f < k ? w.get(wu + f) : 0.0f;
                            }
                        } else {
                            for (@Unroll int j = 0; j < 4; j++) {
                                wr[j] = wq[d * 4 + j];
                            }
                        }
                        float part = 0.0f;
                        if (lane == 0) {
                            part = mean;
                            if (biases != 0.0f) {
                                part = part + bu.get(u) + bi.get(i);
                            }
                        }
                        for (@Unroll int j = 0; j < 4; j++) {
                            part += wr[j] * hr[j];
                        }
                        // the butterfly of subgroupReduceAdd on 32 lanes, unrolled: no loop on the chain
                        part += ctx.shuffleXor(part, 16);
                        part += ctx.shuffleXor(part, 8);
                        part += ctx.shuffleXor(part, 4);
                        part += ctx.shuffleXor(part, 2);
                        part += ctx.shuffleXor(part, 1);
                        float pred = part;
                        float err = r - pred;
                        for (@Unroll int j = 0; j < 4; j++) {
                            int f = lane + 32 * j;
                            if (f < k) {
                                w.set(wu + f, wr[j] + lr * (err * hr[j] - reg * wr[j]));
                                hr[j] = hr[j] + lr * (err * wr[j] - reg * hr[j]);
                            }
                        }
                        if (lane == 0 && biases != 0.0f) {
                            stepBiases(bu, bi, u, i, lr, regBias, err);
                        }
                        if (ea < e1) {
                            for (@Unroll int j = 0; j < 4; j++) {
                                int f = lane + 32 * j;
                                wq[d * 4 + j] = f < k ? w.get((long) uAhead * k + f) : 0.0f;
                            }
                            if (iAhead != iBefore) {
                                for (@Unroll int j = 0; j < 4; j++) {
                                    int f = lane + 32 * j;
                                    hq[d * 4 + j] = f < k ? h.get((long) iAhead * k + f) : 0.0f;
                                }
                            }
                        }
                        u = uNext;
                        i = iNext;
                        old = oldNext;
                        r = rNext;
                    }
                }
            }
            if (cur >= 0) {
                for (@Unroll int j = 0; j < 4; j++) {
                    int f = lane + 32 * j;
                    if (f < k) {
                        h.set((long) cur * k + f, hr[j]);
                    }
                }
            }
        }
    }

    /**
     * Sum of squared prediction errors over chunks of {@code chunk} ratings, in double: {@code sums[c]} for chunk
     * {@code c}. The host adds the chunks in order, so the result does not depend on the device's thread count.
     */
    @Kernel
    public static void squaredErrors(@ReadOnly IntArray user, @ReadOnly IntArray item, @ReadOnly FloatArray rating,
                                     @ReadOnly FloatArray w, @ReadOnly FloatArray h, @ReadOnly FloatArray bu, @ReadOnly FloatArray bi,
                                     @ReadOnly FloatArray params, DoubleArray sums, int n, int k, int chunk, int chunks) {
        for (@Parallel int c = 0; c < chunks; c++) {
            float mean = params.get(3);
            float biases = params.get(4);
            int e1 = Math.min(n, (c + 1) * chunk);
            double s = 0.0;
            for (int e = c * chunk; e < e1; e++) {
                float pred = predict(w, h, bu, bi, user.get(e), item.get(e), k, mean, biases);
                double d = (double) rating.get(e) - (double) pred;
                s += d * d;
            }
            sums.set(c, s);
        }
    }
}
