package dev.squall.sparse.solve;

import dev.squall.sparse.format.CsrMatrix;
import dev.squall.sparse.inspect.Colouring;
import dev.squall.sparse.inspect.DependenceGraph;
import dev.squall.sparse.inspect.LevelSets;
import dev.squall.sparse.inspect.Schedule;
import dev.squall.sparse.inspect.ScheduleChooser;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.runtime.DataTransferMode;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import dev.squall.tasks.runtime.Precision;
import dev.squall.tasks.runtime.TaskGraph;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Gauss-Seidel sweeps {@code x <- (D + L)^-1 (b - U x)} (forward), the mirror (backward) and both (symmetric) on a
 * device: the inspector builds the dependence graph and a schedule once (level sets, which give exactly the
 * sequential sweep in natural order, or colours, which give the sequential sweep in colour order), the executor runs
 * one launch per level or colour (narrow levels chained, see {@link Sweeps}) with the matrix, b and x resident, the
 * matrix read from its CSR arrays or from a copy in schedule order ({@link Sweeper}).
 *
 * <pre>{@code
 * try (GaussSeidel gs = GaussSeidel.create(a, GaussSeidel.Ordering.AUTO, Precision.FP64, device, 512)) {
 *     gs.setB(b); gs.setX(x0);
 *     gs.sweep(GaussSeidel.Direction.SYMMETRIC, 10);
 *     double[] x = gs.x();
 * }
 * }</pre>
 */
public final class GaussSeidel implements AutoCloseable {
    /** Which sweep. */
    public enum Direction { FORWARD, BACKWARD, SYMMETRIC }

    /** How rows are scheduled. */
    public enum Ordering {
        AUTO, LEVELS, COLOURS,
        /** Natural order, one launch per sweep: work-items wait on the rows they read ({@link SyncFreeSweeper}). */
        SYNC_FREE,
        /** As {@link #SYNC_FREE} with work-items taking rows in level order. */
        SYNC_FREE_LEVELS,
        /** As {@link #SYNC_FREE}, waiting by warps of 32 rows ({@link SyncFreeSolve} with {@code warp}). */
        SYNC_FREE_WARP,
        /** As {@link #SYNC_FREE_LEVELS}, waiting by warps of 32 rows. */
        SYNC_FREE_WARP_LEVELS,
        /** As {@link #SYNC_FREE_WARP}, the lanes of a warp sharing rows ({@link SyncFreeSolve#lanesFor}). */
        SYNC_FREE_LANES,
        /** As {@link #SYNC_FREE_WARP_LEVELS}, the lanes of a warp sharing rows. */
        SYNC_FREE_LANES_LEVELS;

        /** Whether rows are scheduled by a sync-free solve. */
        public boolean syncFree() {
            return this == SYNC_FREE || this == SYNC_FREE_LEVELS || this == SYNC_FREE_WARP || this == SYNC_FREE_WARP_LEVELS
                    || this == SYNC_FREE_LANES || this == SYNC_FREE_LANES_LEVELS;
        }

