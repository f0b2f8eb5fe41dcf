package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.Profile;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;

/**
 * One launch set of the tiled kernels of {@link KernelSumKernelsF64} on resident data: the tiles (target ranges and
 * their cluster), the per-cluster source ranges, the points and right-hand side go to the device once; {@link #run()}
 * executes the kernels and brings the result back. The kernel is picked by dimension and column count: the fp32
 * Gaussian in 3 dimensions ({@link GaussSumKernelsF32}), the specialised one-column kernels for 1, 2 and 3
 * dimensions, else the general one, once per block of {@link KernelSumKernelsF64#MAX_COLS} columns. The Gaussian in 3
 * dimensions, one column, runs with its exponent expanded ({@link GaussSumKernelsF32#gaussExpanded3},
 * {@link GaussSumKernelsF64#gaussExpanded3}) when the caller gives cluster centres and {@link Expansion#fits} holds.
 */
final class TiledReduction implements AutoCloseable {
    private final ExecutionPlan plan;
    private final KernelArray out;

    private TiledReduction(ExecutionPlan plan, KernelArray out) {
        this.plan = plan;
        this.out = out;
    }

    /**
     * What the expanded Gaussian kernels need: the centre of each target cluster ({@code dim} values a cluster, in the
     * coordinates of the point arrays), the largest distance of a target from its cluster's centre,
     * {@code N max |b|}, and whether the tiles are the dense product's ({@link #denseTiles} of width
     * {@link KernelSum#DENSE_WIDTH}, one range): then fp32 runs {@link GaussSumKernelsF32#gaussExpandedDense3}.
     */
    record Expansion(double[] centres, double targetReach, double weight, boolean dense) {
        /** Largest {@code scale^2 reach^2} (log2 units) in fp32: the inner exponent's rounding stays near 1e-6 relative. */
        static final double FP32_REACH = 64;
        /** Largest {@code scale^2 reach^2} in fp64: the rounding stays near 1e-14 relative. */
        static final double FP64_REACH = 256;

        /**
         * Whether the expanded form is accurate and safe for kernel {@code k} in precision {@code p}: the inner
         * exponent is at most {@code scale^2 targetReach^2}, which bounds its rounding and, with {@code weight}, the
         * partial sums (no overflow).
         */
        boolean fits(PairKernel k, Precision p) {
            double s2 = 0.5 * k.inverseSquaredLength() / Math.log(2);
            double inner = s2 * targetReach * targetReach;
            double logWeight = Math.log(Math.max(weight, Double.MIN_NORMAL)) / Math.log(2);
            if (p == Precision.FP32) return inner <= FP32_REACH && inner + logWeight <= 120;
            return inner <= FP64_REACH && inner + logWeight <= 1000;
        }
    }

    /** Tiles of width {@code width} over targets {@code [0, m)}, all in cluster 0: the dense product. */
    static IntArray denseTiles(int m, int width) {
        int count = (m + width - 1) / width;
        IntArray t = new IntArray(3L * count);
        for (int g = 0; g < count; g++) {
            t.set(3 * g, g * width);
            t.set(3 * g + 1, Math.min(m, g * width + width));
            t.set(3 * g + 2, 0);
        }
        return t;
    }

    /** Tiles of width at most {@code width} within each cluster {@code [start[q], start[q+1])}; empty clusters get none. */
    static IntArray clusterTiles(int[] start, int width) {
        int count = 0;
        for (int q = 0; q + 1 < start.length; q++) count += (start[q + 1] - start[q] + width - 1) / width;
        IntArray t = new IntArray(Math.max(3L, 3L * count));
        int g = 0;
        for (int q = 0; q + 1 < start.length; q++) {
            for (int p = start[q]; p < start[q + 1]; p += width, g++) {
                t.set(3 * g, p);
                t.set(3 * g + 1, Math.min(start[q + 1], p + width));
                t.set(3 * g + 2, q);
            }
        }
        return t;
    }

