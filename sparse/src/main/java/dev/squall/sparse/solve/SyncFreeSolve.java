package dev.squall.sparse.solve;

import static dev.squall.sparse.exec.DeviceArrays.ints;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.solve.kernels.SolverKernelVariants;
import dev.squall.sparse.solve.kernels.SolverKernels;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import dev.squall.tasks.runtime.WorkerGrid;

/**
 * Triangular solves and sweeps in one launch each, without level synchronisation ({@link SolverKernels#syncFreeRows}:
 * a work-item per row waits on flags of the rows it reads), so a solve whose level sets are many and narrow (a
 * natural-order 3D stencil has about 3N levels on N^3 rows) costs two launches (clear the flags, solve) rather than one
 * per level. Work-items take rows in the given orders, which must list every row after the rows it waits on: natural
 * order ({@link #natural}, no inspector) or the level order of the forward and backward level sets (rows of a warp then
 * rarely wait on each other).
 *
 * <pre>{@code
 * SyncFreeSolve s = SyncFreeSolve.natural(n);
 * s.append(graph, "L", p, m, lu, r, r, y, true, SolverKernels.LOWER, 1);    // y = L^-1 r, L unit lower
 * s.append(graph, "U", p, m, lu, y, y, z, false, SolverKernels.UPPER, 0);   // z = U^-1 y
 * }</pre>
 */
public final class SyncFreeSolve {
    /** Work-items per work-group. */
    public static final int GROUP = 128;
    /** Work-items per work-group (one sub-group) of the solve that waits by warps. */
    public static final int WARP = 32;
    /** Lanes-sharing solve: every unfinished row passes again until its inputs are there. */
    public static final int WAIT_PASS = 0;
    /**
     * Work-items per work-group of the lanes-sharing solve: 4 warps, so a launch has a quarter of the work-groups (and
     * ticket atomics) of one-warp groups and a multiprocessor holds more warps (one-warp groups stop at 32 a
     * multiprocessor).
     */
    public static final int LANE_GROUP = 128;
    /** Work-items of the work-group that walks a small matrix's levels in local memory ({@link #walk}). */
    public static final int LOCAL_GROUP = 256;
    /** Work-items of the work-group that walks narrow levels through global memory ({@link #walk}): a level's rows at once. */
    public static final int WALK_GROUP = 1024;
    /**
     * Mean rows per level up to which {@link #levels} walks the levels in one work-group of {@link #WALK_GROUP}: 0 (never),
     * as the walk through global memory measured 3.6 us a level on the 5-point 1000^2 triangle (7.2 ms, the
     * lanes-sharing solve 2.24) and 24 us on the 7-point 90^3 one: its next-level loads are a chain of three
     * (order, row pointer, entries), one L2 or DRAM round trip each, that a barrier a level does not hide.
     */
    public static final int WALK_WIDTH = 0;
    /** Lanes-sharing solve: between passes lane 0 spins on the missing input latest in the order (work-groups of 32). */
    public static final int WAIT_LATEST = 1;
    /**
     * Lanes-sharing solve: each lane spins on its own missing inputs of earlier blocks before the pass sums (a load,
     * a test and a branch a memory round trip: waiting warps leave the multiprocessor's issue slots to working ones);
     * inputs inside the block are waited on by passing again.
     */
    public static final int WAIT_LANES = 2;

    private final int n;
    private final IntArray forward;
    private final IntArray backward;
    private final int[] forwardOrder;
    private final int[] backwardOrder;
    private final IntArray ready;
    private final IntArray ticket;
    private final String orderName;
    private final boolean warp;
    private final int lanes;
    private final int spin;
    private final int laneGroup;
    private final IntArray forwardPos;
    private final IntArray backwardPos;
    private final int inLocal;
    private final IntArray forwardLevels;
    private final IntArray backwardLevels;
    private final int forwardLevelCount;
    private final int backwardLevelCount;
    private final KernelArray[] readyByPrecision = new KernelArray[Precision.values().length];
    private final KernelArray[] spareByPrecision = new KernelArray[Precision.values().length];
    private final IntArray spareTicket = new IntArray(1);

