package dev.squall.tasks.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;

/**
 * The SPMD view of a launch, as in TornadoVM: a kernel that takes a {@code KernelContext}
 * runs once per work-item and reads its ids from the fields below. Methods are intrinsics:
 * the translator turns them into OpenCL and CUDA built-ins; their bodies here are what the
 * JVM backend runs.
 *
 * <pre>{@code
 * @Kernel
 * static void blockSums(KernelContext ctx, DoubleArray x, DoubleArray sums) {
 *     double[] part = ctx.allocateDoubleLocalArray(256);
 *     part[ctx.localIdx] = x.get(ctx.globalIdx);
 *     ctx.localBarrier();
 *     for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
 *         if (ctx.localIdx < s) part[ctx.localIdx] += part[ctx.localIdx + s];
 *         ctx.localBarrier();
 *     }
 *     if (ctx.localIdx == 0) sums.set(ctx.groupIdx, part[0]);
 * }
 * }</pre>
 *
 * Sub-group operations ({@link #shuffleDown}, {@link #subgroupReduceAdd}, ...) act on the
 * {@link #subgroupSize()} consecutive work-items (by linear local id) that a device runs in
 * lock-step: a CUDA warp, an OpenCL sub-group, or an emulated group of up to 32 on devices
 * without them. Every work-item of the work-group must reach each such call.
 */
public class KernelContext {
    public int globalIdx, globalIdy, globalIdz;
    public int localIdx, localIdy, localIdz;
    public int groupIdx, groupIdy, groupIdz;
    public int globalGroupSizeX = 1, globalGroupSizeY = 1, globalGroupSizeZ = 1;
    public int localGroupSizeX = 1, localGroupSizeY = 1, localGroupSizeZ = 1;

    /** A placeholder to pass as a task argument; the runtime gives each work-item its own. */
    public KernelContext() {
    }

    // ---- synchronisation and local memory (the JVM backend overrides these) ----

    /** Waits until every work-item of the work-group has arrived; orders local and global memory. */
    public void localBarrier() {
        throw new UnsupportedOperationException("localBarrier needs a running work-group");
    }

    /**
     * Orders this work-item's global-memory writes before its later ones, as seen by every work-item of the launch
     * (CUDA {@code __threadfence()}, OpenCL {@code mem_fence(CLK_GLOBAL_MEM_FENCE)}). It does not wait for anyone:
     * use it between writing a result and publishing it with an atomic, so that the work-group that sees the last
     * count can read every group's result (the "last work-group finishes" pattern).
     */
    public void globalFence() {
        VarHandle.fullFence();
    }

    /** Like {@link #localBarrier()}, within the work-group; kept for TornadoVM compatibility. */
    public void globalBarrier() {
        localBarrier();
    }

    /** Local (work-group shared) memory of a constant number of elements; every work-item of a group gets the same array. */
    public int[] allocateIntLocalArray(int size) {
        return (int[]) localArray(int.class, size);
    }

    public long[] allocateLongLocalArray(int size) {
        return (long[]) localArray(long.class, size);
    }

    public float[] allocateFloatLocalArray(int size) {
        return (float[]) localArray(float.class, size);
    }

    public double[] allocateDoubleLocalArray(int size) {
        return (double[]) localArray(double.class, size);
    }

    /** The JVM backend returns the group's shared array for this allocation site. */
    protected Object localArray(Class<?> elementType, int size) {
        throw new UnsupportedOperationException("local memory needs a running work-group");
    }

    // ---- asynchronous copies from global into local memory ----

