package dev.squall.hmatrix.ksum;

import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.FloatArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.ReadOnly;

/**
 * The device side of {@link GridBlockSparseSum}: grid clustering of a point cloud by a counting sort over its cells,
 * cluster geometry, the range search over the cells near each target cluster, tiles and the un-permutation, all on
 * resident data. Cells are numbered row-major ({@code key = sum_d cell_d * stride_d}, {@code stride_0 = 1}), so the
 * cells of a box along dimension 0 are consecutive keys, and the non-empty cells of any key interval are consecutive
 * clusters: {@code clusterOfCell[k]} (the exclusive scan of the non-empty flags) is the first cluster whose key is at
 * least {@code k}. Every kernel is one-dimensional, one work-item per element, launched in groups of
 * {@link #WIDTH} with a guard; counts known only on the device are read from it (a cluster count is
 * {@code clusterOfCell[cellCount]}).
 */
public final class GridClusterKernels {
    /** Work-items per group for every kernel here. */
    public static final int WIDTH = 256;
    /** Values each work-item of {@link #scanBlocks} adds up. */
    public static final int SCAN_ITEMS = 4;
    /** Values one group of {@link #scanBlocks} scans. */
    public static final int SCAN_BLOCK = WIDTH * SCAN_ITEMS;

    private GridClusterKernels() {
    }

    /**
     * Row-major cell key of each point ({@code cells[d]} cells of side {@code 1 / invCells[d]} from {@code lo[d]},
     * points beyond the last cell of a coordinate counted in it) and the histogram {@code counts[key]++}.
     */
    @Kernel
    public static void cellKeys(KernelContext ctx, @ReadOnly DoubleArray x, @NoAlias IntArray keys, IntArray counts,
            @ReadOnly DoubleArray lo, @ReadOnly IntArray cells, @ReadOnly DoubleArray invCells, int n, int dim) {
        int i = ctx.globalIdx;
        if (i < n) {
            int key = 0;
            int stride = 1;
            for (int d = 0; d < dim; d++) {
                int top = cells.get(d) - 1;
                double u = Math.floor((x.get(i * dim + d) - lo.get(d)) * invCells.get(d));
                int cell = 0;
                if (u > 0.0) {
                    cell = u >= (double) top ? top : (int) u;
                }
                key += cell * stride;
                stride *= cells.get(d);
            }
            keys.set(i, key);
            ctx.atomicAdd(counts, key, 1);
        }
    }

    /** Each point's key is its cluster label ({@code labels[i]}), with the histogram {@code counts[key]++}. */
    @Kernel
    public static void labelKeys(KernelContext ctx, @ReadOnly IntArray labels, @NoAlias IntArray keys, IntArray counts, int n) {
        int i = ctx.globalIdx;
        if (i < n) {
            int key = labels.get(i);
            keys.set(i, key);
            ctx.atomicAdd(counts, key, 1);
        }
    }

    /** {@code a[k] = k} for {@code k < n}: the cluster of each label when clusters are numbered by label. */
    @Kernel
    public static void identity(KernelContext ctx, @NoAlias IntArray a, int n) {
        int k = ctx.globalIdx;
        if (k < n) {
            a.set(k, k);
        }
    }

    /** {@code pairs[0] += (start[t+1] - start[t]) kept[t]} for {@code t < clusters}: the kept pairs of every target cluster. */
    @Kernel
    public static void keptPairs(KernelContext ctx, @ReadOnly IntArray start, @ReadOnly LongArray kept, LongArray pairs, int clusters) {
        int t = ctx.globalIdx;
        if (t < clusters) {
            ctx.atomicAdd(pairs, 0, (long) (start.get(t + 1) - start.get(t)) * kept.get(t));
        }
    }

    /** {@code flags[k] = 1} when cell {@code k} holds points, for {@code k < cellCount}; {@code flags[cellCount] = 0}. */
    @Kernel
    public static void nonEmpty(KernelContext ctx, @ReadOnly IntArray counts, @NoAlias IntArray flags, int cellCount) {
        int k = ctx.globalIdx;
        if (k <= cellCount) {
            flags.set(k, k < cellCount && counts.get(k) > 0 ? 1 : 0);
        }
    }

