package dev.squall.sparse.solve.kernels;

import dev.squall.tasks.api.DeviceFunction;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.Fp32Variant;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.Kernel;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.NoAlias;
import dev.squall.tasks.api.Parallel;
import dev.squall.tasks.api.ReadOnly;

/**
 * Kernels of the sparse solvers, double precision: Gauss-Seidel and triangular sweeps over one level or colour of a
 * schedule (rows {@code order[start..end)}, independent of each other by the inspector's construction), the same over
 * a chain of narrow levels in one work-group, ILU(0) factorisation of one level, and the vector operations of
 * conjugate gradients with their scalars kept on the device ({@code s}, slots {@link #RZ}...). The compiler generates
 * the single-precision twin {@code SolverKernelsF32} and the typed handles {@code SolverKernelVariants}.
 *
 * <p>A sweep's row update {@code x[i] = (b[i] - sum a_ij x[j]) / a_ii} takes the columns {@code j} that
 * {@code part} selects: {@link #ALL} off-diagonal ones (Gauss-Seidel), {@link #LOWER} ({@code j < i}) or
 * {@link #UPPER} ({@code j > i}) (triangular solves); with {@code unit == 1} the diagonal is taken as 1.
 */
@Fp32Variant(value = "SolverKernelsF32", handles = "SolverKernelVariants")
public final class SolverKernels {
    /** Work-group size of the SPMD kernels (reductions and chains): a multiple of 32, as sub-group emulation needs. */
    public static final int GROUP = 256;
    /** Row update over every off-diagonal column. */
    public static final int ALL = 0;
    /** Row update over the columns left of the diagonal. */
    public static final int LOWER = 1;
    /** Row update over the columns right of the diagonal. */
    public static final int UPPER = 2;
    /** Slot of r^T z (current) in the scalar array of CG. */
    public static final int RZ = 0;
    /** Slot of r^T z of the previous iteration. */
    public static final int RZ_OLD = 1;
    /** Slot of p^T A p. */
    public static final int PAP = 2;
    /** Slot of r^T r. */
    public static final int RR = 3;
    /** Slots in CG's scalar array. */
    public static final int SLOTS = 4;

    private SolverKernels() {
    }

    /** One row's update: {@code x[i] = (b[i] - sum over part of a_ij x[j]) / (unit ? 1 : a_ii)}, entries in stored order. */
    @DeviceFunction
    static void updateRow(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly IntArray diagPos,
                          @ReadOnly DoubleArray b, DoubleArray x, int i, int part, int unit) {
        double s = b.get(i);
        int end = rowPtr.get(i + 1);
        for (int q = rowPtr.get(i); q < end; q++) {
            int j = col.get(q);
            boolean take = part == 0 ? j != i : part == 1 ? j < i : j > i;
            if (take) {
                s -= val.get(q) * x.get(j);
            }
        }
        if (unit == 1) {
            x.set(i, s);
        } else {
            x.set(i, s / val.get(diagPos.get(i)));
        }
    }

    /** The rows {@code order[start..end)} of one level or colour, one work-item per row. */
    @Kernel
    public static void sweepRows(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly IntArray diagPos,
                                 @ReadOnly DoubleArray b, DoubleArray x, @ReadOnly IntArray order, int start, int end, int part, int unit) {
        for (@Parallel int k = start; k < end; k++) {
            updateRow(rowPtr, col, val, diagPos, b, x, order.get(k), part, unit);
        }
    }

    /**
     * The groups {@code first..last} of a schedule (levels, in the order given by {@code groupPtr} when {@code step}
     * is 1, or from {@code first} down to {@code last} when it is -1) walked by one work-group: its work-items share
     * each level's rows and meet at a barrier before the next level, so a chain of narrow levels costs one launch.
     * Grid: one group of {@link #GROUP} work-items.
     */
    @Kernel
    public static void sweepChain(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                  @ReadOnly IntArray diagPos, @ReadOnly DoubleArray b, DoubleArray x, @ReadOnly IntArray order,
                                  @ReadOnly IntArray groupPtr, int first, int count, int step, int part, int unit) {
        int lid = ctx.localIdx;
        int size = ctx.localGroupSizeX;
        for (int t = 0; t < count; t++) {
            int g = first + t * step;
            int end = groupPtr.get(g + 1);
            for (int k = groupPtr.get(g) + lid; k < end; k += size) {
                updateRow(rowPtr, col, val, diagPos, b, x, order.get(k), part, unit);
            }
            ctx.localBarrier();
        }
    }

    /**
     * One row's Gauss-Seidel update from the sweep layout in schedule order: position {@code k} holds row
     * {@code order[k]}'s {@code rowLen[k]} off-diagonal entries column-major ({@code [q * n + k]}, so consecutive
     * positions are consecutive addresses) and its diagonal {@code diag[k]}.
     */
    @DeviceFunction
    static void updateEllRow(@ReadOnly IntArray rowLen, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray diag,
                             @ReadOnly DoubleArray b, DoubleArray x, @ReadOnly IntArray order, int k, int n) {
        int i = order.get(k);
        double s = b.get(i);
        int len = rowLen.get(k);
        int idx = k;
        for (int q = 0; q < len; q++) {
            s -= val.get(idx) * x.get(col.get(idx));
            idx += n;
        }
        x.set(i, s / diag.get(k));
    }

    /** The positions {@code start..end} of one level or colour in the column-major sweep layout, one work-item per row. */
    @Kernel
    public static void sweepRowsEll(@ReadOnly IntArray rowLen, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray diag,
                                    @ReadOnly DoubleArray b, DoubleArray x, @ReadOnly IntArray order, int start, int end, int n) {
        for (@Parallel int k = start; k < end; k++) {
            updateEllRow(rowLen, col, val, diag, b, x, order, k, n);
        }
    }