    /**
     * Starts copying {@code src[srcOffset .. srcOffset + count)} into {@code local[localOffset .. localOffset + count)},
     * as one operation of the whole work-group. Rules, the same on every device:
     * <ul>
     *   <li>every work-item of the work-group makes the call, with the same arguments, in control flow they all
     *       follow (like {@link #localBarrier()}); the group shares the work of the copy;</li>
     *   <li>the data may arrive at any time until {@link #asyncWait()}: after {@code asyncWait()} followed by
     *       {@code localBarrier()} the whole run is visible to every work-item of the group, and not before;</li>
     *   <li>until then no work-item reads or writes the destination run, nor writes the source run;</li>
     *   <li>several copies may be in flight at once; one {@code asyncWait()} waits for all of them.</li>
     * </ul>
     * {@code local} is an array from {@code ctx.allocate…LocalArray}, in a kernel (not a device function). CUDA
     * devices of compute capability 8.0 and later copy with {@code cp.async} (16-byte transfers where the source
     * and destination align alike), older ones, OpenCL devices and the JVM with a plain copy, each work-item its
     * share.
     *
     * <pre>{@code
     * double[] tile = ctx.allocateDoubleLocalArray(256);
     * ctx.asyncCopy(tile, 0, a, (long) ctx.groupIdx * 256, 256);
     * ctx.asyncWait();
     * ctx.localBarrier();
     * double v = tile[(ctx.localIdx + 1) % 256];   // any element, copied by any work-item
     * }</pre>
     */
    public void asyncCopy(double[] local, int localOffset, DoubleArray src, long srcOffset, int count) {
        for (int i = localLinearId(), step = localGroupSize(); i < count; i += step) local[localOffset + i] = src.get(srcOffset + i);
    }

    /** {@link #asyncCopy(double[], int, DoubleArray, long, int)} for float. */
    public void asyncCopy(float[] local, int localOffset, FloatArray src, long srcOffset, int count) {
        for (int i = localLinearId(), step = localGroupSize(); i < count; i += step) local[localOffset + i] = src.get(srcOffset + i);
    }

    /** {@link #asyncCopy(double[], int, DoubleArray, long, int)} for int. */
    public void asyncCopy(int[] local, int localOffset, IntArray src, long srcOffset, int count) {
        for (int i = localLinearId(), step = localGroupSize(); i < count; i += step) local[localOffset + i] = src.get(srcOffset + i);
    }

    /** {@link #asyncCopy(double[], int, DoubleArray, long, int)} for long. */
    public void asyncCopy(long[] local, int localOffset, LongArray src, long srcOffset, int count) {
        for (int i = localLinearId(), step = localGroupSize(); i < count; i += step) local[localOffset + i] = src.get(srcOffset + i);
    }

    /**
     * Waits until every copy this work-group started with {@code asyncCopy} since its last {@code asyncWait()} has
     * landed. Every work-item of the group makes the call, in control flow they all follow; follow it with
     * {@link #localBarrier()} before reading the copied data (the barrier makes each work-item's share of the copy
     * visible to the others). With no copy in flight it returns at once. The JVM copies in {@code asyncCopy} itself,
     * so here it does nothing.
     */
    public void asyncWait() {
    }

    /**
     * Starts copying a {@code rows x cols} tile from global into local memory, as one operation of the whole
     * work-group, in a group of copies that {@link #asyncCommit()} closes and {@link #asyncWaitGroups(int)} or
     * {@link #asyncWait()} awaits (so that several stages of a pipeline can be in flight). Row {@code r}, column
     * {@code c} of the tile lands at {@code local[localOffset + r * localStride + c]}; it is
     * {@code src[srcOffset + r * srcStride + c]} when {@code r < srcRows} and {@code c < srcCols}, else zero (tiles
     * at the edge of a matrix read only what exists and come out zero-padded). Only those {@code rows x cols} local
     * elements are written. Rules as {@link #asyncCopy(double[], int, DoubleArray, long, int)}: every work-item makes
     * the call with the same arguments in control flow they all follow, and reads the tile only after
     * {@code asyncWaitGroups}/{@code asyncWait} and then {@link #localBarrier()}.
     *
     * <p>The group splits the tile into 16-byte chunks of a row (2 doubles, 4 floats), chunk {@code i} (row-major)
     * going to work-item {@code i mod groupSize}. CUDA devices of compute capability 8.0 and later copy a chunk with
     * one {@code cp.async.cg} of 16 bytes (zero-filling what lies outside the source) when {@code localOffset},
     * {@code localStride}, {@code srcOffset}, {@code srcStride} and the arrays are 16-byte aligned, else element by
     * element; OpenCL devices, older CUDA devices and the JVM copy at once, each work-item its share.
     *
     * <pre>{@code
     * double[] tile = ctx.allocateDoubleLocalArray(2 * 16 * 132);        // two stages of 16 x 128, stride 132
     * ctx.asyncCopyTile(tile, 0, 132, a, p0 * lda + row0, lda, 16, 128, k - p0, m - row0);
     * ctx.asyncCommit();
     * ...
     * ctx.asyncWaitGroups(1);   // all but the newest group have landed
     * ctx.localBarrier();
     * }</pre>
     */
    public void asyncCopyTile(double[] local, int localOffset, int localStride, DoubleArray src, long srcOffset, long srcStride,
                              int rows, int cols, int srcRows, int srcCols) {
        for (int i = localLinearId(), n = rows * cols, step = localGroupSize(); i < n; i += step) {
            int r = i / cols, c = i - r * cols;
            local[localOffset + r * localStride + c] = r < srcRows && c < srcCols ? src.get(srcOffset + r * srcStride + c) : 0;
        }
    }