    /**
     * Whether the lanes-sharing solve is preceded by a launch as costly as the clearing launch it no longer needs (it
     * clears a spare array): system property {@code squall.sparse.syncFreeClear}, for measuring that launch's cost.
     */
    static final boolean CLEAR_LAUNCH = Boolean.getBoolean("squall.sparse.syncFreeClear");

    /** Solves over {@code forwardOrder} (rows waiting on earlier ones) and {@code backwardOrder} (on later ones). */
    public SyncFreeSolve(int[] forwardOrder, int[] backwardOrder, String orderName) {
        this(forwardOrder, backwardOrder, orderName, false);
    }

    /**
     * As {@link #SyncFreeSolve(int[], int[], String)}; {@code warp} waits by sub-groups of 32 rows
     * ({@link SolverKernels#syncFreeWarpRows}: one spinning lane per warp, rows inside a warp in lockstep rounds, values
     * that are their own flags: {@code x} is set to NaN before each solve) rather than by work-item
     * ({@link SolverKernels#syncFreeRows}).
     */
    public SyncFreeSolve(int[] forwardOrder, int[] backwardOrder, String orderName, boolean warp) {
        this(forwardOrder, backwardOrder, orderName, warp, 0, WAIT_PASS);
    }

    /**
     * As {@link #SyncFreeSolve(int[], int[], String, boolean)} by warps; {@code lanes > 0} (a power of two up to 32)
     * shares each row among that many lanes ({@link SolverKernels#syncFreeLaneRows}), waiting as {@code wait} says
     * ({@link #WAIT_PASS}, {@link #WAIT_LATEST}, {@link #WAIT_LANES}).
     */
    public SyncFreeSolve(int[] forwardOrder, int[] backwardOrder, String orderName, boolean warp, int lanes, int wait) {
        this(forwardOrder, backwardOrder, orderName, warp, lanes, wait, laneGroup());
    }

    /** As above with {@code group} work-items per work-group of the lanes-sharing solve (32, 64, 128 or 256). */
    public SyncFreeSolve(int[] forwardOrder, int[] backwardOrder, String orderName, boolean warp, int lanes, int wait, int group) {
        this(forwardOrder, backwardOrder, orderName, warp, lanes, wait, group, null, null, false);
    }

    /**
     * One work-group walking the levels {@code forward} and {@code backward} (orders and boundaries) with a barrier
     * between levels ({@link SolverKernels#walkLevels}): one launch, no flags. {@code inLocal}: the values are kept in
     * local memory too (at most {@link SolverKernels#LOCAL_ROWS} rows; work-groups of {@link #LOCAL_GROUP}), else read
     * from the solution vector (work-groups of {@link #WALK_GROUP}).
     */
    public static SyncFreeSolve walk(Schedule forward, Schedule backward, boolean inLocal) {
        if (inLocal && forward.rows() > SolverKernels.LOCAL_ROWS) {
            throw new IllegalArgumentException("a solve in one work-group's local memory takes at most " + SolverKernels.LOCAL_ROWS + " rows, got " + forward.rows());
        }
        return new SyncFreeSolve(forward.order(), backward.order(), "level order", true, 0, WAIT_PASS, inLocal ? LOCAL_GROUP : WALK_GROUP,
                forward.groupPtr(), backward.groupPtr(), inLocal);
    }

    /** {@code rowPtr[order[k]] (+ 1 when next)} for each position k, or {@code diagPos[order[k]]}: the walk's loads by position. */
    private static IntArray byPosition(int[] order, int[] perRow, int shift) {
        int[] a = new int[Math.max(1, order.length)];
        for (int k = 0; k < order.length; k++) a[k] = perRow[order[k] + shift];
        return ints(a);
    }

