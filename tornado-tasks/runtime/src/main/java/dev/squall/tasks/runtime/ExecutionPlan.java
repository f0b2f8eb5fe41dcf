package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.spi.*;

import java.util.*;

/**
 * Binds task graphs to a device and runs them. The first {@link #execute()} builds the programs
 * (from the on-disk cache when possible), allocates device copies and binds arguments; later
 * executions only copy what the transfer modes ask for and launch. Data stays on the device
 * between executions and between plans that share arrays.
 *
 * <pre>{@code
 * try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot())) {
 *     plan.withDevice(Devices.get("cuda:0")).withProfiler(true);
 *     System.out.println(plan.execute().profile());
 * }
 * }</pre>
 */
public final class ExecutionPlan implements AutoCloseable {
    private static final long[] LOCAL_2D = {16, 16}, LOCAL_3D = {8, 8, 4};
    /**
     * Most work-items along x for a loop-parallel kernel; the grid-stride loop covers the rest.
     * {@code -Dsquall.loopGlobalCap=N} lowers it (a persistent grid: each work-item strides over several iterations).
     */
    private static final long LOOP_GLOBAL_CAP = Math.max(1, Long.getLong("squall.loopGlobalCap", 1L << 30));

    private final List<ImmutableTaskGraph> graphs;
    private final Map<String, WorkerGrid> grids = new HashMap<>();
    private Device device;
    private boolean profiling;
    private List<Action> prepared;
    private double pendingCompileMillis;
    private boolean firstExecution = true;

    public ExecutionPlan(ImmutableTaskGraph... graphs) {
        if (graphs.length == 0) throw new IllegalArgumentException("an execution plan needs at least one task graph");
        this.graphs = List.of(graphs);
    }

    /** Runs on this device from the next execution on (default: {@link Devices#select} with no explicit id). */
    public synchronized ExecutionPlan withDevice(Device d) {
        if (d != device) {
            release();
            device = d;
            firstExecution = true;
        }
        return this;
    }

    public ExecutionPlan withDevice(String id) {
        return withDevice(Devices.get(id));
    }

    /** The launch grid of a task, by {@code "task"} or {@code "graph.task"}. Required for SPMD kernels. */
    public synchronized ExecutionPlan withGrid(String task, WorkerGrid grid) {
        String t = task.contains(".") ? task.substring(task.indexOf('.') + 1) : task;
        boolean known = graphs.stream().anyMatch(g -> g.taskNames().contains(t));
        if (!known) throw new IllegalArgumentException("no task " + task + " in this plan");
        grids.put(t, grid);
        release();
        return this;
    }

    /** Measures device time of transfers and kernels with device events (costs a few microseconds per execution). */
    public synchronized ExecutionPlan withProfiler(boolean on) {
        profiling = on;
        return this;
    }

    public synchronized Device device() {
        if (device == null) device = Devices.select(null);
        return device;
    }

    /** Runs every graph once, in order; returns when results staged for the host are there. */
    public synchronized ExecutionResult execute() {
        long t0 = System.nanoTime();
        Device dev = device();
        if (prepared == null) prepare(dev);
        NativeDevice nd = dev.backend();
        boolean prof = profiling;
        double toDev = Double.NaN, kern = Double.NaN, toHost = Double.NaN;
        if (!prof) {
            for (Action x : prepared) x.run(firstExecution);
            nd.synchronize();
        } else {
            DeviceEvent e0 = nd.record(), e1 = null, e2 = null;
            int phase = 0; // 0 uploads, 1 kernels, 2 downloads
            for (Action x : prepared) {
                int p = x instanceof Upload ? 0 : x instanceof LaunchAction ? 1 : 2;
                while (phase < p) {
                    if (phase == 0) e1 = nd.record();
                    else e2 = nd.record();
                    phase++;
                }
                x.run(firstExecution);
            }
            if (e1 == null) e1 = nd.record();
            if (e2 == null) e2 = nd.record();
            DeviceEvent e3 = nd.record();
            nd.synchronize();
            toDev = e1.millisSince(e0);
            kern = e2.millisSince(e1);
            toHost = e3.millisSince(e2);
            for (DeviceEvent e : new DeviceEvent[] {e0, e1, e2, e3}) e.release();
        }
        firstExecution = false;
        double compile = pendingCompileMillis;
        pendingCompileMillis = 0;
        return new ExecutionResult(this, new Profile(compile, toDev, kern, toHost, (System.nanoTime() - t0) / 1e3));
    }