    /**
     * Starts copying one 16-byte chunk (two doubles) from global into local memory, as this work-item's own copy (not
     * the group's): {@code local[localOffset + i] = src[srcOffset + i]} for {@code i < count}, zero for
     * {@code count <= i < 2} ({@code count} from 0 to 2; with 0 nothing is read). It joins the group of copies that
     * {@link #asyncCommit()} closes, like {@link #asyncCopyTile}; read the chunk only after
     * {@code asyncWaitGroups}/{@code asyncWait} and then {@link #localBarrier()}. For kernels that lay out a tile's
     * chunks over the work-items once and step through panels by constant strides, without the per-chunk row and
     * column arithmetic of {@code asyncCopyTile}.
     *
     * <p>{@code localOffset} and {@code srcOffset} must be even and the arrays 16-byte aligned (device buffers and
     * local arrays are): CUDA devices of compute capability 8.0 and later copy with one {@code cp.async.cg} of 16
     * bytes, which faults on a misaligned address. OpenCL devices, older CUDA devices and the JVM copy at once.
     *
     * <pre>{@code
     * // 16 x 128 tile, 256 work-items: 4 chunks each, rows r0, r0 + 4, ...; columns 2 (lid % 64), 2 (lid % 64) + 1
     * for (@Unroll int j = 0; j < 4; j++)
     *     ctx.asyncCopyChunk(tile, (r0 + 4 * j) * 132 + c, a, base + c + (long) (r0 + 4 * j) * lda, (r0 + 4 * j) < rows ? cnt : 0);
     * ctx.asyncCommit();
     * }</pre>
     */
    public void asyncCopyChunk(double[] local, int localOffset, DoubleArray src, long srcOffset, int count) {
        local[localOffset] = count > 0 ? src.get(srcOffset) : 0;
        local[localOffset + 1] = count > 1 ? src.get(srcOffset + 1) : 0;
    }

    /** {@link #asyncCopyTile(double[], int, int, DoubleArray, long, long, int, int, int, int)} for float. */
    public void asyncCopyTile(float[] local, int localOffset, int localStride, FloatArray src, long srcOffset, long srcStride,
                              int rows, int cols, int srcRows, int srcCols) {
        for (int i = localLinearId(), n = rows * cols, step = localGroupSize(); i < n; i += step) {
            int r = i / cols, c = i - r * cols;
            local[localOffset + r * localStride + c] = r < srcRows && c < srcCols ? src.get(srcOffset + r * srcStride + c) : 0;
        }
    }

    /** {@link #asyncCopyTile(double[], int, int, DoubleArray, long, long, int, int, int, int)} for int. */
    public void asyncCopyTile(int[] local, int localOffset, int localStride, IntArray src, long srcOffset, long srcStride,
                              int rows, int cols, int srcRows, int srcCols) {
        for (int i = localLinearId(), n = rows * cols, step = localGroupSize(); i < n; i += step) {
            int r = i / cols, c = i - r * cols;
            local[localOffset + r * localStride + c] = r < srcRows && c < srcCols ? src.get(srcOffset + r * srcStride + c) : 0;
        }
    }

