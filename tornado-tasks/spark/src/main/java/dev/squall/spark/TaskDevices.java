package dev.squall.spark;

import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.DeviceInfo;
import dev.squall.tasks.runtime.Devices;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Picks the Squall device of a Spark task and caps the tasks that share one GPU. Built on the driver, shipped with
 * the job (it is serializable and holds only settings).
 *
 * <ul>
 *   <li>A task Spark gave {@code "gpu"} addresses ({@code spark.task.resource.gpu.amount}) runs on {@code cuda:A} for
 *       its first address A; an address with no such CUDA device in the executor is an error naming both.</li>
 *   <li>In local mode ({@code local[...]}, which ignores GPU requests) a task runs on the CUDA device
 *       {@code partitionId mod (CUDA devices present)}: round-robin by partition id (unless {@link #localGpus} is
 *       off).</li>
 *   <li>Otherwise (no GPU given, none present) the task runs on the fallback device ({@code jvm}, an OpenCL
 *       device, ...), unless the job requires a GPU: then it fails, saying how to ask Spark for one.</li>
 * </ul>
 * At most {@link #maxTasksPerGpu} tasks of one executor JVM run on one GPU at once (the others wait), whatever Spark
 * schedules; in a cluster {@code spark.task.resource.gpu.amount = 1 / cap} makes Spark itself keep to the same cap.
 *
 * <pre>{@code
 * TaskDevices devices = TaskDevices.fallingBackTo("jvm").maxTasksPerGpu(2);
 * rdd.map(x -> devices.run(device -> work(device, x)));   // inside a task
 * }</pre>
 */
public final class TaskDevices implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Slots per GPU in this JVM: device id to the permits left. */
    private static final Map<String, Semaphore> SLOTS = new ConcurrentHashMap<>();

    private final String fallback;
    private final int maxTasksPerGpu;
    private final boolean requireGpu;
    private final boolean localGpus;

    private TaskDevices(String fallback, int maxTasksPerGpu, boolean requireGpu, boolean localGpus) {
        this.fallback = fallback;
        this.maxTasksPerGpu = maxTasksPerGpu;
        this.requireGpu = requireGpu;
        this.localGpus = localGpus;
    }

    /** GPUs where Spark or local mode gives them, else {@code fallbackId} ({@code jvm}, {@code opencl:0:0}, ...). */
    public static TaskDevices fallingBackTo(String fallbackId) {
        if (fallbackId == null || fallbackId.isBlank()) throw new IllegalArgumentException("the fallback device id is empty: use jvm or opencl:P:D");
        return new TaskDevices(fallbackId.strip(), 1, false, true);
    }

    /** Every task must get a GPU; a task without one fails. */
    public TaskDevices requireGpu(boolean on) {
        return new TaskDevices(fallback, maxTasksPerGpu, on, localGpus);
    }

    /** At most {@code cap} concurrent tasks of one JVM on one GPU (default 1). */
    public TaskDevices maxTasksPerGpu(int cap) {
        if (cap < 1) throw new IllegalArgumentException("tasks per GPU must be >= 1, got " + cap);
        return new TaskDevices(fallback, cap, requireGpu, localGpus);
    }

    /** In local mode, whether tasks take this machine's CUDA devices round-robin (default) or the fallback device. */
    public TaskDevices localGpus(boolean on) {
        return new TaskDevices(fallback, maxTasksPerGpu, requireGpu, on);
    }

    public int maxTasksPerGpu() {
        return maxTasksPerGpu;
    }

    public String fallback() {
        return fallback;
    }

    /** The device id for a task: the rules of the class, as a function of what the task and its executor have. */
    static String choose(String[] gpuAddresses, int partitionId, boolean localMode, List<String> cudaPresent,
                         String fallback, boolean requireGpu) {
        if (gpuAddresses != null && gpuAddresses.length > 0) {
            String id = "cuda:" + gpuAddresses[0].strip();
            if (!cudaPresent.contains(id)) {
                throw new IllegalStateException("task of partition " + partitionId + " was given GPU address " + gpuAddresses[0]
                        + " by Spark, but its executor has no device " + id + " (CUDA devices here: " + cudaPresent + "). The GPU "
                        + "discovery script must list the GPUs this executor sees, as CUDA numbers them (nvidia-smi indices with "
                        + "CUDA_DEVICE_ORDER=PCI_BUS_ID and no CUDA_VISIBLE_DEVICES).");
            }
            return id;
        }
        if (localMode && !cudaPresent.isEmpty()) return cudaPresent.get(Math.floorMod(partitionId, cudaPresent.size()));
        if (requireGpu) {
            throw new IllegalStateException("task of partition " + partitionId + " needs a GPU but has none: " + (localMode
                    ? "no CUDA device is present in this JVM" : "its executor offers no 'gpu' resource; set spark.executor.resource.gpu.amount, "
                    + "spark.task.resource.gpu.amount and spark.executor.resource.gpu.discoveryScript (scripts/gpu-discovery.sh)"));
        }
        return fallback;
    }

    /** The device of the task running in this thread. */
    public Device current() {
        TaskContext ctx = TaskContext.get();
        if (ctx == null) throw new IllegalStateException("TaskDevices.current() is called outside a Spark task");
        ResourceInformation gpu = ctx.resourcesJMap().get("gpu");
        String master = SparkEnv.get() == null ? "" : SparkEnv.get().conf().get("spark.master", "");
        boolean local = localGpus && master.startsWith("local") && !master.startsWith("local-cluster");
        boolean gpuGiven = gpu != null && gpu.addresses().length > 0;
        // device discovery (drivers loaded) only where a GPU can be the answer
        List<String> cuda = gpuGiven || local || requireGpu
                ? Devices.all().stream().map(Device::id).filter(id -> id.startsWith("cuda:")).toList() : List.of();
        return Devices.get(choose(gpu == null ? null : gpu.addresses(), ctx.partitionId(), local, cuda, fallback, requireGpu));
    }

    /** Runs {@code work} on the task's device, holding one of the device's slots when it is a GPU. */
    public <T> T run(Function<Device, T> work) {
        Device d = current();
        DeviceInfo info = d.info();
        if (!info.isGpu()) return work.apply(d);
        return holdingSlot(d.id(), maxTasksPerGpu, () -> work.apply(d));
    }

    /** Runs {@code work} while holding one of {@code cap} slots of device {@code id} in this JVM (waits for one). */
    static <T> T holdingSlot(String id, int cap, Supplier<T> work) {
        Semaphore slots = SLOTS.computeIfAbsent(id + "#" + cap, k -> new Semaphore(cap, true));
        slots.acquireUninterruptibly();
        try {
            return work.get();
        } finally {
            slots.release();
        }
    }
}