    /** {@link #sweepChain} over the column-major sweep layout. Grid: one group of {@link #GROUP} work-items. */
    @Kernel
    public static void sweepChainEll(KernelContext ctx, @ReadOnly IntArray rowLen, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                     @ReadOnly DoubleArray diag, @ReadOnly DoubleArray b, DoubleArray x, @ReadOnly IntArray order,
                                     @ReadOnly IntArray groupPtr, int first, int count, int step, int n) {
        int lid = ctx.localIdx;
        int size = ctx.localGroupSizeX;
        for (int t = 0; t < count; t++) {
            int g = first + t * step;
            int end = groupPtr.get(g + 1);
            for (int k = groupPtr.get(g) + lid; k < end; k += size) {
                updateEllRow(rowLen, col, val, diag, b, x, order, k, n);
            }
            ctx.localBarrier();
        }
    }

    /**
     * One row's Gauss-Seidel update from the diagonal sweep layout in schedule order: position {@code k} holds row
     * {@code i = order[k]}'s entry at column {@code i + offset[q]} in {@code val[q * n + k]} for every diagonal q
     * ({@code 0} where the row has none; such a column is clamped into the matrix, and its zero adds nothing) and its
     * diagonal {@code diag[k]}. No column indices are read: a stencil's entries cost their values only.
     */
    @DeviceFunction
    static void updateDiaRow(@ReadOnly IntArray offset, @ReadOnly DoubleArray val, @ReadOnly DoubleArray diag, @ReadOnly DoubleArray b,
                             DoubleArray x, @ReadOnly IntArray order, int k, int n, int width) {
        int i = order.get(k);
        double s = b.get(i);
        int idx = k;
        for (int q = 0; q < width; q++) {
            int j = i + offset.get(q);
            j = j < 0 ? 0 : j;
            j = j >= n ? n - 1 : j;
            s -= val.get(idx) * x.get(j);
            idx += n;
        }
        x.set(i, s / diag.get(k));
    }

    /** The positions {@code start..end} of one level or colour in the diagonal sweep layout, one work-item per row. */
    @Kernel
    public static void sweepRowsDia(@ReadOnly IntArray offset, @ReadOnly DoubleArray val, @ReadOnly DoubleArray diag, @ReadOnly DoubleArray b,
                                    DoubleArray x, @ReadOnly IntArray order, int start, int end, int n, int width) {
        for (@Parallel int k = start; k < end; k++) {
            updateDiaRow(offset, val, diag, b, x, order, k, n, width);
        }
    }

    /** {@link #sweepChain} over the diagonal sweep layout. Grid: one group of {@link #GROUP} work-items. */
    @Kernel
    public static void sweepChainDia(KernelContext ctx, @ReadOnly IntArray offset, @ReadOnly DoubleArray val, @ReadOnly DoubleArray diag,
                                     @ReadOnly DoubleArray b, DoubleArray x, @ReadOnly IntArray order, @ReadOnly IntArray groupPtr,
                                     int first, int count, int step, int n, int width) {
        int lid = ctx.localIdx;
        int size = ctx.localGroupSizeX;
        for (int t = 0; t < count; t++) {
            int g = first + t * step;
            int end = groupPtr.get(g + 1);
            for (int k = groupPtr.get(g) + lid; k < end; k += size) {
                updateDiaRow(offset, val, diag, b, x, order, k, n, width);
            }
            ctx.localBarrier();
        }
    }

    /**
     * ILU(0) of the rows {@code order[start..end)}, in place in {@code lu} (a copy of A's values): for each entry
     * {@code (i, k)} left of the diagonal, in column order, {@code l = lu_ik / lu_kk} replaces it and
     * {@code lu_ij -= l lu_kj} for the columns {@code j > k} present in both rows. Rows {@code k < i} that row i
     * reads are finished in earlier levels. Columns must be sorted in each row and every diagonal present.
     */
    @Kernel
    public static void iluRows(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, DoubleArray lu, @ReadOnly IntArray diagPos,
                               @ReadOnly IntArray order, int start, int end) {
        for (@Parallel int k = start; k < end; k++) {
            int i = order.get(k);
            int re = rowPtr.get(i + 1);
            int p = rowPtr.get(i);
            while (p < re && col.get(p) < i) {
                int kk = col.get(p);
                int dk = diagPos.get(kk);
                double l = lu.get(p) / lu.get(dk);
                lu.set(p, l);
                int q = p + 1;
                int t = dk + 1;
                int te = rowPtr.get(kk + 1);
                while (q < re && t < te) {
                    int cq = col.get(q);
                    int ct = col.get(t);
                    if (cq == ct) {
                        lu.set(q, lu.get(q) - l * lu.get(t));
                        q++;
                        t++;
                    } else if (cq < ct) {
                        q++;
                    } else {
                        t++;
                    }
                }
                p++;
            }
        }
    }

    /**
     * Partial dot products: work-group g writes {@code sum x[i] y[i]} over its grid-stride share to {@code partial[g]}
     * (a tree in local memory, so the order of additions is fixed by the grid). Grid: groups of {@link #GROUP}.
     */
    @Kernel
    public static void dotPartials(KernelContext ctx, @ReadOnly DoubleArray x, @ReadOnly DoubleArray y, @NoAlias DoubleArray partial, int n) {
        double[] part = ctx.allocateDoubleLocalArray(GROUP);
        int lid = ctx.localIdx;
        double s = 0;
        for (int i = ctx.globalIdx; i < n; i += ctx.globalGroupSizeX) {
            s += x.get(i) * y.get(i);
        }
        part[lid] = s;
        ctx.localBarrier();
        for (int w = GROUP / 2; w > 0; w = w / 2) {
            if (lid < w) {
                part[lid] += part[lid + w];
            }
            ctx.localBarrier();
        }
        if (lid == 0) {
            partial.set(ctx.groupIdx, part[0]);
        }
    }