    /** {@link #asyncCopyTile(double[], int, int, DoubleArray, long, long, int, int, int, int)} for long. */
    public void asyncCopyTile(long[] local, int localOffset, int localStride, LongArray src, long srcOffset, long srcStride,
                              int rows, int cols, int srcRows, int srcCols) {
        for (int i = localLinearId(), n = rows * cols, step = localGroupSize(); i < n; i += step) {
            int r = i / cols, c = i - r * cols;
            local[localOffset + r * localStride + c] = r < srcRows && c < srcCols ? src.get(srcOffset + r * srcStride + c) : 0;
        }
    }

    /**
     * Closes the group of {@link #asyncCopyTile} copies this work-item started since its last commit (an empty group
     * when there were none: pipelines commit once per stage, copy or not, so that group counts stay uniform). Every
     * work-item makes the call, in control flow they all follow. The JVM and OpenCL copy at once, so here it does
     * nothing.
     */
    public void asyncCommit() {
    }

    /**
     * Waits until at most {@code pending} of the committed copy groups are still in flight (the newest ones): with a
     * pipeline of S stages, {@code asyncWaitGroups(S - 2)} after committing stage t + S - 2 waits for stage t.
     * {@code pending} is a compile-time constant. Follow it with {@link #localBarrier()} before reading, as for
     * {@link #asyncWait()} (which waits for every group, committed or not).
     */
    public void asyncWaitGroups(int pending) {
    }

    private int localGroupSize() {
        return localGroupSizeX * localGroupSizeY * localGroupSizeZ;
    }

    // ---- sub-groups (warps) ----

    /** Work-items per sub-group (32 on NVIDIA GPUs). */
    public int subgroupSize() {
        return Math.min(32, localGroupSizeX * localGroupSizeY * localGroupSizeZ);
    }

    /** This work-item's lane within its sub-group. */
    public int subgroupLocalId() {
        return localLinearId() % subgroupSize();
    }

    /** Linear id within the work-group: x + y * sizeX + z * sizeX * sizeY. */
    public int localLinearId() {
        return localIdx + localGroupSizeX * (localIdy + localGroupSizeY * localIdz);
    }

    /** The JVM backend publishes {@code bits} from this work-item and returns the bits that lane {@code srcLane} of the same sub-group published. */
    protected long exchange(long bits, int srcLane) {
        throw new UnsupportedOperationException("sub-group operations need a running work-group");
    }

    private long shuffleBitsDown(long bits, int delta) {
        int lane = subgroupLocalId();
        int src = lane + delta;
        return exchange(bits, src < subgroupSize() ? src : lane);
    }

    /** The value held by lane {@code lane + delta}, or this lane's own value past the end. */
    public int shuffleDown(int v, int delta) {
        return (int) shuffleBitsDown(v, delta);
    }

    public long shuffleDown(long v, int delta) {
        return shuffleBitsDown(v, delta);
    }

    public float shuffleDown(float v, int delta) {
        return Float.intBitsToFloat((int) shuffleBitsDown(Float.floatToRawIntBits(v), delta));
    }

    public double shuffleDown(double v, int delta) {
        return Double.longBitsToDouble(shuffleBitsDown(Double.doubleToRawLongBits(v), delta));
    }

    /** The value held by lane {@code srcLane} of this sub-group (a broadcast when every lane asks for the same one). */
    public int shuffle(int v, int srcLane) {
        return (int) exchange(v, srcLane);
    }

    public long shuffle(long v, int srcLane) {
        return exchange(v, srcLane);
    }

    public float shuffle(float v, int srcLane) {
        return Float.intBitsToFloat((int) exchange(Float.floatToRawIntBits(v), srcLane));
    }

    public double shuffle(double v, int srcLane) {
        return Double.longBitsToDouble(exchange(Double.doubleToRawLongBits(v), srcLane));
    }