    /** {@code a[0] = 0}: clears a reused 64-bit counter. */
    @Kernel
    public static void zeroLong(KernelContext ctx, @NoAlias LongArray a) {
        if (ctx.globalIdx == 0) {
            a.set(0, 0L);
        }
    }

    /** {@code a[0, n) = 0}: clears the counters and totals of a reused array. */
    @Kernel
    public static void zero(KernelContext ctx, @NoAlias IntArray a, int n) {
        int k = ctx.globalIdx;
        if (k < n) {
            a.set(k, 0);
        }
    }

    /**
     * First pass of an exclusive scan of {@code data[0, n)} in place: each group scans its {@link #SCAN_BLOCK} values
     * (a Hillis-Steele scan of its work-items' totals in local memory) and writes its total to {@code sums[group]};
     * {@link #addBlockOffsets} then adds the scanned {@code sums}.
     */
    @Kernel
    public static void scanBlocks(KernelContext ctx, IntArray data, @NoAlias IntArray sums, int n) {
        int[] part = ctx.allocateIntLocalArray(WIDTH);
        int lid = ctx.localIdx;
        int g = ctx.groupIdx;
        int base = g * SCAN_BLOCK + lid * SCAN_ITEMS;
        int total = 0;
        for (int k = 0; k < SCAN_ITEMS; k++) {
            if (base + k < n) {
                total += data.get(base + k);
            }
        }
        part[lid] = total;
        ctx.localBarrier();
        for (int off = 1; off < WIDTH; off *= 2) {
            int v = lid >= off ? part[lid - off] : 0;
            ctx.localBarrier();
            part[lid] += v;
            ctx.localBarrier();
        }
        int run = part[lid] - total;
        for (int k = 0; k < SCAN_ITEMS; k++) {
            if (base + k < n) {
                int v = data.get(base + k);
                data.set(base + k, run);
                run += v;
            }
        }
        if (lid == WIDTH - 1) {
            sums.set(g, part[lid]);
        }
    }

    /** Second pass of the scan: {@code data[i] += sums[i / SCAN_BLOCK]}. */
    @Kernel
    public static void addBlockOffsets(KernelContext ctx, IntArray data, @ReadOnly IntArray sums, int n) {
        int i = ctx.globalIdx;
        if (i < n) {
            data.set(i, data.get(i) + sums.get(i / SCAN_BLOCK));
        }
    }

    /**
     * Cluster boundaries: non-empty cell {@code k} is cluster {@code clusterOfCell[k]} and starts at
     * {@code cellStart[k]}; {@code start[clusters] = n}; {@code largest[at]} becomes the largest cluster's size.
     */
    @Kernel
    public static void clusterStarts(KernelContext ctx, @ReadOnly IntArray cellStart, @ReadOnly IntArray clusterOfCell,
            @NoAlias IntArray start, IntArray largest, int at, int cellCount, int n) {
        int k = ctx.globalIdx;
        if (k < cellCount) {
            int q = clusterOfCell.get(k);
            if (clusterOfCell.get(k + 1) > q) {
                start.set(q, cellStart.get(k));
                ctx.atomicMax(largest, at, cellStart.get(k + 1) - cellStart.get(k));
            }
            if (k == 0) {
                start.set(clusterOfCell.get(cellCount), n);
            }
        }
    }

    /** Counting-sort scatter: point {@code i} goes to a free slot of its cell, {@code order[slot] = i}. */
    @Kernel
    public static void scatter(KernelContext ctx, @ReadOnly IntArray keys, @ReadOnly IntArray cellStart, IntArray fill,
            @NoAlias IntArray order, int n) {
        int i = ctx.globalIdx;
        if (i < n) {
            int key = keys.get(i);
            order.set(cellStart.get(key) + ctx.atomicAdd(fill, key, 1), i);
        }
    }