    /**
     * Sums {@code partial[0..parts)} into {@code s[slot]}; with {@code keep >= 0} the slot's previous value moves to
     * {@code s[keep]} first (r^T z of the last iteration for CG's beta). Grid: one group of {@link #GROUP}.
     */
    @Kernel
    public static void dotFinish(KernelContext ctx, @ReadOnly DoubleArray partial, DoubleArray s, int parts, int slot, int keep) {
        double[] part = ctx.allocateDoubleLocalArray(GROUP);
        int lid = ctx.localIdx;
        double acc = 0;
        for (int i = lid; i < parts; i += GROUP) {
            acc += partial.get(i);
        }
        part[lid] = acc;
        ctx.localBarrier();
        for (int w = GROUP / 2; w > 0; w = w / 2) {
            if (lid < w) {
                part[lid] += part[lid + w];
            }
            ctx.localBarrier();
        }
        if (lid == 0) {
            if (keep >= 0) {
                s.set(keep, s.get(slot));
            }
            s.set(slot, part[0]);
        }
    }

    /**
     * Sums {@code partA[0..parts)} into {@code s[slotA]} (its previous value moved to {@code s[keepA]} first when
     * {@code keepA >= 0}) and {@code partB[0..parts)} into {@code s[slotB]}: two dot products finished by one launch.
     * Grid: one group of {@link #GROUP}.
     */
    @Kernel
    public static void dotFinishPair(KernelContext ctx, @ReadOnly DoubleArray partA, @ReadOnly DoubleArray partB, DoubleArray s, int parts,
                                     int slotA, int keepA, int slotB) {
        double[] pa = ctx.allocateDoubleLocalArray(GROUP);
        double[] pb = ctx.allocateDoubleLocalArray(GROUP);
        int lid = ctx.localIdx;
        double a = 0;
        double b = 0;
        for (int i = lid; i < parts; i += GROUP) {
            a += partA.get(i);
            b += partB.get(i);
        }
        pa[lid] = a;
        pb[lid] = b;
        ctx.localBarrier();
        for (int w = GROUP / 2; w > 0; w = w / 2) {
            if (lid < w) {
                pa[lid] += pa[lid + w];
                pb[lid] += pb[lid + w];
            }
            ctx.localBarrier();
        }
        if (lid == 0) {
            if (keepA >= 0) {
                s.set(keepA, s.get(slotA));
            }
            s.set(slotA, pa[0]);
            s.set(slotB, pb[0]);
        }
    }

    /**
     * CG's step fused with the partial sums of the new {@code r^T r}: {@code alpha = s[RZ] / s[PAP]};
     * {@code x += alpha p}, {@code r -= alpha Ap}, and work-group g writes its share of {@code r^T r} to
     * {@code partial[g]} (as {@link #dotPartials}), so r is not read again for its norm. Grid: groups of {@link #GROUP}.
     */
    @Kernel
    public static void cgStepNorm(KernelContext ctx, DoubleArray x, DoubleArray r, @ReadOnly DoubleArray p, @ReadOnly DoubleArray ap,
                                  @ReadOnly DoubleArray s, @NoAlias DoubleArray partial, int n) {
        double[] part = ctx.allocateDoubleLocalArray(GROUP);
        int lid = ctx.localIdx;
        double alpha = s.get(RZ) / s.get(PAP);
        double acc = 0;
        for (int i = ctx.globalIdx; i < n; i += ctx.globalGroupSizeX) {
            x.set(i, x.get(i) + alpha * p.get(i));
            double ri = r.get(i) - alpha * ap.get(i);
            r.set(i, ri);
            acc += ri * ri;
        }
        part[lid] = acc;
        ctx.localBarrier();
        for (int w = GROUP / 2; w > 0; w = w / 2) {
            if (lid < w) {
                part[lid] += part[lid + w];
            }
            ctx.localBarrier();
        }
        if (lid == 0) {
            partial.set(ctx.groupIdx, part[0]);
        }
    }