    /** The value held by lane {@code lane ^ mask} ({@code mask} below the sub-group size). */
    public int shuffleXor(int v, int mask) {
        return (int) exchange(v, subgroupLocalId() ^ mask);
    }

    public long shuffleXor(long v, int mask) {
        return exchange(v, subgroupLocalId() ^ mask);
    }

    public float shuffleXor(float v, int mask) {
        return Float.intBitsToFloat((int) exchange(Float.floatToRawIntBits(v), subgroupLocalId() ^ mask));
    }

    public double shuffleXor(double v, int mask) {
        return Double.longBitsToDouble(exchange(Double.doubleToRawLongBits(v), subgroupLocalId() ^ mask));
    }

    /**
     * One sub-group-wide fp64 multiply-accumulate on 8 x 8 x 4 tiles, {@code D = A B + C}, in the fragment layout of
     * PTX's {@code mma.m8n8k4.f64} (on CUDA devices of compute capability 8.0 and later, one FP64 tensor-core
     * instruction; elsewhere twelve shuffles and eight fused multiply-adds per lane). Lane {@code l} (of 32) holds
     * {@code A(l / 4, l % 4)} in {@code a}, {@code B(l % 4, l / 4)} in {@code b}, and {@code C(l / 4, 2 (l % 4) + i)}
     * in {@code acc[at + i]}, {@code i = 0, 1}, which this call replaces by D. {@code acc} is a private array of
     * the kernel; with {@code at} a constant (an {@link Unroll}ed index) it stays in registers. Every lane of a
     * sub-group of 32 must make the call: work-groups of a multiple of 32 work-items.
     *
     * <pre>{@code
     * double[] acc = new double[2];                       // this lane's two entries of an 8 x 8 tile of C
     * for (int k0 = 0; k0 < k; k0 += 4) {
     *     int lane = ctx.subgroupLocalId();
     *     double a = as[(lane >> 2) * lda + k0 + (lane & 3)];   // A(row, k0 + lane % 4)
     *     double b = bs[(k0 + (lane & 3)) * ldb + (lane >> 2)]; // B(k0 + lane % 4, col)
     *     ctx.mma8x8x4(a, b, acc, 0);
     * }
     * }</pre>
     */
    public void mma8x8x4(double a, double b, double[] acc, int at) {
        int lane = subgroupLocalId();
        int row = lane >> 2, col = (lane & 3) * 2;
        double d0 = acc[at], d1 = acc[at + 1];
        for (int k = 0; k < 4; k++) {
            double ak = shuffle(a, row * 4 + k);
            double b0 = shuffle(b, col * 4 + k);
            double b1 = shuffle(b, (col + 1) * 4 + k);
            d0 = Math.fma(ak, b0, d0);
            d1 = Math.fma(ak, b1, d1);
        }
        acc[at] = d0;
        acc[at + 1] = d1;
    }

    /**
     * One sub-group-wide fp64 multiply-accumulate on 16 x 8 x 4 tiles, {@code D = A B + C}, in the fragment layout
     * of PTX's {@code mma.m16n8k4.f64}: the same as {@code mma8x8x4(a0, b, acc, at); mma8x8x4(a1, b, acc, at + 2)},
     * for the upper and lower 8 rows of A and C. Lane {@code l} holds {@code A(l / 4, l % 4)} in {@code a0},
     * {@code A(l / 4 + 8, l % 4)} in {@code a1}, {@code B(l % 4, l / 4)} in {@code b}, and {@code C(l / 4 + 8 h,
     * 2 (l % 4) + i)} in {@code acc[at + 2 h + i]}. On CUDA devices of compute capability 9.0 it is one FP64
     * tensor-core instruction, which runs there at twice the rate of two {@code mma8x8x4} (measured on an H100:
     * 64.5 against 33 TFLOP/s); elsewhere it is those two calls. Same rules as {@link #mma8x8x4}.
     *
     * <pre>{@code
     * double[] acc = new double[4];                       // this lane's four entries of a 16 x 8 tile of C
     * int lane = ctx.subgroupLocalId(), r = lane >> 2, q = lane & 3;
     * for (int k0 = 0; k0 < k; k0 += 4) {
     *     ctx.mma16x8x4(as[r * lda + k0 + q], as[(r + 8) * lda + k0 + q], bs[(k0 + q) * ldb + r], acc, 0);
     * }
     * }</pre>
     */
    public void mma16x8x4(double a0, double a1, double b, double[] acc, int at) {
        mma8x8x4(a0, b, acc, at);
        mma8x8x4(a1, b, acc, at + 2);
    }

