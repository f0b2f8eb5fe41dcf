package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.PinnedAllocator;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.foreign.MemorySegment;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * A device kernels can run on: {@code jvm}, {@code opencl:P:D} or {@code cuda:N}. Obtained from
 * {@link Devices}. A device keeps each array's device copy between executions and between
 * graphs, so data stays resident until the array is unreachable or {@link #free} is called
 * (on the JVM the device copy is the array itself). Work goes to {@link DeviceQueue}s: the
 * {@link #defaultQueue()} unless a plan is put on another ({@link #newQueue()}). Arrays in the
 * device's pinned memory ({@code DoubleArray.pinned(n, device)}) are copied asynchronously.
 *
 * <pre>{@code
 * Device gpu = Devices.get("cuda:0");
 * System.out.println(gpu.info().name() + ", " + gpu.info().computeUnits() + " SMs");
 * }</pre>
 */
public final class Device implements PinnedAllocator {
    private final DeviceInfo info;
    private final NativeDevice backend;
    private final Map<Identity, DeviceBuffer> buffers = new HashMap<>();
    private final ReferenceQueue<KernelArray> collected = new ReferenceQueue<>();
    private final Map<String, DeviceProgram> programs = new HashMap<>();
    private boolean lastProgramFromCache;
    private volatile DeviceQueue defaultQueue;

    Device(NativeDevice backend) {
        this.info = backend.info();
        this.backend = backend;
    }

    public DeviceInfo info() {
        return info;
    }

    public String id() {
        return info.id();
    }

    /**
     * Compiles a kernel from source for this device (through the on-disk build cache), to run as a task:
     * {@code graph.task("t", kernel, args...)}. The source for this device's backend is taken from {@code source}
     * (OpenCL C, CUDA C, or the Java body on the JVM).
     *
     * <pre>{@code
     * RuntimeKernel k = device.compile("scale", KernelSource.of(openCl, cuda).withJvm(body),
     *         KernelSignature.spmd().array("x", DoubleArray.class).scalar("a", double.class));
     * }</pre>
     *
     * @param name      the kernel's function name in the source
     * @param source    the kernel's code for one or more backends
     * @param signature its parameters and launch style
     * @throws KernelBuildException     with the driver's log and the source when it does not compile
     * @throws IllegalArgumentException naming the kernel and this device when {@code source} has nothing for its backend
     */
    public synchronized RuntimeKernel compile(String name, KernelSource source, KernelSignature signature) {
        KernelInfo kernel = signature.info(name);
        DeviceProgram program = backend.build(kernel, source);
        return new RuntimeKernel(this, kernel, signature, program, program.kernel(name));
    }

    /** The backend's side of this device. */
    NativeDevice backend() {
        return backend;
    }

    /** The queue plans use unless put on another with {@link ExecutionPlan#onQueue}; created on first use. */
    public DeviceQueue defaultQueue() {
        DeviceQueue q = defaultQueue;
        if (q == null) {
            synchronized (this) {
                if (defaultQueue == null) defaultQueue = new DeviceQueue(this, backend.defaultQueue(), true);
                q = defaultQueue;
            }
        }
        return q;
    }

    /**
     * A new queue whose work may run at the same time as the other queues' (a non-blocking CUDA stream, an
     * OpenCL command queue on the device's context, a runner thread on the JVM). Close it when done.
     *
     * <pre>{@code
     * try (DeviceQueue side = gpu.newQueue()) {
     *     ExecutionHandle h = plan.onQueue(side).executeAsync();
     *     ...
     *     h.await();
     * }
     * }</pre>
     */
    public DeviceQueue newQueue() {
        return new DeviceQueue(this, backend.newQueue(), false);
    }

    /**
     * As {@link #newQueue()}, for short work on the critical path that should not wait behind large kernels of
     * other queues: on CUDA a stream of the greatest priority, whose thread blocks the GPU dispatches before the
     * pending blocks of lower-priority kernels (those already running finish first); elsewhere an ordinary queue.
     *
     * <pre>{@code
     * try (DeviceQueue bulk = gpu.newQueue(); DeviceQueue urgent = gpu.newPriorityQueue()) {
     *     big.onQueue(bulk).executeAsync();
     *     small.onQueue(urgent).executeAsync();   // its blocks go ahead of big's remaining ones
     * }
     * }</pre>
     */
    public DeviceQueue newPriorityQueue() {
        return new DeviceQueue(this, backend.newPriorityQueue(), false);
    }

    /**
     * Page-locked host memory this device copies asynchronously (the JVM, which copies nothing, gives ordinary
     * memory): zeroed, 64-byte aligned, freed when unreachable. Arrays take it through their {@code pinned}
     * factories, e.g. {@code DoubleArray.pinned(n, device)}.
     */
    @Override
    public MemorySegment allocatePinned(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("allocatePinned: negative size " + bytes);
        return backend.allocatePinned(bytes);
    }

    /** Whether this device copies {@code array} asynchronously (it lives in the device's pinned memory); false on the JVM. */
    public boolean isPinned(KernelArray array) {
        return array.hasHostMemory() && backend.isPinned(array.segment());
    }

    /**
     * The device copy of {@code array}, allocated on first use; {@code created[0]} tells whether it is new. A new copy
     * of a device-only array is zero-filled here (its host has nothing to copy).
     */
    synchronized DeviceBuffer buffer(KernelArray array, boolean[] created) {
        expunge();
        Identity key = new Identity(array, null);
        DeviceBuffer b = buffers.get(key);
        created[0] = b == null;
        if (b == null) {
            b = backend.allocate(array);
            if (array.isDeviceOnly()) {
                try {
                    backend.zero(b, array.byteSize());
                } catch (RuntimeException e) {
                    b.release();
                    throw e;
                }
            }
            buffers.put(new Identity(array, collected), b);
        }
        return b;
    }

    /** True if the array has a copy on this device. */
    public synchronized boolean holds(KernelArray array) {
        return buffers.containsKey(new Identity(array, null));
    }

    /** Frees the device copies of these arrays (the host copies are untouched). */
    public synchronized void free(KernelArray... arrays) {
        for (KernelArray a : arrays) {
            DeviceBuffer b = buffers.remove(new Identity(a, null));
            if (b != null) b.release();
        }
    }

    /** Built programs by owner class, so each is built once per device and process. */
    synchronized DeviceProgram program(Class<?> owner) {
        DeviceProgram p = programs.computeIfAbsent(owner.getName(), n -> backend.program(owner));
        lastProgramFromCache = p.fromCache();
        return p;
    }

    /**
     * Forgets the programs built in this process, so the next plan loads them again through the
     * on-disk build cache, as a new process would. For benchmarks of first-launch cost.
     */
    public synchronized void forgetPrograms() {
        programs.clear();
    }

    /** Whether the most recently obtained program came from the on-disk build cache. */
    public synchronized boolean lastProgramFromCache() {
        return lastProgramFromCache;
    }

    private void expunge() {
        java.lang.ref.Reference<? extends KernelArray> r;
        while ((r = collected.poll()) != null) {
            DeviceBuffer b = buffers.remove((Identity) r);
            if (b != null) b.release();
        }
    }

    @Override
    public String toString() {
        return info.id() + " (" + info.name() + ")";
    }

    /** Weak identity key: an array's device copy goes when the array does. */
    private static final class Identity extends WeakReference<KernelArray> {
        private final int hash;

        Identity(KernelArray a, ReferenceQueue<KernelArray> q) {
            super(a, q);
            hash = System.identityHashCode(a);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            return o instanceof Identity other && other.hash == hash && other.get() != null && other.get() == get();
        }
    }
}
