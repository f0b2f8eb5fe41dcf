package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.spi.*;

import java.lang.foreign.MemorySegment;
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
 *
 * A plan's work goes to one {@link DeviceQueue} ({@link #onQueue}; the device's default queue
 * otherwise). {@link #executeAsync()} returns once the work is queued; {@link #after} orders an
 * execution after events of other queues or plans, on the device:
 *
 * <pre>{@code
 * DeviceQueue a = gpu.newQueue(), b = gpu.newQueue();
 * ExecutionHandle produced = producer.onQueue(a).executeAsync();
 * ExecutionHandle consumed = consumer.onQueue(b).after(produced.event()).executeAsync();
 * consumed.await();
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
    private DeviceQueue queue; // null: the device's default queue
    private final List<Event> waitBeforeNext = new ArrayList<>();
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
            queue = null;
            firstExecution = true;
        }
        return this;
    }

    /**
     * Runs this plan's graphs on {@code q} (and so on its device) from the next execution on. Work of plans on
     * different queues may run at the same time; order it with {@link #after} or {@link DeviceQueue#waitFor}.
     *
     * <pre>{@code
     * DeviceQueue side = gpu.newQueue();
     * plan.onQueue(side).executeAsync();
     * }</pre>
     */
    public synchronized ExecutionPlan onQueue(DeviceQueue q) {
        if (q == null) throw new IllegalArgumentException("onQueue: null queue");
        q.checkOpen();
        withDevice(q.device());
        queue = q;
        return this;
    }

    /** The queue this plan's work goes to: the one given to {@link #onQueue}, else the device's default queue. */
    public synchronized DeviceQueue queue() {
        return queue != null ? queue : device().defaultQueue();
    }

    /**
     * Makes the next execution (only that one) wait until these events have completed before its first
     * copy or kernel. The device does the waiting for events of the same device, so the host is not blocked
     * (see {@link DeviceQueue#waitFor} for events of other devices).
     *
     * <pre>{@code
     * ExecutionHandle p = producer.onQueue(a).executeAsync();
     * consumer.onQueue(b).after(p.event()).execute();   // b waits for a on the device
     * }</pre>
     */
    public synchronized ExecutionPlan after(Event... events) {
        for (Event e : events) {
            if (e == null) throw new IllegalArgumentException("after: null event");
        }
        waitBeforeNext.addAll(List.of(events));
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
        DeviceQueue q = readyQueue();
        NativeQueue nq = q.nativeQueue();
        DeviceEvent[] marks = profiling ? new DeviceEvent[4] : null;
        double toDev = Double.NaN, kern = Double.NaN, toHost = Double.NaN;
        try {
            enqueue(prepared, nq, firstExecution, marks);
            nq.synchronize();
            if (marks != null) {
                for (DeviceEvent m : marks) m.await(); // failures a device reports at events (the JVM's kernels)
                toDev = phase(marks[0], marks[1]);
                kern = phase(marks[1], marks[2]);
                toHost = phase(marks[2], marks[3]);
            }
        } finally {
            if (marks != null) for (DeviceEvent m : marks) if (m != null) m.release();
        }
        firstExecution = false;
        double compile = pendingCompileMillis;
        pendingCompileMillis = 0;
        return new ExecutionResult(this, new Profile(compile, toDev, kern, toHost, (System.nanoTime() - t0) / 1e3));
    }

    /**
     * Queues every graph's copies and kernels on the plan's queue and returns at once with a handle;
     * {@link ExecutionHandle#await()} waits and gives the result, {@link ExecutionHandle#event()} orders other
     * work after this execution. Failures of the queued work (a driver error at a launch or copy, a kernel
     * that fails) are thrown by {@code await()} with the driver's message; a plan that cannot be prepared (an
     * SPMD kernel without a grid, a kernel that does not build) is rejected here, before anything is queued.
     *
     * <p>Copies of arrays in the device's pinned memory ({@code DoubleArray.pinned(n, device)}) are queued
     * asynchronously. Copies of ordinary arrays are synchronous, so this call returns only after them
     * (after the kernels before them too, for copies back to the host; on the JVM, whose device copy of an
     * array is the array, they copy nothing and do not wait). The arrays must stay unchanged (and, for copies
     * back, unread) until {@code await()} returns.
     *
     * <pre>{@code
     * ExecutionHandle h = plan.executeAsync();
     * prepareNextInput();                         // host work overlapping the device
     * System.out.println(h.await().profile());
     * }</pre>
     */
    public synchronized ExecutionHandle executeAsync() {
        long t0 = System.nanoTime();
        DeviceQueue q = readyQueue();
        boolean first = firstExecution;
        firstExecution = false;
        double compile = pendingCompileMillis;
        pendingCompileMillis = 0;
        NativeQueue nq = q.nativeQueue();
        DeviceEvent[] marks = profiling ? new DeviceEvent[4] : null;
        DeviceException queueing = null;
        try {
            enqueue(prepared, nq, first, marks);
        } catch (DeviceException e) {
            queueing = e; // what was queued before still runs; await() reports the failure
        }
        // "finish" ends this execution's work, so it reports the failures a device reports at events (the JVM's
        // kernels); the handle's event comes after it and so completes without them, as ExecutionHandle#event says
        DeviceEvent finish = null;
        Event done;
        try {
            finish = marks != null && marks[3] != null ? marks[3] : nq.record();
            done = q.record();
        } catch (DeviceException e) {
            if (marks != null) for (DeviceEvent m : marks) if (m != null) m.release();
            if (finish != null) finish.release();
            if (queueing == null) throw e;
            queueing.addSuppressed(e);
            throw queueing; // the queue is unusable: no event to hand out
        }
        DeviceEvent[] held = marks == null ? new DeviceEvent[] {finish}
                : finish == marks[3] ? marks : Arrays.copyOf(marks, 5); // a failed enqueue left marks[3] empty
        held[held.length - 1] = finish;
        DeviceException failed = queueing;
        ExecutionHandle handle = new ExecutionHandle(done, () -> {
            RuntimeException failure = failed;
            try {
                for (DeviceEvent m : held) if (m != null) m.await();
                done.await();
            } catch (RuntimeException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
            try {
                if (failure != null) throw failure;
                double toDev = Double.NaN, kern = Double.NaN, toHost = Double.NaN;
                if (marks != null) {
                    toDev = phase(marks[0], marks[1]);
                    kern = phase(marks[1], marks[2]);
                    toHost = phase(marks[2], marks[3]);
                }
                return new ExecutionResult(this, new Profile(compile, toDev, kern, toHost, (System.nanoTime() - t0) / 1e3));
            } finally {
                for (DeviceEvent m : held) if (m != null) m.release();
            }
        });
        Event.releaseWhenUnreachable(handle, held); // a handle never awaited still frees its events
        return handle;
    }

    /** The plan's queue, open, with the plan prepared for its device and the events it waits for waited for. */
    private DeviceQueue readyQueue() {
        Device dev = device();
        DeviceQueue q = queue();
        q.checkOpen();
        if (prepared == null) prepare(dev);
        waitForEvents(q);
        return q;
    }

    private void waitForEvents(DeviceQueue q) {
        if (waitBeforeNext.isEmpty()) return;
        Event[] events = waitBeforeNext.toArray(Event[]::new);
        waitBeforeNext.clear();
        q.waitFor(events);
    }

    /**
     * Queues the actions on {@code q}. With {@code marks} (profiling), records events before the uploads,
     * before the kernels, before the downloads and at the end.
     */
    private static void enqueue(List<Action> actions, NativeQueue q, boolean first, DeviceEvent[] marks) {
        if (marks == null) {
            for (Action x : actions) x.run(q, first);
            return;
        }
        marks[0] = q.record();
        int phase = 0; // 0 uploads, 1 kernels, 2 downloads
        for (Action x : actions) {
            int p = x instanceof Upload ? 0 : x instanceof LaunchAction ? 1 : 2;
            while (phase < p) marks[++phase] = q.record();
            x.run(q, first);
        }
        while (phase < 2) marks[++phase] = q.record();
        marks[3] = q.record();
    }

    /** Frees the device copies of every array this plan uses; await its asynchronous executions first. */
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
        DeviceQueue q = queue != null && !queue.isClosed() ? queue : dev.defaultQueue(); // after the plan's work
        boolean[] created = new boolean[1];
        for (KernelArray a : arrays) {
            if (!dev.holds(a)) throw new IllegalArgumentException(a + " has no copy on " + dev.id());
            DeviceBuffer b = dev.buffer(a, created);
            if (a.byteSize() > 0) q.nativeQueue().copyToHost(b, 0, a.attachHostMemory(), a.byteSize());
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
                    case TaskGraph.Transfer t when t.toDevice() -> actions.add(new Upload(dev, t.array(), t.mode(), dev.isPinned(t.array())));
                    case TaskGraph.Transfer t -> actions.add(new Download(dev, t.array(), t.mode(), dev.isPinned(t.array())));
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
                info = KernelRegistry.info(ref); // arguments were checked when the task was added
                kernel = null; // looked up once the grid is known: an empty loop needs no program
            }
            case RuntimeKernel rk -> {
                info = rk.info();
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
                    if (created[0] && arr.byteSize() > 0 && !arr.isDeviceOnly()) dev.backend().copyToDevice(arr.segment(), b, 0, arr.byteSize());
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


    // ---- actions ----

    /** One step of an execution, queued on the plan's queue. */
    private interface Action {
        void run(NativeQueue q, boolean first);

        default void release() {
        }
    }

    /** A copy to the device: asynchronous when the array is in the device's pinned memory, synchronous otherwise. */
    private record Upload(Device dev, KernelArray array, DataTransferMode mode, boolean pinned) implements Action {
        public void run(NativeQueue q, boolean first) {
            if (mode == DataTransferMode.EVERY_EXECUTION || (first && mode == DataTransferMode.FIRST_EXECUTION)) {
                boolean[] created = new boolean[1];
                DeviceBuffer b = dev.buffer(array, created);
                if (array.byteSize() == 0) return;
                if (pinned) q.copyToDeviceAsync(array.segment(), b, 0, array.byteSize());
                else q.copyToDevice(array.segment(), b, 0, array.byteSize());
            }
        }
    }

    /** A copy to the host: asynchronous when the array is in the device's pinned memory, synchronous otherwise. */
    private record Download(Device dev, KernelArray array, DataTransferMode mode, boolean pinned) implements Action {
        public void run(NativeQueue q, boolean first) {
            if (mode == DataTransferMode.EVERY_EXECUTION || (first && mode == DataTransferMode.FIRST_EXECUTION)) {
                boolean[] created = new boolean[1];
                DeviceBuffer b = dev.buffer(array, created);
                if (created[0]) throw new IllegalStateException(array + " was never on " + dev.id() + ": nothing to copy back");
                if (array.byteSize() == 0) return;
                MemorySegment host = array.attachHostMemory(); // a device-only array gets host memory when copied back
                if (pinned) q.copyToHostAsync(b, 0, host, array.byteSize());
                else q.copyToHost(b, 0, host, array.byteSize());
            }
        }
    }

    private record LaunchAction(String task, BoundLaunch bound, long[] global, long[] local) implements Action {
        public void run(NativeQueue q, boolean first) {
            if (bound != null) bound.launch(q, global, local);
        }

        public void release() {
            if (bound != null) bound.release();
        }
    }

    /**
     * Device time between two markers of one in-order queue. The later marker cannot end first, but PoCL stamps marker
     * events on the host when it sees them complete, so two markers a few microseconds apart may come out in the wrong
     * order: such an interval is no measurable time, 0.
     */
    private static double phase(DeviceEvent earlier, DeviceEvent later) {
        return Math.max(0.0, later.millisSince(earlier));
    }
}