    /** Sum over the sub-group, returned to every lane. */
    public int subgroupReduceAdd(int v) {
        for (int m = subgroupSize() / 2; m > 0; m >>= 1) v += shuffleXor(v, m);
        return v;
    }

    public long subgroupReduceAdd(long v) {
        for (int m = subgroupSize() / 2; m > 0; m >>= 1) v += shuffleXor(v, m);
        return v;
    }

    public float subgroupReduceAdd(float v) {
        for (int m = subgroupSize() / 2; m > 0; m >>= 1) v += shuffleXor(v, m);
        return v;
    }

    public double subgroupReduceAdd(double v) {
        for (int m = subgroupSize() / 2; m > 0; m >>= 1) v += shuffleXor(v, m);
        return v;
    }

    // ---- atomics on global arrays: each returns the old value ----

    private static final VarHandle G_INT = ValueLayout.JAVA_INT.arrayElementVarHandle();
    private static final VarHandle G_LONG = ValueLayout.JAVA_LONG.arrayElementVarHandle();
    private static final VarHandle L_INT = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle L_LONG = MethodHandles.arrayElementVarHandle(long[].class);

    public int atomicAdd(IntArray a, int index, int v) {
        a.checkIndex(index);
        return (int) G_INT.getAndAdd(a.segment, 0L, (long) index, v);
    }

    public long atomicAdd(LongArray a, int index, long v) {
        a.checkIndex(index);
        return (long) G_LONG.getAndAdd(a.segment, 0L, (long) index, v);
    }

    public float atomicAdd(FloatArray a, int index, float v) {
        a.checkIndex(index);
        while (true) {
            int old = (int) G_INT.getVolatile(a.segment, 0L, (long) index);
            int upd = Float.floatToRawIntBits(Float.intBitsToFloat(old) + v);
            if ((boolean) G_INT.compareAndSet(a.segment, 0L, (long) index, old, upd)) return Float.intBitsToFloat(old);
        }
    }

    public double atomicAdd(DoubleArray a, int index, double v) {
        a.checkIndex(index);
        while (true) {
            long old = (long) G_LONG.getVolatile(a.segment, 0L, (long) index);
            long upd = Double.doubleToRawLongBits(Double.longBitsToDouble(old) + v);
            if ((boolean) G_LONG.compareAndSet(a.segment, 0L, (long) index, old, upd)) return Double.longBitsToDouble(old);
        }
    }

    public int atomicMax(IntArray a, int index, int v) {
        a.checkIndex(index);
        while (true) {
            int old = (int) G_INT.getVolatile(a.segment, 0L, (long) index);
            if (old >= v || (boolean) G_INT.compareAndSet(a.segment, 0L, (long) index, old, v)) return old;
        }
    }

    public int atomicMin(IntArray a, int index, int v) {
        a.checkIndex(index);
        while (true) {
            int old = (int) G_INT.getVolatile(a.segment, 0L, (long) index);
            if (old <= v || (boolean) G_INT.compareAndSet(a.segment, 0L, (long) index, old, v)) return old;
        }
    }

    public long atomicMax(LongArray a, int index, long v) {
        a.checkIndex(index);
        while (true) {
            long old = (long) G_LONG.getVolatile(a.segment, 0L, (long) index);
            if (old >= v || (boolean) G_LONG.compareAndSet(a.segment, 0L, (long) index, old, v)) return old;
        }
    }

    public long atomicMin(LongArray a, int index, long v) {
        a.checkIndex(index);
        while (true) {
            long old = (long) G_LONG.getVolatile(a.segment, 0L, (long) index);
            if (old <= v || (boolean) G_LONG.compareAndSet(a.segment, 0L, (long) index, old, v)) return old;
        }
    }