    /** The walk's row extents and diagonal positions by position in its orders, built on its first append for {@code m}. */
    private void positionArrays(DeviceMatrix m) {
        if (walkArrays != null) return;
        int[] rowPtr = m.matrix().rowPtr();
        int[] diag = dev.squall.sparse.inspect.Diagonal.positions(m.matrix());
        walkArrays = new IntArray[] {byPosition(forwardOrder, rowPtr, 0), byPosition(forwardOrder, rowPtr, 1), byPosition(forwardOrder, diag, 0),
                byPosition(backwardOrder, rowPtr, 0), byPosition(backwardOrder, rowPtr, 1), byPosition(backwardOrder, diag, 0)};
        walkMatrix = m;
    }

    private IntArray[] walkArrays;
    private DeviceMatrix walkMatrix;

    /**
     * The solve for matrix {@code m} over its forward and backward level sets, chosen from the H100 measurements of
     * {@code h100/sparse/2026-11-25-trsv3-midpoint}, with the reason in {@link #orderName()}: {@link #walk} in local
     * memory when {@code m} has at most {@link SolverKernels#LOCAL_ROWS} rows (bus1138, ani4, bcsstk01: 1.33-1.70x
     * cuSPARSE, the lanes-sharing solve 0.78x); {@link #walk} through global memory when the levels hold on average at
     * most {@link #walkWidth()} rows (off by default: 5-point 1000^2 7.2 ms against 2.24 by the lanes-sharing solve);
     * else the lanes-sharing sync-free solve in level order waiting by {@link #waitMode}, with {@link #lanesForLevels}
     * lanes a row. The system property {@code squall.sparse.syncFreeLocal=false} turns the local-memory walk off (for
     * measuring).
     */
    public static SyncFreeSolve levels(Schedule forward, Schedule backward, CsrMatrix m) {
        boolean local = !"false".equals(System.getProperty("squall.sparse.syncFreeLocal", "true").strip());
        double mean = Math.max(forward.meanRows(), backward.meanRows());
        if (local && m.rows() <= SolverKernels.LOCAL_ROWS) {
            return walk(forward, backward, true).because(m.rows() + " rows, at most " + SolverKernels.LOCAL_ROWS);
        }
        if (mean <= walkWidth()) return walk(forward, backward, false).because(String.format(java.util.Locale.ROOT, "levels of %.0f rows on average, at most %d", mean, walkWidth()));
        String v = System.getProperty("squall.sparse.syncFreeLanes");
        int l = v == null || v.isBlank() ? lanesForLevels(m, mean) : Integer.parseInt(v.strip());
        String why = v == null || v.isBlank()
                ? String.format(java.util.Locale.ROOT, "%d rows, levels of %.0f rows on average%s", m.rows(), mean,
                        mean >= WIDE_LEVEL ? " (at least " + WIDE_LEVEL + ": at least " + WIDE_LANES + " lanes)" : "")
                : "lanes set by squall.sparse.syncFreeLanes";
        return new SyncFreeSolve(forward.order(), backward.order(), "level order", true, l, waitMode()).because(why);
    }

    /** Mean rows per level from which {@link #lanesForLevels} gives rows at least {@link #WIDE_LANES} lanes. */
    public static final int WIDE_LEVEL = 1024;
    /** Least lanes a row over wide levels. */
    public static final int WIDE_LANES = 8;

    /**
     * Lanes per row of the level-order lanes-sharing solve: {@link #lanesFor}, raised to {@link #WIDE_LANES} when the
     * levels hold on average at least {@link #WIDE_LEVEL} rows. Fitted on three H100 measurements (27-point 128^3,
     * 2356 rows a level: 8 lanes, 1.311 ms; 7-point 90^3, 2720 rows: 8 lanes 0.403 ms, 2 lanes 0.569; 5-point 1000^2,
     * 500 rows: 2 lanes 2.238 ms, 8 lanes 2.507): over wide levels, 4 rows a warp keep ~17k rows in flight (6-7
     * levels) instead of ~68k whose passes poll L2 far ahead of the finished rows.
     */
    public static int lanesForLevels(CsrMatrix m, double meanLevelRows) {
        int l = lanesFor(m);
        return meanLevelRows >= WIDE_LEVEL ? Math.max(l, WIDE_LANES) : l;
    }

    private String why;