    /**
     * Puts each cluster of at most {@code limit} points in increasing original index (an insertion sort per cluster),
     * so the sorted order, and with it every sum's order of addition, does not depend on the order of the scatter's
     * atomics; larger clusters keep the scatter's order (the sort would be quadratic).
     */
    @Kernel
    public static void sortClusters(KernelContext ctx, IntArray order, @ReadOnly IntArray start, @ReadOnly IntArray clusterOfCell,
            int cellCount, int limit) {
        int q = ctx.globalIdx;
        if (q < clusterOfCell.get(cellCount)) {
            int p0 = start.get(q);
            int p1 = start.get(q + 1);
            if (p1 - p0 > limit) {
                p1 = p0;
            }
            for (int p = p0 + 1; p < p1; p++) {
                int v = order.get(p);
                int r = p - 1;
                while (r >= p0 && order.get(r) > v) {
                    order.set(r + 1, order.get(r));
                    r--;
                }
                order.set(r + 1, v);
            }
        }
    }

    /**
     * Centroid and radius of each cluster, read through {@code order}; the radius is the largest centroid distance,
     * enlarged by a relative 1e-12 against the rounding of its computation (an empty cluster: 0 and 0).
     */
    @Kernel
    public static void geometry(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly IntArray order, @ReadOnly IntArray start,
            @ReadOnly IntArray clusterOfCell, @NoAlias DoubleArray centroids, @NoAlias DoubleArray radii, int cellCount, int dim) {
        int q = ctx.globalIdx;
        if (q < clusterOfCell.get(cellCount)) {
            int p0 = start.get(q);
            int p1 = start.get(q + 1);
            double inv = p1 > p0 ? 1.0 / (p1 - p0) : 0.0;
            for (int d = 0; d < dim; d++) {
                double s = 0.0;
                for (int p = p0; p < p1; p++) {
                    s += x.get(order.get(p) * dim + d);
                }
                centroids.set(q * dim + d, s * inv);
            }
            double far = 0.0;
            for (int p = p0; p < p1; p++) {
                int i = order.get(p);
                double r2 = 0.0;
                for (int d = 0; d < dim; d++) {
                    double diff = x.get(i * dim + d) - centroids.get(q * dim + d);
                    r2 += diff * diff;
                }
                far = Math.max(far, r2);
            }
            radii.set(q, Math.sqrt(far) * (1.0 + 1e-12));
        }
    }

    /** {@code sums[q] = max over columns of sum_{j in cluster q} |b_jc|}, read through {@code order}. */
    @Kernel
    public static void absSums(KernelContext ctx, @ReadOnly DoubleArray b, @ReadOnly IntArray order, @ReadOnly IntArray start,
            @ReadOnly IntArray clusterOfCell, @NoAlias DoubleArray sums, int cellCount, int cols) {
        int q = ctx.globalIdx;
        if (q < clusterOfCell.get(cellCount)) {
            double best = 0.0;
            for (int k = 0; k < cols; k++) {
                double s = 0.0;
                for (int p = start.get(q); p < start.get(q + 1); p++) {
                    s += Math.abs(b.get(order.get(p) * cols + k));
                }
                best = Math.max(best, s);
            }
            sums.set(q, best);
        }
    }

    /** {@code out[s * width + d] = v[order[s] * width + d] - shift[d]}: the sorted, shifted values in fp64. */
    @Kernel
    public static void gatherF64(KernelContext ctx, @ReadOnly DoubleArray v, @ReadOnly IntArray order, @NoAlias DoubleArray out,
            @ReadOnly DoubleArray shift, int n, int width) {
        int s = ctx.globalIdx;
        if (s < n) {
            int i = order.get(s);
            for (int d = 0; d < width; d++) {
                out.set(s * width + d, v.get(i * width + d) - shift.get(d));
            }
        }
    }

    /** {@link #gatherF64} rounded to fp32 after the shift. */
    @Kernel
    public static void gatherF32(KernelContext ctx, @ReadOnly DoubleArray v, @ReadOnly IntArray order, @NoAlias FloatArray out,
            @ReadOnly DoubleArray shift, int n, int width) {
        int s = ctx.globalIdx;
        if (s < n) {
            int i = order.get(s);
            for (int d = 0; d < width; d++) {
                out.set(s * width + d, (float) (v.get(i * width + d) - shift.get(d)));
            }
        }
    }