    /** Stores {@code update} if the element equals {@code expected}; returns the element's old value. */
    public int atomicCompareAndSwap(IntArray a, int index, int expected, int update) {
        a.checkIndex(index);
        return (int) G_INT.compareAndExchange(a.segment, 0L, (long) index, expected, update);
    }

    public long atomicCompareAndSwap(LongArray a, int index, long expected, long update) {
        a.checkIndex(index);
        return (long) G_LONG.compareAndExchange(a.segment, 0L, (long) index, expected, update);
    }

    // ---- coherent loads and stores of global arrays ----

    private static final VarHandle G_FLOAT = ValueLayout.JAVA_FLOAT.arrayElementVarHandle();
    private static final VarHandle G_DOUBLE = ValueLayout.JAVA_DOUBLE.arrayElementVarHandle();

    /**
     * Reads the element from memory every time it is called, at device scope: a value another work-group of the same
     * launch stored (with {@link #volatileStore}, or before a {@link #globalFence()} and a flag) is seen, never a copy
     * held in a non-coherent cache or a register (CUDA: a {@code volatile} load, served by L2 rather than the SM's L1;
     * OpenCL: a {@code volatile __global} load; JVM: {@code VarHandle.getVolatile}). For spinning on a flag that other
     * work-groups set and for reading the values it guards. Waiting on another work-group is safe only where that
     * work-group is known to be running or finished (for example, it took an earlier ticket from an atomic counter):
     * launches do not promise that all work-groups run at once, and the JVM runs a group's work-items one after another
     * between barriers, so a work-item must not wait on a later one of its own group.
     */
    public int volatileLoad(IntArray a, int index) {
        a.checkIndex(index);
        return (int) G_INT.getVolatile(a.segment, 0L, (long) index);
    }

    public long volatileLoad(LongArray a, int index) {
        a.checkIndex(index);
        return (long) G_LONG.getVolatile(a.segment, 0L, (long) index);
    }

    public float volatileLoad(FloatArray a, int index) {
        a.checkIndex(index);
        return (float) G_FLOAT.getVolatile(a.segment, 0L, (long) index);
    }

    public double volatileLoad(DoubleArray a, int index) {
        a.checkIndex(index);
        return (double) G_DOUBLE.getVolatile(a.segment, 0L, (long) index);
    }

    /**
     * Stores the element to memory at once, visible at device scope to {@link #volatileLoad}s of other work-groups
     * (CUDA and OpenCL: a {@code volatile} store; JVM: {@code VarHandle.setVolatile}). Stores of one work-item may
     * become visible to others out of order on GPUs: to publish a value and then a flag, store the value, call
     * {@link #globalFence()}, then store the flag.
     */
    public void volatileStore(IntArray a, int index, int v) {
        a.checkIndex(index);
        G_INT.setVolatile(a.segment, 0L, (long) index, v);
    }

    public void volatileStore(LongArray a, int index, long v) {
        a.checkIndex(index);
        G_LONG.setVolatile(a.segment, 0L, (long) index, v);
    }

    public void volatileStore(FloatArray a, int index, float v) {
        a.checkIndex(index);
        G_FLOAT.setVolatile(a.segment, 0L, (long) index, v);
    }

    public void volatileStore(DoubleArray a, int index, double v) {
        a.checkIndex(index);
        G_DOUBLE.setVolatile(a.segment, 0L, (long) index, v);
    }

    // ---- atomics on local arrays ----

    public int atomicAdd(int[] local, int index, int v) {
        return (int) L_INT.getAndAdd(local, index, v);
    }

    public long atomicAdd(long[] local, int index, long v) {
        return (long) L_LONG.getAndAdd(local, index, v);
    }

    public float atomicAdd(float[] local, int index, float v) {
        synchronized (local) {
            float old = local[index];
            local[index] = old + v;
            return old;
        }
    }

    public double atomicAdd(double[] local, int index, double v) {
        synchronized (local) {
            double old = local[index];
            local[index] = old + v;
            return old;
        }
    }
}