    /** Records why this solve was chosen, for {@link #orderName()}. */
    private SyncFreeSolve because(String reason) {
        this.why = reason;
        return this;
    }

    /**
     * Mean rows per level up to which {@link #levels} walks the levels in one work-group: the system property
     * {@code squall.sparse.levelWalkWidth} (0: never), else {@link #WALK_WIDTH}.
     */
    public static int walkWidth() {
        return Integer.getInteger("squall.sparse.levelWalkWidth", WALK_WIDTH);
    }

    private SyncFreeSolve(int[] forwardOrder, int[] backwardOrder, String orderName, boolean warp, int lanes, int wait, int group,
                          int[] forwardPtr, int[] backwardPtr, boolean inLocal) {
        if (forwardPtr == null && group != 32 && group != 64 && group != 128 && group != 256) {
            throw new IllegalArgumentException("work-group of the sync-free solve must be 32, 64, 128 or 256, got " + group);
        }
        if (wait < WAIT_PASS || wait > WAIT_LANES) throw new IllegalArgumentException("wait mode must be 0, 1 or 2, got " + wait);
        if (wait == WAIT_LATEST && group != WARP) {
            throw new IllegalArgumentException("a spinning lane 0 takes work-groups of 32 (one sub-group), got " + group);
        }
        if (lanes < 0 || lanes > WARP || Integer.bitCount(Math.max(1, lanes)) != 1) {
            throw new IllegalArgumentException("lanes per row must be a power of two from 1 to 32 (0: a work-item per row), got " + lanes);
        }
        if (forwardOrder.length != backwardOrder.length) {
            throw new IllegalArgumentException("forward order has " + forwardOrder.length + " rows, backward " + backwardOrder.length);
        }
        this.n = forwardOrder.length;
        this.forward = ints(forwardOrder);
        this.backward = ints(backwardOrder);
        this.forwardOrder = forwardOrder;
        this.backwardOrder = backwardOrder;
        this.ready = new IntArray(Math.max(1, n));
        this.ticket = new IntArray(1);
        this.orderName = orderName;
        this.warp = warp || lanes > 0;
        this.lanes = lanes;
        this.spin = wait;
        this.laneGroup = group;
        boolean local = forwardPtr != null;
        this.inLocal = local && inLocal ? 1 : 0;
        this.forwardPos = this.warp && !local ? ints(inverse(forwardOrder)) : null;
        this.backwardPos = this.warp && !local ? ints(inverse(backwardOrder)) : null;
        this.forwardLevels = local ? ints(forwardPtr) : null;
        this.backwardLevels = local ? ints(backwardPtr) : null;
        this.forwardLevelCount = local ? forwardPtr.length - 1 : 0;
        this.backwardLevelCount = local ? backwardPtr.length - 1 : 0;
    }

    private static int[] inverse(int[] order) {
        int[] pos = new int[Math.max(1, order.length)];
        for (int k = 0; k < order.length; k++) pos[order[k]] = k;
        return pos;
    }

    /** Rows in natural order forward and in reverse natural order backward: no inspector. */
    public static SyncFreeSolve natural(int n) {
        return natural(n, false);
    }

    /** As {@link #natural(int)}, waiting by sub-groups when {@code warp}. */
    public static SyncFreeSolve natural(int n, boolean warp) {
        int[] f = new int[n], b = new int[n];
        for (int i = 0; i < n; i++) {
            f[i] = i;
            b[i] = n - 1 - i;
        }
        return new SyncFreeSolve(f, b, "natural order", warp);
    }

    /** As {@link #natural(int, boolean)}, {@code lanes} work-items sharing each row ({@link SyncFreeSolve#SyncFreeSolve(int[], int[], String, boolean, int, boolean)}). */
    public static SyncFreeSolve natural(int n, int lanes, int wait) {
        int[] f = new int[n], b = new int[n];
        for (int i = 0; i < n; i++) {
            f[i] = i;
            b[i] = n - 1 - i;
        }
        return new SyncFreeSolve(f, b, "natural order", true, lanes, wait);
    }