        /**
         * {@code auto}, {@code levelset}/{@code levels}, {@code multicolor}/{@code multicolour}/{@code colours},
         * {@code syncfree}/{@code sync-free}, {@code syncfree-levels}.
         */
        public static Ordering parse(String s) {
            return switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "levelset", "levelsets", "levels", "level-set" -> LEVELS;
                case "multicolor", "multicolour", "colors", "colours", "color", "colour" -> COLOURS;
                case "syncfree", "sync-free" -> SYNC_FREE;
                case "syncfree-levels", "sync-free-levels" -> SYNC_FREE_LEVELS;
                case "syncfree-warp", "sync-free-warp" -> SYNC_FREE_WARP;
                case "syncfree-warp-levels", "sync-free-warp-levels" -> SYNC_FREE_WARP_LEVELS;
                case "syncfree-lanes", "sync-free-lanes" -> SYNC_FREE_LANES;
                case "syncfree-lanes-levels", "sync-free-lanes-levels" -> SYNC_FREE_LANES_LEVELS;
                default -> throw new IllegalArgumentException("--schedule must be auto, levelset, multicolor, syncfree, syncfree-levels, "
                        + "syncfree-warp, syncfree-warp-levels, syncfree-lanes or syncfree-lanes-levels, got '"
                        + s + "'");
            };
        }
    }

    /** A chosen pair of schedules (forward, backward), why, and the inspector's time. */
    public record Plan(Schedule forward, Schedule backward, String reason, double inspectorMillis, int edges) {
        /**
         * Inspects {@code a}: dependence graph, then level sets (forward and backward, by one pass each) or greedy
         * colours (backward = colours reversed), chosen by {@code o} or, for AUTO, by rows per level for {@code device}.
         */
        public static Plan of(CsrMatrix a, Ordering o, Device device) {
            long t0 = System.nanoTime();
            DependenceGraph g = DependenceGraph.of(a);
            Schedule fwd;
            String reason;
            switch (o) {
                case LEVELS -> {
                    fwd = LevelSets.forward(g);
                    reason = "level sets requested";
                }
                case COLOURS -> {
                    fwd = Colouring.greedy(g);
                    reason = "colours requested";
                }
                case SYNC_FREE, SYNC_FREE_LEVELS, SYNC_FREE_WARP, SYNC_FREE_WARP_LEVELS, SYNC_FREE_LANES, SYNC_FREE_LANES_LEVELS -> {
                    fwd = LevelSets.forward(g);
                    reason = "sync-free requested: one launch per sweep, work-items take rows in "
                            + (o == Ordering.SYNC_FREE || o == Ordering.SYNC_FREE_WARP || o == Ordering.SYNC_FREE_LANES ? "natural" : "level") + " order and wait on the rows they read";
                }
                default -> {
                    ScheduleChooser.Choice c = ScheduleChooser.choose(g, device);
                    fwd = c.schedule();
                    reason = "auto: " + c.reason();
                }
            }
            Schedule bwd = fwd.kind() == Schedule.Kind.FORWARD_LEVELS ? LevelSets.backward(g) : fwd.reversed();
            return new Plan(fwd, bwd, reason, (System.nanoTime() - t0) / 1e6, g.edges());
        }
    }

    private final DeviceMatrix m;
    private final Precision p;
    private final Device device;
    private final Plan plan;
    private final Sweeper sweeper;
    private final KernelArray b;
    private final KernelArray x;
    private final ExecutionPlan upload;
    private final Map<Direction, ExecutionPlan> runs = new EnumMap<>(Direction.class);
    private final Map<Direction, Integer> runSweeps = new EnumMap<>(Direction.class);
    private ExecutionResult last;
    private boolean dirty = true;
    private static int serial;

    private GaussSeidel(DeviceMatrix m, Plan plan, Ordering o, Precision p, Device device, int chainMax, Sweeper.Layout layout) {
        this.m = m;
        this.p = p;
        this.device = device;
        this.plan = plan;
        this.sweeper = sweeper(m, plan, o, p, chainMax, layout, device.info().isGpu());
        this.b = p.allocate(Math.max(1, m.rows()));
        this.x = p.allocate(Math.max(1, m.rows()));
        String id;
        synchronized (GaussSeidel.class) {
            id = "gs" + serial++;
        }
        this.upload = new ExecutionPlan(new TaskGraph(id + "in").transferToDevice(DataTransferMode.EVERY_EXECUTION, b, x).snapshot());
        upload.withDevice(device);
    }

    /**
     * Inspects {@code a} and binds the sweeps to {@code device}; {@code chainMax} is the widest level walked inside a
     * single-work-group chain (0: a launch per level).
     *
     * @throws IllegalArgumentException if {@code a} is not square or a diagonal entry is missing or zero (the row is named)
     */
    public static GaussSeidel create(CsrMatrix a, Ordering o, Precision p, Device device, int chainMax) {
        return create(a, o, p, device, chainMax, Sweeper.Layout.AUTO);
    }

    /** As {@link #create(CsrMatrix, Ordering, Precision, Device, int)} with the sweeps' matrix layout given. */
    public static GaussSeidel create(CsrMatrix a, Ordering o, Precision p, Device device, int chainMax, Sweeper.Layout layout) {
        DeviceMatrix m = DeviceMatrix.of(a, p);
        return new GaussSeidel(m, Plan.of(a, o, device), o, p, device, chainMax, layout);
    }

    /**
     * The sweeper for {@code plan} and ordering {@code o}: {@link SyncFreeSweeper} for {@code SYNC_FREE} (rows in natural
     * order) and {@code SYNC_FREE_LEVELS} (rows in the plan's level order), else {@link Sweeper#create}.
     */
    public static Sweeper sweeper(DeviceMatrix m, Plan plan, Ordering o, Precision p, int chainMax, Sweeper.Layout layout, boolean gpu) {
        return switch (o) {
            case SYNC_FREE -> new SyncFreeSweeper(m, p, SyncFreeSolve.natural(m.rows()));
            case SYNC_FREE_LEVELS -> new SyncFreeSweeper(m, p, new SyncFreeSolve(plan.forward().order(), plan.backward().order(), "level order"));
            case SYNC_FREE_WARP -> new SyncFreeSweeper(m, p, SyncFreeSolve.natural(m.rows(), true));
            case SYNC_FREE_WARP_LEVELS -> new SyncFreeSweeper(m, p, new SyncFreeSolve(plan.forward().order(), plan.backward().order(), "level order", true));
            case SYNC_FREE_LANES -> new SyncFreeSweeper(m, p, SyncFreeSolve.natural(m.rows(), SyncFreeSolve.lanes(m.matrix()), SyncFreeSolve.waitMode()));
            case SYNC_FREE_LANES_LEVELS -> new SyncFreeSweeper(m, p, SyncFreeSolve.levels(plan.forward(), plan.backward(), m.matrix()));
            default -> Sweeper.create(m, plan, p, chainMax, layout, gpu);
        };
    }

    /** The schedules and the reason for them. */
    public Plan plan() {
        return plan;
    }

    /** The sweeps' launches and layout. */
    public Sweeper sweeper() {
        return sweeper;
    }

    /** Sets the right-hand side (copied to the device before the next sweep). */
    public void setB(double[] v) {
        check(v);
        Precision.write(b, v);
        dirty = true;
    }

    /** Sets the iterate (copied to the device before the next sweep). */
    public void setX(double[] v) {
        check(v);
        Precision.write(x, v);
        dirty = true;
    }

    private void check(double[] v) {
        if (v.length != m.rows()) throw new IllegalArgumentException("vector has " + v.length + " entries, the matrix has " + m.rows() + " rows");
    }

    /** Runs {@code sweeps} sweeps of {@code d} back to back in one graph; returns their device time in milliseconds. */
    public double sweep(Direction d, int sweeps) {
        if (sweeps < 1) throw new IllegalArgumentException("sweeps " + sweeps + " must be at least 1");
        if (dirty) {
            upload.execute();
            dirty = false;
        }
        ExecutionPlan run = runs.get(d);
        if (run == null || runSweeps.get(d) != sweeps) {
            if (run != null) run.close();
            TaskGraph g = new TaskGraph("gs" + d.name().toLowerCase(Locale.ROOT) + sweeps + "x" + System.identityHashCode(this));
            for (int s = 0; s < sweeps; s++) {
                if (d != Direction.BACKWARD) sweeper.appendForward(g, "s" + s + "f", b, x);
                if (d != Direction.FORWARD) sweeper.appendBackward(g, "s" + s + "b", b, x);
            }
            run = new ExecutionPlan(g.snapshot());
            run.withDevice(device).withProfiler(true);
            runs.put(d, run);
            runSweeps.put(d, sweeps);
        }
        last = run.execute();
        return last.profile().kernelMillis();
    }

    /** The iterate after the last sweep. */
    public double[] x() {
        if (last != null) last.transferToHost(x);
        return Precision.read(x, m.rows());
    }

    /** Releases the plans and the device copies of the arrays. */
    @Override
    public void close() {
        for (ExecutionPlan r : runs.values()) {
            r.freeDeviceMemory();
            r.close();
        }
        upload.freeDeviceMemory();
        upload.close();
    }
}