    /** CG's step: {@code alpha = s[RZ] / s[PAP]}; {@code x += alpha p}, {@code r -= alpha Ap}. */
    @Kernel
    public static void cgStep(DoubleArray x, DoubleArray r, @ReadOnly DoubleArray p, @ReadOnly DoubleArray ap, @ReadOnly DoubleArray s, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            double alpha = s.get(RZ) / s.get(PAP);
            x.set(i, x.get(i) + alpha * p.get(i));
            r.set(i, r.get(i) - alpha * ap.get(i));
        }
    }

    /** CG's new direction: {@code beta = s[RZ] / s[RZ_OLD]}; {@code p = z + beta p}. */
    @Kernel
    public static void cgDirection(DoubleArray p, @ReadOnly DoubleArray z, @ReadOnly DoubleArray s, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            double beta = s.get(RZ) / s.get(RZ_OLD);
            p.set(i, z.get(i) + beta * p.get(i));
        }
    }

    /** Clears the sync-free solve's row flags and its ticket counter before each launch of {@link #syncFreeRows}. */
    @Kernel
    public static void syncFreeReset(IntArray ready, IntArray ticket, int n) {
        for (@Parallel int k = 0; k < n; k++) {
            ready.set(k, 0);
            if (k == 0) {
                ticket.set(0, 0);
            }
        }
    }

    /**
     * A whole sweep or triangular solve in one launch, without level synchronisation (the synchronisation-free scheme
     * of Liu, Li, Hou and Vinter, Euro-Par 2016, by rows of CSR): one work-item per row; a row waits, by spinning on
     * {@code ready[j]}, for each row {@code j} it reads that comes before it in the sweep ({@code j < i} when
     * {@code dir == 1}, {@code j > i} when {@code dir == -1}), reads that row's new value from {@code x}, and publishes
     * its own value, a fence, then its flag. Rows after it are read from {@code xOld} (Gauss-Seidel's old values; not
     * read by triangular solves, whose {@code part} takes only earlier columns). {@code part} and {@code unit} as in
     * {@link #updateRow}. Flags ({@code 0}) and {@code ticket[0]} ({@code 0}) are cleared by {@link #syncFreeReset}.
     *
     * <p>Forward progress: the work-item at position {@code k} of {@code order} handles row {@code order[k]}, and
     * {@code order} lists every row after the rows it waits on (natural order, or level order). Work-groups do not
     * take blocks of positions by their group id but by a ticket from an atomic counter, in the order they start;
     * so a work-group waits only on blocks of groups that started before it and are running or done (on a GPU they
     * hold their multiprocessor until they finish, and a JVM or PoCL thread runs its group to the end). The one
     * unfinished block with the lowest ticket waits on nobody unfinished outside itself, and inside a block an item
     * waits only on items before it: on the JVM and PoCL, which run a group's items in a loop in order after the
     * barrier, those are done; on GPUs with independent thread scheduling (NVIDIA sm_70 and later), waiting lanes of a
     * warp do not stop the lane they wait on. By induction every row completes, whatever the order in which groups are
     * launched or the number running at once.
     */
    @Kernel
    public static void syncFreeRows(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                    @ReadOnly IntArray diagPos, @ReadOnly DoubleArray b, @ReadOnly DoubleArray xOld, DoubleArray x,
                                    IntArray ready, IntArray ticket, @ReadOnly IntArray order, int n, int dir, int part, int unit) {
        int[] block = ctx.allocateIntLocalArray(1);
        if (ctx.localIdx == 0) {
            block[0] = ctx.atomicAdd(ticket, 0, 1);
        }
        ctx.localBarrier();
        int k = block[0] * ctx.localGroupSizeX + ctx.localIdx;
        if (k < n) {
            int i = order.get(k);
            int start = rowPtr.get(i);
            int end = rowPtr.get(i + 1);
            // every flag of the row in one pass (the loads do not wait on each other: one memory round trip, not one
            // per entry); while one is missing, spin on that one alone (one load a turn), then pass again; then every
            // new value in one more pass
            int missing = 1;
            while (missing > 0) {
                missing = 0;
                int waitFor = -1;
                for (int q = start; q < end; q++) {
                    int j = col.get(q);
                    boolean take = part == 0 ? j != i : part == 1 ? j < i : j > i;
                    if (take && (dir == 1 ? j < i : j > i)) {
                        int up = ctx.volatileLoad(ready, j);
                        missing += 1 - up;
                        waitFor = up == 0 && waitFor < 0 ? j : waitFor;
                    }
                }
                if (missing > 0) {
                    while (ctx.volatileLoad(ready, waitFor) == 0) {
                    }
                }
            }
            double s = b.get(i);
            for (int q = start; q < end; q++) {
                int j = col.get(q);
                boolean take = part == 0 ? j != i : part == 1 ? j < i : j > i;
                boolean before = dir == 1 ? j < i : j > i;
                if (take) {
                    s -= val.get(q) * (before ? ctx.volatileLoad(x, j) : xOld.get(j));
                }
            }
            double v = unit == 1 ? s : s / val.get(diagPos.get(i));
            ctx.volatileStore(x, i, v);
            ctx.globalFence();
            ctx.volatileStore(ready, i, 1);
        }
    }

    /** Marks every value of a sync-free solve by warps not computed yet (NaN) and clears its ticket counter. */
    @Kernel
    public static void syncFreeResetValues(DoubleArray x, IntArray ticket, int n) {
        for (@Parallel int k = 0; k < n; k++) {
            x.set(k, Double.NaN);
            if (k == 0) {
                ticket.set(0, 0);
            }
        }
    }

    /**
     * {@link #syncFreeRows} by sub-groups: one sub-group (32 work-items, a warp) per work-group, a work-item per row,
     * and values that are their own flags. {@link #syncFreeResetValues} sets {@code x} to NaN; a row is ready when its
     * value is not NaN (a NaN result is published as +infinity, which keeps it non-finite for the solvers' divergence
     * tests), so a row needs no fence and no flag, and one volatile load both tests an input and reads it. In rounds,
     * the sub-group in lockstep: every unfinished work-item loads its earlier inputs ({@code ctx.volatileLoad}, all in
     * one pass) and, if none is missing, stores its value; while a row is left, lane 0 alone spins on the missing
     * input latest in {@code order} among those of earlier blocks ({@code pos[j] < first}, {@code pos} the inverse of
     * {@code order}; a sub-group maximum), then all pass again. A waiting warp thus issues one load a turn, not 32
     * scattered ones, and no lane spins while another lane of its warp could compute. Launch with work-groups of 32.
     *
     * <p>Forward progress as in {@link #syncFreeRows}: blocks are taken by ticket, lane 0 spins only on rows of groups
     * that started earlier, and each round finishes at least the lowest unfinished row of the block whose inputs of
     * earlier blocks are ready (its inputs inside the block lie before it and are done).
     */
    @Kernel
    public static void syncFreeWarpRows(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                        @ReadOnly IntArray diagPos, @ReadOnly DoubleArray b, @ReadOnly DoubleArray xOld, DoubleArray x,
                                        IntArray ticket, @ReadOnly IntArray order, @ReadOnly IntArray pos, int n, int dir, int part, int unit) {
        int[] block = ctx.allocateIntLocalArray(1);
        if (ctx.localIdx == 0) {
            block[0] = ctx.atomicAdd(ticket, 0, 1);
        }
        ctx.localBarrier();
        int first = block[0] * ctx.localGroupSizeX;
        int k = first + ctx.localIdx;
        int i = order.get(Math.min(k, n - 1));
        int start = k < n ? rowPtr.get(i) : 0;
        int end = k < n ? rowPtr.get(i + 1) : 0;
        int done = k < n ? 0 : 1;
        int left = ctx.subgroupReduceAdd(1 - done);
        while (left > 0) {
            int latest = -1;
            if (done == 0) {
                int missing = 0;
                double s = b.get(i);
                // straight-line body: every entry loads unconditionally and nothing branches on a loaded value, so the
                // compiler issues the loads of unrolled entries back to back (one memory round trip, not one per entry)
                for (int q = start; q < end; q++) {
                    int j = col.get(q);
                    boolean take = part == 0 ? j != i : part == 1 ? j < i : j > i;
                    boolean before = dir == 1 ? j < i : j > i;
                    double xNew = ctx.volatileLoad(x, j);
                    double xPrev = xOld.get(j);
                    double a = val.get(q);
                    int pj = pos.get(j);
                    boolean miss = take && before && xNew != xNew;
                    missing += miss ? 1 : 0;
                    latest = Math.max(latest, miss && pj < first ? pj : -1);
                    double t = a * (before ? xNew : xPrev);
                    s -= take ? t : 0.0;
                }
                if (missing == 0) {
                    double v = unit == 1 ? s : s / val.get(diagPos.get(i));
                    ctx.volatileStore(x, i, v == v ? v : Double.POSITIVE_INFINITY);
                    done = 1;
                }
            }
            left = ctx.subgroupReduceAdd(1 - done);
            if (left > 0) {
                latest = Math.max(latest, ctx.shuffleXor(latest, 16));
                latest = Math.max(latest, ctx.shuffleXor(latest, 8));
                latest = Math.max(latest, ctx.shuffleXor(latest, 4));
                latest = Math.max(latest, ctx.shuffleXor(latest, 2));
                latest = Math.max(latest, ctx.shuffleXor(latest, 1));
                if (ctx.localIdx == 0 && latest >= 0) {
                    int w = order.get(latest);
                    double xw = ctx.volatileLoad(x, w);
                    while (xw != xw) {
                        xw = ctx.volatileLoad(x, w);
                    }
                }
            }
        }
    }

    /**
     * {@link #syncFreeWarpRows} with the lanes of a sub-group sharing rows: {@code lanes} work-items (a power of two
     * dividing 32) per row, so a warp holds {@code 32 / lanes} rows and each work-item at most
     * {@code ceil(len / lanes)} of its row's entries. Where a row has at most {@code 2 lanes} entries, each lane reads
     * its (at most two) entries' columns and values once, before the passes, and a pass issues only their volatile
     * loads of {@code x}, back to back (one memory round trip, where a work-item walking a row of 14 entries issues
     * them in dependent batches); longer rows walk their entries each pass. A pass then sums each row's lanes by {@code log2(lanes)} XOR shuffles
     * (the lanes of a row are an aligned group, so the shuffles stay inside it) and, if none of the row's inputs was
     * missing, the row's first lane stores its value. Values are their own flags as in {@link #syncFreeWarpRows}, in
     * {@code ready} (2n values) rather than {@code x}, so no launch has to clear them: solves alternate between the
     * halves {@code ready[0..n)} and {@code ready[n..2n)} (the generation is the ticket counter's, which runs over two
     * solves' tickets and is set back to 0 by the group drawing the last), each row sets its entry of the other half
     * back to NaN for the next solve, and publishes its value in this half (a NaN result as +infinity) and in
     * {@code x}. Both halves hold NaN and the ticket 0 before the first solve. A lane keeps the inputs it has seen
     * published and reloads only the missing ones. Waiting is the pass
     * itself ({@code spin == 0}: every unfinished row reloads its inputs each round), or ({@code spin == 1}, work-groups
     * of 32 only) lane 0 spinning between passes on the missing input latest in {@code order} among those of earlier
     * blocks, as in {@link #syncFreeWarpRows}, or ({@code spin == 2}) each lane spinning on its own missing inputs of
     * earlier blocks inside the pass, before the sums: a waiting warp then issues a load, a test and a branch a memory
     * round trip instead of a pass (whose shuffles and loop take the issue slots of the warps that could compute), and
     * a value published is seen one round trip later; inputs inside the block are still waited on by passing again. {@code b[i]}, the diagonal and the row's extent are read once, before the first pass.
     * Launch with work-groups of 32 (one sub-group) or a multiple of 32: several sub-groups then pass in rounds until
     * every row of the work-group is done (a count in local memory and a barrier a round), which keeps more warps
     * resident than one-warp groups (a multiprocessor holds at most 32 work-groups). Progress as in
     * {@link #syncFreeWarpRows}: blocks are taken by ticket, inputs in earlier blocks are waited on across rounds, and
     * inputs inside the block lie in rows before the waiting one, which finish in earlier rounds.
     */
    @Kernel
    public static void syncFreeLaneRows(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                        @ReadOnly IntArray diagPos, @ReadOnly DoubleArray b, @ReadOnly DoubleArray xOld, DoubleArray x,
                                        DoubleArray ready, IntArray ticket, @ReadOnly IntArray order, @ReadOnly IntArray pos, int n, int dir,
                                        int part, int unit, int lanes, int spin) {
        int[] block = ctx.allocateIntLocalArray(5);
        int rowsPerGroup = ctx.localGroupSizeX / lanes;
        int groups = (n + rowsPerGroup - 1) / rowsPerGroup;
        if (ctx.localIdx == 0) {
            // tickets 0..groups-1 are one solve (generation 0), groups..2 groups-1 the next (generation 1); the group
            // that draws the last ticket of generation 1 draws after every other group of its launch, and sets the
            // counter back to 0 for the launch after it
            int t = ctx.atomicAdd(ticket, 0, 1);
            int g = t >= groups ? 1 : 0;
            if (t == 2 * groups - 1) {
                ctx.atomicAdd(ticket, 0, -2 * groups);
            }
            block[0] = t - g * groups;
            block[1] = 0;
            block[2] = 0;
            block[3] = 0;
            block[4] = g;
        }
        ctx.localBarrier();
        int first = block[0] * rowsPerGroup;
        // this solve's values-as-flags are ready[base..base+n), NaN until published; the other half, used by the
        // previous solve (finished: launches of one queue run in order), is set back to NaN here for the next one
        int base = block[4] * n;
        int other = n - base;
        int wide = ctx.localGroupSizeX > 32 ? 1 : 0;
        int round = 0;
        int sub = ctx.localIdx % lanes;
        int steps = Integer.numberOfTrailingZeros(lanes);
        int k = first + ctx.localIdx / lanes;
        int i = order.get(Math.min(k, n - 1));
        int start = k < n ? rowPtr.get(i) : 0;
        int end = k < n ? rowPtr.get(i + 1) : 0;
        double bi = b.get(i);
        double d = unit == 1 ? 1.0 : val.get(diagPos.get(i));
        if (k < n && sub == 0) {
            ready.set(other + i, Double.NaN);
        }
        // a row of at most 2 * lanes entries: each lane's two entries (column, value, old value, position) read once,
        // here, so a pass issues only the two volatile loads of x, back to back
        int fits = end - start <= 2 * lanes ? 1 : 0;
        int q0 = start + sub;
        int q1 = q0 + lanes;
        int j0 = q0 < end ? col.get(q0) : i;
        int j1 = q1 < end ? col.get(q1) : i;
        double a0 = q0 < end ? val.get(q0) : 0.0;
        double a1 = q1 < end ? val.get(q1) : 0.0;
        boolean take0 = q0 < end && (part == 0 ? j0 != i : part == 1 ? j0 < i : j0 > i);
        boolean take1 = q1 < end && (part == 0 ? j1 != i : part == 1 ? j1 < i : j1 > i);
        boolean before0 = dir == 1 ? j0 < i : j0 > i;
        boolean before1 = dir == 1 ? j1 < i : j1 > i;
        double xPrev0 = take0 && !before0 ? xOld.get(j0) : 0.0;
        double xPrev1 = take1 && !before1 ? xOld.get(j1) : 0.0;
        int p0 = spin != 0 && take0 && before0 ? pos.get(j0) : -1;
        int p1 = spin != 0 && take1 && before1 ? pos.get(j1) : -1;
        // spin == 2: a lane waits here for its inputs of earlier blocks (done or running, so this ends), one load in
        // flight, few instructions a round trip
        boolean wait0 = spin == 2 && take0 && before0 && p0 < first;
        boolean wait1 = spin == 2 && take1 && before1 && p1 < first;
        // the new values of the lane's two entries, NaN until seen published (entries that need none hold 0): a pass
        // reloads only those still missing, so a waiting row's pass costs as many loads as it has inputs left
        double xNew0 = take0 && before0 ? Double.NaN : 0.0;
        double xNew1 = take1 && before1 ? Double.NaN : 0.0;
        int done = k < n ? 0 : 1;
        int left = ctx.subgroupReduceAdd(1 - done);
        if (wide == 1) {
            // several sub-groups: the loop runs while a row of the work-group is left (a uniform condition), counted
            // in local memory, round r in slot 1 + r % 3; round r clears the slot of round r + 1, last read in round
            // r - 2, which every work-item left behind the barrier of round r - 1
            if (ctx.subgroupLocalId() == 0) {
                ctx.atomicAdd(block, 1, left);
            }
            ctx.localBarrier();
            left = block[1];
        }
        while (left > 0) {
            double s = 0.0;
            int missing = 0;
            int latest = -1;
            if (done == 0 && fits == 1) {
                if (xNew0 != xNew0) {
                    xNew0 = ctx.volatileLoad(ready, base + j0);
                }
                if (xNew1 != xNew1) {
                    xNew1 = ctx.volatileLoad(ready, base + j1);
                }
                while (wait0 && xNew0 != xNew0) {
                    xNew0 = ctx.volatileLoad(ready, base + j0);
                }
                while (wait1 && xNew1 != xNew1) {
                    xNew1 = ctx.volatileLoad(ready, base + j1);
                }
                boolean miss0 = xNew0 != xNew0;
                boolean miss1 = xNew1 != xNew1;
                missing = (miss0 ? 1 : 0) + (miss1 ? 1 : 0);
                latest = Math.max(miss0 ? p0 : -1, miss1 ? p1 : -1);
                s = (take0 ? a0 * (before0 ? xNew0 : xPrev0) : 0.0) + (take1 ? a1 * (before1 ? xNew1 : xPrev1) : 0.0);
            }
            if (done == 0 && fits == 0) {
                for (int q = start + sub; q < end; q += lanes) {
                    int j = col.get(q);
                    boolean take = part == 0 ? j != i : part == 1 ? j < i : j > i;
                    boolean before = dir == 1 ? j < i : j > i;
                    double xNew = ctx.volatileLoad(ready, base + j);
                    double xPrev = xOld.get(j);
                    double a = val.get(q);
                    int pj = spin != 0 && take && before ? pos.get(j) : -1;
                    while (spin == 2 && take && before && pj < first && xNew != xNew) {
                        xNew = ctx.volatileLoad(ready, base + j);
                    }
                    boolean miss = take && before && xNew != xNew;
                    missing += miss ? 1 : 0;
                    latest = Math.max(latest, miss ? pj : -1);
                    double t = a * (before ? xNew : xPrev);
                    s += take ? t : 0.0;
                }
            }
            // the row's sum and missing count over its lanes (an aligned group: XOR partners stay inside it), halving
            // the distance each step (a counted loop, so the JVM runs the kernel as loops over each work-group)
            for (int t = 0; t < steps; t++) {
                int m = lanes >> (t + 1);
                s += ctx.shuffleXor(s, m);
                missing += ctx.shuffleXor(missing, m);
            }
            if (done == 0 && missing == 0) {
                if (sub == 0) {
                    double v = (bi - s) / d;
                    double published = v == v ? v : Double.POSITIVE_INFINITY;
                    ctx.volatileStore(ready, base + i, published);
                    x.set(i, published);
                }
                done = 1;
            }
            left = ctx.subgroupReduceAdd(1 - done);
            if (wide == 1) {
                round++;
                int slot = 1 + round % 3;
                if (ctx.localIdx == 0) {
                    block[1 + (round + 1) % 3] = 0;
                }
                if (ctx.subgroupLocalId() == 0) {
                    ctx.atomicAdd(block, slot, left);
                }
                ctx.localBarrier();
                left = block[slot];
            }
            if (spin == 1 && left > 0) {
                latest = latest < first ? latest : -1;
                latest = Math.max(latest, ctx.shuffleXor(latest, 16));
                latest = Math.max(latest, ctx.shuffleXor(latest, 8));
                latest = Math.max(latest, ctx.shuffleXor(latest, 4));
                latest = Math.max(latest, ctx.shuffleXor(latest, 2));
                latest = Math.max(latest, ctx.shuffleXor(latest, 1));
                if (ctx.subgroupLocalId() == 0 && latest >= 0) {
                    int w = order.get(latest);
                    double xw = ctx.volatileLoad(ready, base + w);
                    while (xw != xw) {
                        xw = ctx.volatileLoad(ready, base + w);
                    }
                }
            }
        }
    }

    /** Rows a solve by {@link #walkLevels} may keep in local memory (32 KB in fp64). */
    public static final int LOCAL_ROWS = 4096;

    /**
     * A whole triangular solve or sweep in one work-group: the levels {@code order[groupPtr[l]..groupPtr[l + 1])} one
     * after another with a barrier between them, as {@link #sweepChain}, for matrices whose levels are narrow (the
     * work-group holds a level's rows), where a sync-free solve pays a round trip through L2 per level and a level-set
     * solve a launch. With {@code inLocal == 1} (at most {@link #LOCAL_ROWS} rows) the new values are also kept in
     * local memory ({@code xs[i]}), so a row reads its inputs of earlier levels at local-memory latency; else from
     * {@code x}, written by this work-group before a barrier. Each work-item's first row of the next level (its
     * position, extent, {@code b[i]}, diagonal and first four entries' columns and values) is loaded before the
     * barrier, while other rows still compute, so after it a row of at most four entries waits only on its inputs'
     * loads. The extent and diagonal position come by position in the level order ({@code startAt[k]},
     * {@code endAt[k]}, {@code diagAt[k]}: {@code rowPtr[order[k]]}, {@code rowPtr[order[k] + 1]},
     * {@code diagPos[order[k]]}), so that prefetch is two rounds of independent loads, not a chain of three. Rows read new values for columns before them in the sweep ({@code j < i} when {@code dir == 1}, else
     * {@code j > i}) and {@code xOld} for the others, as {@link #updateRow} with {@code part} and {@code unit}. No
     * flags, no ticket, one launch. Grid: one work-group.
     */
    @Kernel
    public static void walkLevels(KernelContext ctx, @ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val,
                                  @ReadOnly IntArray diagPos, @ReadOnly DoubleArray b, @ReadOnly DoubleArray xOld, DoubleArray x,
                                  @ReadOnly IntArray order, @ReadOnly IntArray groupPtr, @ReadOnly IntArray startAt, @ReadOnly IntArray endAt,
                                  @ReadOnly IntArray diagAt, int levels, int dir, int part, int unit, int inLocal) {
        double[] xs = ctx.allocateDoubleLocalArray(LOCAL_ROWS);
        int lid = ctx.localIdx;
        int size = ctx.localGroupSizeX;
        // the work-item's first row of level 0 (entries past the row's end read as column i, value 0: never taken)
        int lo = groupPtr.get(0);
        int hi = levels > 0 ? groupPtr.get(1) : 0;
        int k = lo + lid;
        int i = order.get(k < hi ? k : 0);
        int start = k < hi ? startAt.get(k) : 0;
        int end = k < hi ? endAt.get(k) : 0;
        double bi = k < hi ? b.get(i) : 0.0;
        double d = k < hi && unit == 0 ? val.get(diagAt.get(k)) : 1.0;
        int j0 = start < end ? col.get(start) : i;
        int j1 = start + 1 < end ? col.get(start + 1) : i;
        int j2 = start + 2 < end ? col.get(start + 2) : i;
        int j3 = start + 3 < end ? col.get(start + 3) : i;
        double a0 = start < end ? val.get(start) : 0.0;
        double a1 = start + 1 < end ? val.get(start + 1) : 0.0;
        double a2 = start + 2 < end ? val.get(start + 2) : 0.0;
        double a3 = start + 3 < end ? val.get(start + 3) : 0.0;
        for (int l = 0; l < levels; l++) {
            if (k < hi) {
                boolean t0 = part == 0 ? j0 != i : part == 1 ? j0 < i : j0 > i;
                boolean t1 = part == 0 ? j1 != i : part == 1 ? j1 < i : j1 > i;
                boolean t2 = part == 0 ? j2 != i : part == 1 ? j2 < i : j2 > i;
                boolean t3 = part == 0 ? j3 != i : part == 1 ? j3 < i : j3 > i;
                boolean n0 = dir == 1 ? j0 < i : j0 > i;
                boolean n1 = dir == 1 ? j1 < i : j1 > i;
                boolean n2 = dir == 1 ? j2 < i : j2 > i;
                boolean n3 = dir == 1 ? j3 < i : j3 > i;
                double v0 = t0 ? (n0 ? (inLocal == 1 ? xs[j0] : x.get(j0)) : xOld.get(j0)) : 0.0;
                double v1 = t1 ? (n1 ? (inLocal == 1 ? xs[j1] : x.get(j1)) : xOld.get(j1)) : 0.0;
                double v2 = t2 ? (n2 ? (inLocal == 1 ? xs[j2] : x.get(j2)) : xOld.get(j2)) : 0.0;
                double v3 = t3 ? (n3 ? (inLocal == 1 ? xs[j3] : x.get(j3)) : xOld.get(j3)) : 0.0;
                double s = bi - a0 * v0 - a1 * v1 - a2 * v2 - a3 * v3;
                for (int q = start + 4; q < end; q++) {
                    int j = col.get(q);
                    boolean take = part == 0 ? j != i : part == 1 ? j < i : j > i;
                    boolean before = dir == 1 ? j < i : j > i;
                    if (take) {
                        s -= val.get(q) * (before ? (inLocal == 1 ? xs[j] : x.get(j)) : xOld.get(j));
                    }
                }
                double v = s / d;
                if (inLocal == 1) {
                    xs[i] = v;
                }
                x.set(i, v);
            }
            // rows of level l beyond the first one a work-item holds (levels wider than the work-group)
            for (int kk = k + size; kk < hi; kk += size) {
                int ii = order.get(kk);
                double s = b.get(ii);
                int e = rowPtr.get(ii + 1);
                for (int q = rowPtr.get(ii); q < e; q++) {
                    int j = col.get(q);
                    boolean take = part == 0 ? j != ii : part == 1 ? j < ii : j > ii;
                    boolean before = dir == 1 ? j < ii : j > ii;
                    if (take) {
                        s -= val.get(q) * (before ? (inLocal == 1 ? xs[j] : x.get(j)) : xOld.get(j));
                    }
                }
                double v = unit == 1 ? s : s / val.get(diagPos.get(ii));
                if (inLocal == 1) {
                    xs[ii] = v;
                }
                x.set(ii, v);
            }
            // the next level's first row, loaded before the barrier (nothing in it depends on this level's values)
            lo = hi;
            hi = l + 2 <= levels ? groupPtr.get(l + 2) : lo;
            k = lo + lid;
            i = order.get(k < hi ? k : 0);
            start = k < hi ? startAt.get(k) : 0;
            end = k < hi ? endAt.get(k) : 0;
            bi = k < hi ? b.get(i) : 0.0;
            d = k < hi && unit == 0 ? val.get(diagAt.get(k)) : 1.0;
            j0 = start < end ? col.get(start) : i;
            j1 = start + 1 < end ? col.get(start + 1) : i;
            j2 = start + 2 < end ? col.get(start + 2) : i;
            j3 = start + 3 < end ? col.get(start + 3) : i;
            a0 = start < end ? val.get(start) : 0.0;
            a1 = start + 1 < end ? val.get(start + 1) : 0.0;
            a2 = start + 2 < end ? val.get(start + 2) : 0.0;
            a3 = start + 3 < end ? val.get(start + 3) : 0.0;
            ctx.localBarrier();
        }
    }

    /** {@code dst = src}. */
    @Kernel
    public static void copy(@ReadOnly DoubleArray src, @NoAlias DoubleArray dst, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            dst.set(i, src.get(i));
        }
    }

    /** {@code x = 0}. */
    @Kernel
    public static void zero(DoubleArray x, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            x.set(i, 0.0);
        }
    }

    /** Jacobi: {@code z = r * invDiag}. */
    @Kernel
    public static void scaleBy(@ReadOnly DoubleArray invDiag, @ReadOnly DoubleArray r, @NoAlias DoubleArray z, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            z.set(i, invDiag.get(i) * r.get(i));
        }
    }

    /**
     * Multigrid restriction by injection of the residual, as HPCG: {@code rc[c] = rf[f] - axf[f]} with
     * {@code f = fineOf[c]}.
     */
    @Kernel
    public static void restrictResidual(@ReadOnly DoubleArray rf, @ReadOnly DoubleArray axf, @NoAlias DoubleArray rc,
                                        @ReadOnly IntArray fineOf, int nc) {
        for (@Parallel int c = 0; c < nc; c++) {
            int f = fineOf.get(c);
            rc.set(c, rf.get(f) - axf.get(f));
        }
    }

    /**
     * Multigrid residual and restriction in one pass, computing {@code A x} only where it is kept:
     * {@code rc[c] = rf[f] - sum_q val[q] xf[col[q]]} over the CSR row {@code f = fineOf[c]}. Equal to
     * {@link #restrictResidual} after a full SpMV, while reading only the fine rows at coarse points (one eighth of the
     * matrix on halved 3-D grids).
     */
    @Kernel
    public static void residualRestrict(@ReadOnly IntArray rowPtr, @ReadOnly IntArray col, @ReadOnly DoubleArray val, @ReadOnly DoubleArray rf,
                                        @ReadOnly DoubleArray xf, @NoAlias DoubleArray rc, @ReadOnly IntArray fineOf, int nc) {
        for (@Parallel int c = 0; c < nc; c++) {
            int f = fineOf.get(c);
            double ax = 0;
            int end = rowPtr.get(f + 1);
            for (int q = rowPtr.get(f); q < end; q++) {
                ax += val.get(q) * xf.get(col.get(q));
            }
            rc.set(c, rf.get(f) - ax);
        }
    }

    /** Multigrid prolongation by injection, as HPCG: {@code xf[fineOf[c]] += xc[c]}. */
    @Kernel
    public static void prolongAdd(DoubleArray xf, @ReadOnly DoubleArray xc, @ReadOnly IntArray fineOf, int nc) {
        for (@Parallel int c = 0; c < nc; c++) {
            int f = fineOf.get(c);
            xf.set(f, xf.get(f) + xc.get(c));
        }
    }
}