    /** {@code counts[q]}: tiles of at most {@code width} targets cluster {@code q} needs. */
    @Kernel
    public static void tileCounts(KernelContext ctx, @ReadOnly IntArray start, @ReadOnly IntArray clusterOfCell,
            @NoAlias IntArray counts, int cellCount, int width) {
        int q = ctx.globalIdx;
        if (q < clusterOfCell.get(cellCount)) {
            counts.set(q, (start.get(q + 1) - start.get(q) + width - 1) / width);
        }
    }

    /** The tiles ({@code start, end, cluster}) of each cluster, from {@code tileOffsets[q]} (the scanned counts) on. */
    @Kernel
    public static void writeTiles(KernelContext ctx, @ReadOnly IntArray start, @ReadOnly IntArray clusterOfCell,
            @ReadOnly IntArray tileOffsets, @NoAlias IntArray tiles, int cellCount, int width) {
        int q = ctx.globalIdx;
        if (q < clusterOfCell.get(cellCount)) {
            int g = tileOffsets.get(q);
            int end = start.get(q + 1);
            for (int p = start.get(q); p < end; p += width) {
                tiles.set(3 * g, p);
                tiles.set(3 * g + 1, Math.min(end, p + width));
                tiles.set(3 * g + 2, q);
                g++;
            }
        }
    }

    /** {@code out[k] = (centroids[k] - shift[k % dim]) * scale} for {@code k < count}: centres of the expanded Gaussian, fp64. */
    @Kernel
    public static void centresF64(KernelContext ctx, @ReadOnly DoubleArray centroids, @ReadOnly DoubleArray shift,
            @NoAlias DoubleArray out, double scale, int count, int dim) {
        int k = ctx.globalIdx;
        if (k < count) {
            out.set(k, (centroids.get(k) - shift.get(k % dim)) * scale);
        }
    }

    /** {@link #centresF64} rounded to fp32. */
    @Kernel
    public static void centresF32(KernelContext ctx, @ReadOnly DoubleArray centroids, @ReadOnly DoubleArray shift,
            @NoAlias FloatArray out, double scale, int count, int dim) {
        int k = ctx.globalIdx;
        if (k < count) {
            out.set(k, (float) ((centroids.get(k) - shift.get(k % dim)) * scale));
        }
    }

    /**
     * Results back in the caller's order: {@code a[order[s] * cols + c] = sorted[s * cols + c]}, and each row's bound,
     * that of its cluster ({@code bounds[clusterOfCell[keys[i]]]}).
     */
    @Kernel
    public static void unpermuteF64(KernelContext ctx, @ReadOnly DoubleArray sorted, @ReadOnly IntArray order,
            @ReadOnly IntArray keys, @ReadOnly IntArray clusterOfCell, @ReadOnly DoubleArray bounds, @NoAlias DoubleArray a,
            @NoAlias DoubleArray rowBounds, int m, int cols) {
        int s = ctx.globalIdx;
        if (s < m) {
            int i = order.get(s);
            for (int c = 0; c < cols; c++) {
                a.set(i * cols + c, sorted.get(s * cols + c));
            }
            rowBounds.set(i, bounds.get(clusterOfCell.get(keys.get(i))));
        }
    }

    /** {@link #unpermuteF64} from fp32 sums. */
    @Kernel
    public static void unpermuteF32(KernelContext ctx, @ReadOnly FloatArray sorted, @ReadOnly IntArray order,
            @ReadOnly IntArray keys, @ReadOnly IntArray clusterOfCell, @ReadOnly DoubleArray bounds, @NoAlias DoubleArray a,
            @NoAlias DoubleArray rowBounds, int m, int cols) {
        int s = ctx.globalIdx;
        if (s < m) {
            int i = order.get(s);
            for (int c = 0; c < cols; c++) {
                a.set(i * cols + c, (double) sorted.get(s * cols + c));
            }
            rowBounds.set(i, bounds.get(clusterOfCell.get(keys.get(i))));
        }
    }

    /** {@code out[outAt] = from[fromAt]}: a device scalar into the small array the host reads. */
    @Kernel
    public static void pick(KernelContext ctx, @ReadOnly IntArray from, int fromAt, @NoAlias IntArray out, int outAt) {
        if (ctx.globalIdx == 0) {
            out.set(outAt, from.get(fromAt));
        }
    }
}