    /** Frees the device copies of every array this plan uses. */
    public synchronized void freeDeviceMemory() {
        Device dev = device();
        for (ImmutableTaskGraph g : graphs) {
            for (TaskGraph.Step s : g.steps) {
                if (s instanceof TaskGraph.Transfer t) dev.free(t.array());
                if (s instanceof TaskGraph.TaskStep t) for (Object a : t.args()) if (a instanceof KernelArray k) dev.free(k);
            }
        }
        release();
        firstExecution = true;
    }

    /** Releases bound launches; device copies of arrays stay until freed or unreachable. */
    @Override
    public synchronized void close() {
        release();
    }

    synchronized void copyToHost(KernelArray[] arrays) {
        Device dev = device();
        boolean[] created = new boolean[1];
        for (KernelArray a : arrays) {
            if (!dev.holds(a)) throw new IllegalArgumentException(a + " has no copy on " + dev.id());
            DeviceBuffer b = dev.buffer(a, created);
            if (a.byteSize() > 0) dev.backend().copyToHost(b, 0, a.segment(), a.byteSize());
        }
    }

    private void release() {
        if (prepared != null) for (Action a : prepared) a.release();
        prepared = null;
    }

    // ---- preparation ----

    private void prepare(Device dev) {
        long t0 = System.nanoTime();
        List<Action> actions = new ArrayList<>();
        for (ImmutableTaskGraph g : graphs) {
            for (TaskGraph.Step s : g.steps) {
                switch (s) {
                    case TaskGraph.Transfer t when t.toDevice() -> actions.add(new Upload(dev, t.array(), t.mode()));
                    case TaskGraph.Transfer t -> actions.add(new Download(dev, t.array(), t.mode()));
                    case TaskGraph.TaskStep t -> actions.add(prepareTask(dev, g, t));
                }
            }
        }
        prepared = actions;
        pendingCompileMillis = (System.nanoTime() - t0) / 1e6;
    }

    private LaunchAction prepareTask(Device dev, ImmutableTaskGraph g, TaskGraph.TaskStep t) {
        String task = g.name() + "." + t.name();
        KernelInfo info;
        DeviceKernel kernel;
        switch (t.kernel()) {
            case KernelRef ref -> {
                info = KernelRegistry.info(ref);
                checkArguments(task, ref.toString(), info, t.args());
                kernel = null; // looked up once the grid is known: an empty loop needs no program
            }
            case RuntimeKernel rk -> {
                info = rk.info();
                checkArguments(task, rk.toString(), info, t.args());
                if (rk.device() != dev) {
                    throw new IllegalArgumentException("task " + task + " runs " + rk + ", but this plan runs on " + dev.id()
                            + ": compile it for " + dev.id() + " with device.compile(...)");
                }
                kernel = rk.deviceKernel();
            }
        }
        WorkerGrid grid = grids.getOrDefault(t.name(), t.grid());
        long[] global, local;
        if (grid != null) {
            global = grid.global();
            local = grid.local() != null ? grid.local() : defaultLocal(global, dev);
        } else if (info.style() == KernelInfo.Style.SPMD) {
            throw new IllegalArgumentException("task " + task + " runs SPMD kernel " + t.kernel()
                    + ", which needs a grid: give it with the task, graph.task(\"" + t.name() + "\", WorkerGrid.of(n).withLocal(256), ...), or plan.withGrid(\""
                    + t.name() + "\", grid)");
        } else {
            long[] trips = switch (t.kernel()) {
                case KernelRef ref -> KernelRegistry.generated(ref.owner()).tripCounts(info.name(), t.args());
                case RuntimeKernel rk -> rk.tripCounts(t.args());
            };
            local = switch (trips.length) {
                case 1 -> new long[] {Math.min(256, dev.info().maxWorkGroupSize())};
                case 2 -> LOCAL_2D.clone();
                default -> LOCAL_3D.clone();
            };
            global = new long[trips.length];
            for (int d = 0; d < trips.length; d++) {
                if (trips[d] <= 0) return new LaunchAction(t.name(), null, null, null); // nothing to do
                long cap = d == 0 ? LOOP_GLOBAL_CAP : 65535L * local[d];
                global[d] = roundUp(Math.min(trips[d], cap), local[d]);
            }
        }
        if (kernel == null) kernel = dev.program(((KernelRef) t.kernel()).owner()).kernel(info.name());
        List<KernelArg> kargs = new ArrayList<>();
        boolean[] created = new boolean[1];
        for (int i = 0; i < info.parameters().size(); i++) {
            KernelInfo.Param p = info.parameters().get(i);
            Object a = t.args()[i];
            switch (p.kind()) {
                case CONTEXT -> { }
                case ARRAY -> {
                    KernelArray arr = (KernelArray) a;
                    DeviceBuffer b = dev.buffer(arr, created);
                    if (created[0] && arr.byteSize() > 0) dev.backend().copyToDevice(arr.segment(), b, 0, arr.byteSize());
                    kargs.add(new KernelArg.Buffer(b));
                    kargs.add(new KernelArg.I64(arr.getSizeLong()));
                }
                case SCALAR -> kargs.add(switch (a) {
                    case Integer v -> new KernelArg.I32(v);
                    case Long v -> new KernelArg.I64(v);
                    case Float v -> new KernelArg.F32(v);
                    case Double v -> new KernelArg.F64(v);
                    case Short v -> new KernelArg.I16(v);
                    case Byte v -> new KernelArg.I8(v);
                    case Boolean v -> new KernelArg.I32(v ? 1 : 0);
                    default -> throw new IllegalStateException("unreachable: checked above");
                });
            }
        }
        BoundLaunch bound = kernel.bind(kargs.toArray(KernelArg[]::new));
        return new LaunchAction(t.name(), bound, global, local);
    }