    /**
     * Lanes per row for {@link SolverKernels#syncFreeLaneRows} on {@code m}: the power of two at least half the mean
     * row length, from 2 to 32 (two entries a lane read once before the passes; entries of rows longer than twice the
     * lanes are walked in turns): more rows a warp, fewer work-groups.
     */
    public static int lanesFor(CsrMatrix m) {
        double mean = m.rows() == 0 ? 1 : (double) m.nnz() / m.rows();
        int l = 2;
        while (l < WARP && 2 * l < mean) l *= 2;
        return l;
    }

    /**
     * Lanes per row for {@code m}: the system property {@code squall.sparse.syncFreeLanes} when set (a power of two
     * from 1 to 32, for measuring the choice), else {@link #lanesFor}.
     */
    public static int lanes(CsrMatrix m) {
        String v = System.getProperty("squall.sparse.syncFreeLanes");
        return v == null || v.isBlank() ? lanesFor(m) : Integer.parseInt(v.strip());
    }

    /**
     * Work-items per work-group of the solve whose lanes share rows: the system property
     * {@code squall.sparse.syncFreeGroup} (32, 64, 128 or 256, for measuring the choice), else {@link #LANE_GROUP}.
     */
    static int laneGroup() {
        int g = Integer.getInteger("squall.sparse.syncFreeGroup", LANE_GROUP);
        if (g != 32 && g != 64 && g != 128 && g != 256) {
            throw new IllegalArgumentException("squall.sparse.syncFreeGroup must be 32, 64, 128 or 256, got " + g);
        }
        return g;
    }

    /**
     * How the solve whose lanes share rows waits: the system property {@code squall.sparse.syncFreeWait} ({@code pass},
     * {@code latest} or {@code lanes}, for measuring the choice), else {@link #WAIT_PASS} (on the H100's 27-point
     * 128^3 triangle 1.46 ms against 1.92 for {@link #WAIT_LANES}: h100/sparse/2026-11-25-trsv-lanes).
     */
    public static int waitMode() {
        String v = System.getProperty("squall.sparse.syncFreeWait", "pass").strip();
        return switch (v) {
            case "pass" -> WAIT_PASS;
            case "latest" -> WAIT_LATEST;
            case "lanes" -> WAIT_LANES;
            default -> throw new IllegalArgumentException("squall.sparse.syncFreeWait must be pass, latest or lanes, got '" + v + "'");
        };
    }

    /** Work-items per row (0: a row per work-item). */
    public int lanes() {
        return lanes;
    }

    /** How work-items take rows, for reports. */
    public String orderName() {
        String reason = why == null ? "" : " [" + why + "]";
        if (forwardLevels != null) {
            return orderName + ", one work-group of " + laneGroup + " walking the levels" + (inLocal == 1 ? ", values in local memory" : "") + reason;
        }
        return reason.isEmpty() ? description() : description() + reason;
    }

    private String description() {
        return orderName + (lanes > 0 ? ", " + lanes + " lanes a row" + (spin == WAIT_LATEST ? ", lane 0 spinning" : spin == WAIT_PASS ? ", waiting by passes" : ", lanes spinning")
                + (laneGroup != WARP ? ", work-groups of " + laneGroup : "") : warp ? ", waiting by warps" : "");
    }

    /** Launches of one solve: the lanes-sharing solve clears nothing before it runs. */
    public int launches() {
        return n == 0 ? 0 : forwardLevels != null || lanes > 0 && !CLEAR_LAUNCH ? 1 : 2;
    }

    /**
     * The lanes-sharing solve's values-as-flags in precision {@code p}, {@code size} of them (2n: two solves' halves;
     * n: the measuring launch of {@link #CLEAR_LAUNCH}), all NaN before the first solve; one array per precision,
     * kept for every later solve (its halves must stay in step with {@link #ticket}).
     */
    private KernelArray readyValues(Precision p, int size) {
        KernelArray[] held = size == 2 * n ? readyByPrecision : spareByPrecision;
        int slot = p.ordinal();
        if (held[slot] == null) {
            KernelArray a = p.allocate(Math.max(1, size));
            double[] nan = new double[Math.max(1, size)];
            java.util.Arrays.fill(nan, Double.NaN);
            Precision.write(a, nan);
            held[slot] = a;
        }
        return held[slot];
    }

