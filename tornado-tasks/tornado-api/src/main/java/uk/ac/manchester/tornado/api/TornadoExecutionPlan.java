package uk.ac.manchester.tornado.api;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.ExecutionPlan;
import dev.squall.tasks.runtime.ExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.ProfilerMode;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;
import uk.ac.manchester.tornado.api.exceptions.TornadoRuntimeException;
import uk.ac.manchester.tornado.api.runtime.DeviceChoiceException;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs task graphs on one device, as TornadoVM's plan does, through a Squall {@link ExecutionPlan}. The device is, first
 * match wins: {@link #withDevice}, the property {@code -D<graph>.device=B:D} or {@code -D<graph>.<task>.device=B:D}
 * (TornadoVM's numbering, {@code tornado --devices}), or Squall's default ({@code -Dsquall.device}, else the best present).
 * Java arrays are copied into the Squall arrays standing for them before the tasks and back after, per their transfer
 * modes; on the JVM device the kernels work on the Java arrays themselves.
 */
public class TornadoExecutionPlan implements AutoCloseable {
    private final ImmutableTaskGraph[] graphs;
    private final ExecutionPlan plan;
    private Device device;
    private ProfilerMode profiler;
    private boolean executed;
    private boolean threadInfo = Boolean.getBoolean("tornado.threadInfo"), printKernel = Boolean.getBoolean("tornado.printKernel");
    private boolean debug = Boolean.getBoolean("tornado.debug");

    public TornadoExecutionPlan(ImmutableTaskGraph... graphs) {
        if (graphs.length == 0) throw new TornadoRuntimeException("an execution plan needs at least one task graph");
        this.graphs = graphs.clone();
        dev.squall.tasks.runtime.ImmutableTaskGraph[] s = new dev.squall.tasks.runtime.ImmutableTaskGraph[graphs.length];
        for (int i = 0; i < graphs.length; i++) s[i] = graphs[i].squall;
        this.plan = new ExecutionPlan(s);
    }

    /** The device {@code backendIndex:deviceIndex} in TornadoVM's numbering. */
    public static TornadoDevice getDevice(int backendIndex, int deviceIndex) {
        return TornadoRuntimeProvider.getTornadoRuntime().getBackend(backendIndex).getDevice(deviceIndex);
    }

    public TornadoExecutionPlan withDevice(TornadoDevice device) {
        this.device = device.squallDevice();
        plan.withDevice(this.device);
        return this;
    }

    /** Launch grids of tasks, keyed {@code "graph.task"}; a {@code @Reduce} task keeps the grids of its two stages. */
    public TornadoExecutionPlan withGridScheduler(GridScheduler scheduler) {
        for (var e : scheduler.grids().entrySet()) {
            String key = e.getKey();
            String graph = key.substring(0, key.indexOf('.')), task = key.substring(key.indexOf('.') + 1);
            boolean found = false;
            boolean reduction = false;
            for (ImmutableTaskGraph g : graphs) {
                boolean here = g.getTaskGraphName().equals(graph) && g.graph.taskNames.contains(task);
                found |= here;
                reduction |= here && g.graph.reductions.contains(task);
            }
            if (!found) throw new TornadoRuntimeException("GridScheduler names task \"" + key + "\", which no graph of this plan has");
            if (reduction) continue; // a @Reduce task's two stages run on the grids the compiler chose for them, as TornadoVM's do
            plan.withGrid(task, e.getValue().toSquall());
        }
        return this;
    }

    /** Kernels are translated when the program is built and device programs are built at the first execution: nothing to do ahead. */
    public TornadoExecutionPlan withWarmUp() {
        return this;
    }

    public TornadoExecutionPlan withProfiler(ProfilerMode mode) {
        this.profiler = mode;
        plan.withProfiler(true);
        return this;
    }

    public TornadoExecutionPlan withoutProfiler() {
        this.profiler = null;
        plan.withProfiler(false);
        return this;
    }

    /** Prints each task's device and launch after each execution (as {@code tornado --threadInfo}). */
    public TornadoExecutionPlan withThreadInfo() {
        threadInfo = true;
        return this;
    }

    public TornadoExecutionPlan withoutThreadInfo() {
        threadInfo = false;
        return this;
    }

    /** Prints where the generated kernels are (as {@code tornado --printKernel}). */
    public TornadoExecutionPlan withPrintKernel() {
        printKernel = true;
        return this;
    }

    public TornadoExecutionPlan withoutPrintKernel() {
        printKernel = false;
        return this;
    }

    /** Runs every graph of the plan once. */
    public TornadoExecutionResult execute() {
        Device d = device();
        boolean onHeap = d.info().backend().equals("jvm");
        boolean first = !executed;
        if (!onHeap) {
            for (ImmutableTaskGraph g : graphs) {
                for (TaskGraph.HeapTransfer t : g.graph.heapToDevice) {
                    if (first || t.mode() == DataTransferMode.EVERY_EXECUTION) TaskGraph.toMirror(t.heap(), t.mirror());
                }
            }
        }
        long start = System.nanoTime();
        ExecutionResult r;
        try {
            r = plan.execute();
        } catch (RuntimeException e) {
            throw new TornadoRuntimeException("execution on " + d + " failed: " + e.getMessage(), e);
        }
        executed = true;
        if (!onHeap) {
            for (ImmutableTaskGraph g : graphs) {
                for (TaskGraph.HeapTransfer t : g.graph.heapToHost) {
                    if (t.mode() != DataTransferMode.UNDER_DEMAND) TaskGraph.fromMirror(t.mirror(), t.heap());
                }
            }
        }
        TornadoProfilerResult p = new TornadoProfilerResult(r.profile(), System.nanoTime() - start);
        if (profiler == ProfilerMode.CONSOLE) System.out.println(p);
        if (threadInfo || debug) {
            for (ImmutableTaskGraph g : graphs) {
                for (String t : g.graph.taskNames) {
                    System.out.println("Task info: " + g.getTaskGraphName() + "." + t + "\n\tBackend: " + d.info().backend() + "\n\tDevice: "
                            + d.info().name() + " (" + d.id() + ")");
                }
            }
        }
        if ((printKernel || debug) && first) {
            System.out.println("Kernels are translated when the program is built: squall kernels --print NAME --backend opencl|cuda prints them; "
                    + "the OpenCL and CUDA sources are META-INF/squall/kernels/<class>.cl and .cu in the program's jar or classes folder");
        }
        return new TornadoExecutionResult(this, r, p);
    }

    /** Frees the device copies of the plan's data. */
    public void freeDeviceMemory() {
        plan.freeDeviceMemory();
    }

    @Override
    public void close() throws TornadoExecutionPlanException {
        try {
            plan.close();
        } catch (RuntimeException e) {
            throw new TornadoExecutionPlanException("closing the execution plan failed: " + e.getMessage(), e);
        }
    }

    /** The device the plan runs on. */
    public TornadoDevice getDevice() {
        return TornadoRuntimeProvider.getTornadoRuntime().of(device());
    }

    /** Copies Java arrays back from the Squall arrays standing for them (after an UNDER_DEMAND transfer). */
    void copiedToHost(Object[] objects) {
        if (device().info().backend().equals("jvm")) return;
        for (Object o : objects) {
            if (o != null && o.getClass().isArray()) TaskGraph.fromMirror(TaskGraph.deviceArray(o, "transferToHost"), o);
        }
    }

    private Device device() {
        if (device == null) {
            device = configuredDevice();
            plan.withDevice(device);
        }
        return device;
    }

    /** The device from -Dgraph.device or -Dgraph.task.device, else Squall's default. */
    private Device configuredDevice() {
        var runtime = TornadoRuntimeProvider.getTornadoRuntime();
        List<String> chosen = new ArrayList<>();
        String value = null;
        for (ImmutableTaskGraph g : graphs) {
            String name = g.getTaskGraphName();
            List<String> keys = new ArrayList<>(List.of(name + ".device"));
            for (String t : g.graph.taskNames) keys.add(name + "." + t + ".device");
            for (String k : keys) {
                String v = System.getProperty(k);
                if (v == null) continue;
                if (value != null && !value.equals(v.trim())) {
                    throw new TornadoRuntimeException("this plan runs its graphs on one device, but " + String.join(", ", chosen) + " and " + k + "="
                            + v + " ask for different ones");
                }
                value = v.trim();
                chosen.add(k + "=" + v);
            }
        }
        if (value == null) return runtime.getDefaultDevice().squallDevice();
        try {
            return runtime.device(value).squallDevice();
        } catch (TornadoRuntimeException e) {
            throw new DeviceChoiceException(String.join(", ", chosen) + ": " + e.getMessage());
        }
    }
}