    private static long[] defaultLocal(long[] global, Device dev) {
        long[] local = new long[global.length];
        Arrays.fill(local, 1);
        long l = Math.min(256, dev.info().maxWorkGroupSize());
        while (global[0] % l != 0) l >>= 1;
        local[0] = l;
        return local;
    }

    private static long roundUp(long v, long m) {
        return (v + m - 1) / m * m;
    }

    /** Rejects wrong argument counts and types before anything is launched. */
    static void checkArguments(String task, String kernel, KernelInfo info, Object[] args) {
        List<KernelInfo.Param> ps = info.parameters();
        if (args.length != ps.size()) {
            throw new IllegalArgumentException("task " + task + ": kernel " + kernel + " takes " + ps.size() + " arguments "
                    + ps.stream().map(p -> p.type() + " " + p.name()).toList() + ", got " + args.length);
        }
        for (int i = 0; i < args.length; i++) {
            KernelInfo.Param p = ps.get(i);
            Object a = args[i];
            boolean ok = switch (p.kind()) {
                case CONTEXT -> a == null || a instanceof KernelContext;
                case ARRAY -> a instanceof KernelArray k && k.elementType().equals(p.type());
                case SCALAR -> a != null && switch (p.type()) {
                    case "int" -> a instanceof Integer;
                    case "long" -> a instanceof Long;
                    case "float" -> a instanceof Float;
                    case "double" -> a instanceof Double;
                    case "short" -> a instanceof Short;
                    case "byte" -> a instanceof Byte;
                    case "boolean" -> a instanceof Boolean;
                    default -> false;
                };
            };
            if (!ok) {
                String want = p.kind() == KernelInfo.Kind.ARRAY ? Character.toUpperCase(p.type().charAt(0)) + p.type().substring(1) + "Array" : p.type();
                throw new IllegalArgumentException("task " + task + ": argument " + i + " (" + p.name() + ") of " + kernel + " must be "
                        + want + ", got " + (a == null ? "null" : a.getClass().getSimpleName() + " " + a));
            }
        }
    }

    // ---- actions ----

    private interface Action {
        void run(boolean first);

        default void release() {
        }
    }

    private record Upload(Device dev, KernelArray array, DataTransferMode mode) implements Action {
        public void run(boolean first) {
            if (mode == DataTransferMode.EVERY_EXECUTION || (first && mode == DataTransferMode.FIRST_EXECUTION)) {
                boolean[] created = new boolean[1];
                DeviceBuffer b = dev.buffer(array, created);
                if (array.byteSize() > 0) dev.backend().copyToDevice(array.segment(), b, 0, array.byteSize());
            }
        }
    }

    private record Download(Device dev, KernelArray array, DataTransferMode mode) implements Action {
        public void run(boolean first) {
            if (mode == DataTransferMode.EVERY_EXECUTION || (first && mode == DataTransferMode.FIRST_EXECUTION)) {
                boolean[] created = new boolean[1];
                DeviceBuffer b = dev.buffer(array, created);
                if (created[0]) throw new IllegalStateException(array + " was never on " + dev.id() + ": nothing to copy back");
                if (array.byteSize() > 0) dev.backend().copyToHost(b, 0, array.segment(), array.byteSize());
            }
        }
    }

    private record LaunchAction(String task, BoundLaunch bound, long[] global, long[] local) implements Action {
        public void run(boolean first) {
            if (bound != null) bound.launch(global, local);
        }

        public void release() {
            if (bound != null) bound.release();
        }
    }
}