    /**
     * Appends one solve {@code x[i] = (b[i] - sum_part val_ij x'[j]) / (unit ? 1 : val_ii)}, where {@code x'[j]} is the
     * new value for rows before {@code i} in the sweep ({@code j < i} when {@code forward}, else {@code j > i}) and
     * {@code xOld[j]} for the others; {@code x} must not be {@code xOld} when {@code part} takes columns on both sides,
     * nor {@code b} when solving by warps.
     */
    public void append(TaskGraph g, String prefix, Precision p, DeviceMatrix m, KernelArray val, KernelArray b, KernelArray xOld,
                       KernelArray x, boolean forward, int part, int unit) {
        if (m.rows() != n) throw new IllegalArgumentException("matrix has " + m.rows() + " rows, the solve's order " + n);
        if (n == 0) return;
        if (forwardLevels != null) {
            positionArrays(m);
            if (walkMatrix.matrix() != m.matrix()) {
                throw new IllegalArgumentException("a level walk serves the matrix it was first appended with");
            }
            int o = forward ? 0 : 3;
            g.task(prefix + "/solve", WorkerGrid.of(laneGroup).withLocal(laneGroup), SolverKernelVariants.walkLevels.at(p), new KernelContext(),
                    m.rowPtr(), m.col(), val, m.diagPos(), b, xOld, x, forward ? this.forward : this.backward,
                    forward ? forwardLevels : backwardLevels, walkArrays[o], walkArrays[o + 1], walkArrays[o + 2],
                    forward ? forwardLevelCount : backwardLevelCount, forward ? 1 : -1, part, unit, inLocal);
            return;
        }
        if (warp) {
            if (lanes > 0) {
                if (CLEAR_LAUNCH) g.task(prefix + "/clear", SolverKernelVariants.syncFreeResetValues.at(p), readyValues(p, n), spareTicket, n);
                int rowsPerGroup = laneGroup / lanes;
                long groups = ((long) n + rowsPerGroup - 1) / rowsPerGroup;
                g.task(prefix + "/solve", WorkerGrid.of(groups * laneGroup).withLocal(laneGroup), SolverKernelVariants.syncFreeLaneRows.at(p), new KernelContext(),
                        m.rowPtr(), m.col(), val, m.diagPos(), b, xOld, x, readyValues(p, 2 * n), ticket, forward ? this.forward : this.backward,
                        forward ? forwardPos : backwardPos, n, forward ? 1 : -1, part, unit, lanes, spin);
                return;
            }
            if (x == b) throw new IllegalArgumentException("a sync-free solve by warps marks x as not computed before solving: x must not be b");
            g.task(prefix + "/clear", SolverKernelVariants.syncFreeResetValues.at(p), x, ticket, n);
            long items = ((long) n + WARP - 1) / WARP * WARP;
            g.task(prefix + "/solve", WorkerGrid.of(items).withLocal(WARP), SolverKernelVariants.syncFreeWarpRows.at(p), new KernelContext(),
                    m.rowPtr(), m.col(), val, m.diagPos(), b, xOld, x, ticket, forward ? this.forward : this.backward,
                    forward ? forwardPos : backwardPos, n, forward ? 1 : -1, part, unit);
            return;
        }
        g.task(prefix + "/clear", SolverKernelVariants.syncFreeReset.at(p), ready, ticket, n);
        long items = ((long) n + GROUP - 1) / GROUP * GROUP;
        g.task(prefix + "/solve", WorkerGrid.of(items).withLocal(GROUP), SolverKernelVariants.syncFreeRows.at(p), new KernelContext(),
                m.rowPtr(), m.col(), val, m.diagPos(), b, xOld, x, ready, ticket, forward ? this.forward : this.backward, n,
                forward ? 1 : -1, part, unit);
    }
}