    /**
     * {@code a = K b} over the given tiles and ranges ({@code a} is {@code m x cols}, row by row; every target is in
     * exactly one tile, so all of {@code a} is written).
     */
    static TiledReduction sums(Device device, Precision p, PairKernel k, KernelArray x, KernelArray y, KernelArray b,
            KernelArray a, int dim, int cols, IntArray tiles, IntArray rangeOffsets, IntArray ranges, int width, Expansion expansion) {
        return sums(device, p, k, x, y, b, a, dim, cols, tiles, rangeOffsets, ranges, width, expansion, null);
    }

    /**
     * {@link #sums} with the expanded Gaussian's centres already scaled and on the device ({@code scaledCentres}, in
     * the precision; null: from {@code expansion}). Device-only arrays ({@code onDevice}, written by earlier kernels)
     * are used where they are; the others are copied to the device.
     */
    static TiledReduction sums(Device device, Precision p, PairKernel k, KernelArray x, KernelArray y, KernelArray b,
            KernelArray a, int dim, int cols, IntArray tiles, IntArray rangeOffsets, IntArray ranges, int width, Expansion expansion,
            KernelArray scaledCentres) {
        int groups = Math.toIntExact(tiles.getSizeLong() / 3);
        TaskGraph g = new TaskGraph("ksum");
        for (KernelArray in : new KernelArray[] {x, y, b, tiles, rangeOffsets, ranges}) {
            if (!in.isDeviceOnly()) g.transferToDevice(DataTransferMode.FIRST_EXECUTION, in);
        }
        WorkerGrid grid = WorkerGrid.of((long) groups * width).withLocal(width);
        int kind = k.code();
        double c = k.inverseSquaredLength();
        boolean gauss3 = cols == 1 && dim == 3 && kind == KernelSumKernelsF64.GAUSS;
        if (gauss3 && expansion != null && expansion.fits(k, p)) {
            double scale = Math.sqrt(0.5 * c / Math.log(2));
            boolean wide = p == Precision.FP32 && expansion.dense();
            int perItem = wide ? GaussSumKernelsF32.DENSE_TARGETS : p == Precision.FP32 ? GaussSumKernelsF32.TARGETS : GaussSumKernelsF64.TARGETS;
            int local = (width + perItem - 1) / perItem;
            WorkerGrid eg = WorkerGrid.of((long) groups * local).withLocal(local);
            KernelArray centres = scaledCentres;
            if (centres == null) {
                double[] cs = expansion.centres().clone();
                for (int q = 0; q < cs.length; q++) cs[q] *= scale;
                centres = p.fromDoubles(cs);
                g.transferToDevice(DataTransferMode.FIRST_EXECUTION, centres);
            }
            if (expansion.dense() && dim == 3 && DenseSplit.ENABLED) {
                DenseSplit.add(g, p, x, y, b, a, centres, (float) scale, scale, DenseSplit.FMA_SHARE,
                        device.info().computeUnits());
            } else if (wide) {
                g.task("sum", eg, GaussSumKernelsF32::gaussExpandedDense3, new KernelContext(), (FloatArray) x, (FloatArray) y, (FloatArray) b,
                        (FloatArray) a, tiles, rangeOffsets, ranges, (FloatArray) centres, cols, 0, (float) scale);
            } else if (p == Precision.FP32) {
                g.task("sum", eg, GaussSumKernelsF32::gaussExpanded3, new KernelContext(), (FloatArray) x, (FloatArray) y, (FloatArray) b,
                        (FloatArray) a, tiles, rangeOffsets, ranges, (FloatArray) centres, cols, 0, (float) scale);
            } else {
                g.task("sum", eg, GaussSumKernelsF64::gaussExpanded3, new KernelContext(), (DoubleArray) x, (DoubleArray) y, (DoubleArray) b,
                        (DoubleArray) a, tiles, rangeOffsets, ranges, (DoubleArray) centres, cols, 0, scale);
            }
        } else if (gauss3 && p == Precision.FP32) {
            // GaussSumKernelsF32.TARGETS targets per work-item
            int local = (width + GaussSumKernelsF32.TARGETS - 1) / GaussSumKernelsF32.TARGETS;
            g.task("sum", WorkerGrid.of((long) groups * local).withLocal(local), GaussSumKernelsF32::gauss3, new KernelContext(),
                    (FloatArray) x, (FloatArray) y, (FloatArray) b, (FloatArray) a, tiles, rangeOffsets, ranges, cols, 0,
                    (float) Math.sqrt(0.5 * c / Math.log(2)));
        } else if (cols == 1 && dim <= 3) {
            var kernel = switch (dim) {
                case 1 -> KernelSumKernels.sum1.at(p);
                case 2 -> KernelSumKernels.sum2.at(p);
                default -> KernelSumKernels.sum3.at(p);
            };
            g.task("sum", grid, kernel, new KernelContext(), x, y, b, a, tiles, rangeOffsets, ranges, cols, 0, kind, c);
        } else {
            for (int col0 = 0; col0 < cols; col0 += KernelSumKernelsF64.MAX_COLS) {
                int n = Math.min(KernelSumKernelsF64.MAX_COLS, cols - col0);
                g.task("sum" + col0, grid, KernelSumKernels.sumGeneral.at(p), new KernelContext(), x, y, b, a, tiles,
                        rangeOffsets, ranges, dim, cols, col0, n, kind, c);
            }
        }
        if (!a.isDeviceOnly()) g.transferToHost(DataTransferMode.EVERY_EXECUTION, a); // a device-only result stays for later kernels
        return new TiledReduction(new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true), a);
    }

    /** The gradient of {@code sum_i w_i . (K b)_i} in the targets ({@code grad} is {@code m x dim}). */
    static TiledReduction gradient(Device device, Precision p, PairKernel k, KernelArray x, KernelArray y, KernelArray b,
            KernelArray w, KernelArray grad, int dim, int cols, IntArray tiles, IntArray rangeOffsets, IntArray ranges, int width) {
        int groups = Math.toIntExact(tiles.getSizeLong() / 3);
        TaskGraph g = new TaskGraph("ksum-gradient")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, x, y, b, w, tiles, rangeOffsets, ranges)
                .task("gradient", WorkerGrid.of((long) groups * width).withLocal(width), KernelSumKernels.gradient.at(p),
                        new KernelContext(), x, y, b, w, grad, tiles, rangeOffsets, ranges, dim, cols, k.code(), k.inverseSquaredLength())
                .transferToHost(DataTransferMode.EVERY_EXECUTION, grad);
        return new TiledReduction(new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true), grad);
    }

    /**
     * The dense Gaussian in 3 dimensions with its sources split into segments ({@link GaussSumKernelsF32#gaussExpandedDenseSplit3},
     * {@link GaussSumKernelsF64#gaussExpandedSplit3}, then their {@code combineSplits}): enough work-groups for several
     * waves on a large device. The system property {@code squall.ksum.dense=tiled} runs the one-work-group-per-tile
     * kernels instead, {@code squall.ksum.splits=S} fixes the number of segments, {@code squall.ksum.local} the work-group width (for measurements).
     */
    static final class DenseSplit {
        static final boolean ENABLED = !"tiled".equals(System.getProperty("squall.ksum.dense"));
        /** Work-items of a work-group, fp32 and fp64 ({@code squall.ksum.local} overrides; at most 128, the kernels' launch bound). */
        static final int LOCAL_F32 = local(32), LOCAL_F64 = local(128);
        /** Work-items aimed at over all work-groups: about eight waves on a 132-multiprocessor device. */
        static final int ITEMS = 1 << 20;
        /**
         * How many of the fp32 exponentials go to the multiply-add pipe ({@link GaussSumKernelsF32#exp2Fma}):
         * {@code squall.ksum.fmaShare=1/8} (the default) or {@code 3/16} (for measurements: 301.5 against 299.6 ms on
         * the H100 at 10^6, bench/results/h100/hmatrix/2026-11-25-ksumf-midpoint).
         */
        static final int FMA_SHARE = fmaShare(System.getProperty("squall.ksum.fmaShare", "1/8"));
        /** Fewest sources a segment. */
        static final int MIN_CHUNK = 4096;

        private DenseSplit() {
        }

        /** {@code squall.ksum.local}, or {@code fallback}: 32 to 128 (the fp32 kernel stages 256 sources, eight a work-item). */
        private static int local(int fallback) {
            int w = Integer.getInteger("squall.ksum.local", fallback);
            if (w < 32 || w > 128) throw new IllegalArgumentException("squall.ksum.local=" + w + ": must be 32 to 128");
            return w;
        }

        private static int fmaShare(String v) {
            return switch (v) {
                case "1/8" -> GaussSumKernelsF32.FMA_SHARE_ONE_OF_EIGHT;
                case "3/16" -> GaussSumKernelsF32.FMA_SHARE_THREE_OF_SIXTEEN;
                default -> throw new IllegalArgumentException("squall.ksum.fmaShare=" + v + ": must be 1/8 or 3/16");
            };
        }

        /** Segments of the {@code n} sources for {@code tiles} tiles of targets: {@code {splits, chunk}}. */
        static int[] segments(long m, int n, int tiles, int groups) {
            return segmentsOf(m, n, Integer.getInteger("squall.ksum.splits", (groups + tiles - 1) / tiles));
        }

        /**
         * {@link #segments}, with the count raised (at most to twice) to the one whose work-groups leave the emptiest
         * last wave on a device that runs {@code resident} of them at once: the work-groups are of equal length, so a
         * last wave of a third of the device leaves two thirds of it idle at the end (fp32 at 10^6: 35 163 groups,
         * 8.3 waves of 4 224; 54 698 with 14 segments, 12.95 waves). {@code squall.ksum.splits} fixes the count.
         */
        static int[] segments(long m, int n, int tiles, int groups, long resident) {
            int[] best = segments(m, n, tiles, groups);
            if (resident <= 0 || Integer.getInteger("squall.ksum.splits") != null) return best;
            double least = idleTail((long) tiles * best[0], resident);
            int plain = best[0];
            for (int s = plain + 1; s <= 2 * plain; s++) {
                int[] sc = segmentsOf(m, n, s);
                double idle = idleTail((long) tiles * sc[0], resident);
                if (idle < least - 1e-9) {
                    best = sc;
                    least = idle;
                }
            }
            return best;
        }

        /** Fraction of the work-group slots left idle in the last wave: {@code groups} in waves of {@code resident}. */
        static double idleTail(long groups, long resident) {
            long slots = (groups + resident - 1) / resident * resident;
            return (double) (slots - groups) / slots;
        }

        /** {@code {splits, chunk}} for about {@code splits} segments: chunks of whole blocks of 256, at least {@link #MIN_CHUNK}. */
        private static int[] segmentsOf(long m, int n, int splits) {
            splits = (int) Math.max(1, Math.min(Math.min(splits, (n + MIN_CHUNK - 1) / MIN_CHUNK), Integer.MAX_VALUE / Math.max(1, m)));
            int chunk = (n + splits - 1) / splits;
            chunk = Math.max(KernelSumKernelsF64.PARTIAL, (chunk + KernelSumKernelsF64.PARTIAL - 1) / KernelSumKernelsF64.PARTIAL * KernelSumKernelsF64.PARTIAL);
            return new int[] {Math.max(1, (n + chunk - 1) / chunk), chunk};
        }

        /**
         * Adds the split kernel and the combination to {@code g}: {@code a = K b} for the whole clouds; {@code fmaShare}
         * picks the fp32 exponentials on the FMA pipe; {@code units} is
         * the device's multiprocessor count (0: unknown), for the number of segments.
         */
        static void add(TaskGraph g, Precision p, KernelArray x, KernelArray y, KernelArray b, KernelArray a, KernelArray centres,
                float scale32, double scale, int fmaShare, int units) {
            int m = Math.toIntExact(x.getSizeLong() / 3), n = Math.toIntExact(y.getSizeLong() / 3);
            boolean f32 = p == Precision.FP32;
            int local = f32 ? LOCAL_F32 : LOCAL_F64;
            int tileWidth = f32 ? local * GaussSumKernelsF32.DENSE_TARGETS : local * GaussSumKernelsF64.TARGETS;
            int tiles = Math.max(1, (m + tileWidth - 1) / tileWidth);
            // work-groups resident on a multiprocessor: 64 registers a work-item (the kernels' launch bound), at most 32 groups
            int[] sc = segments(m, n, tiles, ITEMS / local, (long) units * Math.min(32, 1024 / local));
            int splits = sc[0], chunk = sc[1];
            KernelArray partials = p.allocate((long) splits * Math.max(1, m));
            WorkerGrid grid = WorkerGrid.of((long) tiles * splits * local).withLocal(local);
            WorkerGrid each = WorkerGrid.of((long) (m + 255) / 256 * 256).withLocal(256);
            if (f32) {
                g.task("sum", grid, GaussSumKernelsF32::gaussExpandedDenseSplit3, new KernelContext(), (FloatArray) x, (FloatArray) y,
                        (FloatArray) b, (FloatArray) partials, (FloatArray) centres, m, n, chunk, splits, scale32, fmaShare);
                g.task("combine", each, GaussSumKernelsF32::combineSplits, new KernelContext(), (FloatArray) x, (FloatArray) partials,
                        (FloatArray) a, (FloatArray) centres, m, splits, scale32);
            } else {
                DoubleArray table = DoubleArray.fromArray(GaussSumKernelsF64.fineTable());
                g.transferToDevice(DataTransferMode.FIRST_EXECUTION, table);
                g.task("sum", grid, GaussSumKernelsF64::gaussExpandedSplit3, new KernelContext(), (DoubleArray) x, (DoubleArray) y,
                        (DoubleArray) b, (DoubleArray) partials, (DoubleArray) centres, table, m, n, chunk, splits, scale);
                g.task("combine", each, GaussSumKernelsF64::combineSplits, new KernelContext(), (DoubleArray) x, (DoubleArray) partials,
                        (DoubleArray) a, (DoubleArray) centres, m, splits, scale);
            }
        }
    }

    /**
     * The dense split Gaussian alone ({@link DenseSplit#add}) on clouds already moved near the origin, with the scaled
     * centre {@code centres} (three values in the precision): for tests of each variant.
     */
    static TiledReduction denseSplit(Device device, Precision p, KernelArray x, KernelArray y, KernelArray b, KernelArray a,
            KernelArray centres, double scale, int fmaShare) {
        TaskGraph g = new TaskGraph("ksum-split").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, y, b, centres);
        DenseSplit.add(g, p, x, y, b, a, centres, (float) scale, scale, fmaShare, device.info().computeUnits());
        g.transferToHost(DataTransferMode.EVERY_EXECUTION, a);
        return new TiledReduction(new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler(true), a);
    }

    /** Runs the kernels once; the result is then in the output array's host side. */
    Profile run() {
        return plan.execute().profile();
    }

    /** Runs {@code repeat} more times; the profile with the median kernel time ({@code first} when none). */
    Profile median(Profile first, int repeat) {
        if (repeat == 0) return first;
        Profile[] runs = new Profile[repeat];
        for (int k = 0; k < repeat; k++) runs[k] = run();
        java.util.Arrays.sort(runs, java.util.Comparator.comparingDouble(Profile::kernelMillis));
        return runs[repeat / 2];
    }

    /** The first {@code count} values of the output, widened to double. */
    double[] result(int count) {
        return Precision.read(out, count);
    }

    /** Releases the launches and keeps the arrays on the device (for callers that reuse them). */
    void release() {
        plan.close();
    }

    @Override
    public void close() {
        plan.freeDeviceMemory();
        plan.close();
    }
}
