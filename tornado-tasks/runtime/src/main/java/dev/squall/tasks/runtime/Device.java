package dev.squall.tasks.runtime;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.PinnedAllocator;
import dev.squall.tasks.runtime.jvm.JvmQueue;
import dev.squall.tasks.runtime.spi.DeviceBuffer;
import dev.squall.tasks.runtime.spi.DeviceInfo;
import dev.squall.tasks.runtime.spi.DeviceProgram;
import dev.squall.tasks.runtime.spi.NativeDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * A device kernels can run on: {@code jvm}, {@code opencl:P:D} or {@code cuda:N}. Obtained from
 * {@link Devices}. A native device keeps each array's device copy between executions and between
 * graphs, so data stays resident until the array is unreachable or {@link #free} is called. Work
 * goes to {@link DeviceQueue}s: the {@link #defaultQueue()} unless a plan is put on another
 * ({@link #newQueue()}). Arrays in the device's pinned memory ({@code DoubleArray.pinned(n, device)})
 * are copied asynchronously.
 *
 * <pre>{@code
 * Device gpu = Devices.get("cuda:0");
 * System.out.println(gpu.info().name() + ", " + gpu.info().computeUnits() + " SMs");
 * }</pre>
 */
public final class Device implements PinnedAllocator {
    private final DeviceInfo info;
    private final NativeDevice nativeDevice; // null for the JVM
    private final Map<Identity, DeviceBuffer> buffers = new HashMap<>();
    private final ReferenceQueue<KernelArray> collected = new ReferenceQueue<>();
    private final Map<String, DeviceProgram> programs = new HashMap<>();
    private boolean lastProgramFromCache;
    private volatile DeviceQueue defaultQueue;

    Device(DeviceInfo info, NativeDevice nativeDevice) {
        this.info = info;
        this.nativeDevice = nativeDevice;
    }

    public DeviceInfo info() {
        return info;
    }

    public String id() {
        return info.id();
    }

    public boolean isJvm() {
        return nativeDevice == null;
    }

    /**
     * The backend's device (build source, allocate, launch), or null for the JVM. For code generated at run time,
     * such as per-matrix kernels: {@code device.nativeDevice().build("perm", source)}.
     */
    public NativeDevice nativeDevice() {
        return nativeDevice;
    }

    /** The queue plans use unless put on another with {@link ExecutionPlan#onQueue}; created on first use. */
    public DeviceQueue defaultQueue() {
        DeviceQueue q = defaultQueue;
        if (q == null) {
            synchronized (this) {
                if (defaultQueue == null) {
                    defaultQueue = nativeDevice == null ? new DeviceQueue(this, null, new JvmQueue(), true)
                            : new DeviceQueue(this, nativeDevice.defaultQueue(), null, true);
                }
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
        return nativeDevice == null ? new DeviceQueue(this, null, new JvmQueue(), false)
                : new DeviceQueue(this, nativeDevice.newQueue(), null, false);
    }

    /**
     * Page-locked host memory this device copies asynchronously (the JVM, which copies nothing, gives ordinary
     * memory): zeroed, 64-byte aligned, freed when unreachable. Arrays take it through their {@code pinned}
     * factories, e.g. {@code DoubleArray.pinned(n, device)}.
     */
    @Override
    public MemorySegment allocatePinned(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("allocatePinned: negative size " + bytes);
        if (nativeDevice != null) return nativeDevice.allocatePinned(bytes);
        return Arena.ofAuto().allocate(Math.max(1, bytes), KernelArray.ALIGNMENT).asSlice(0, bytes);
    }

    /** Whether this device copies {@code array} asynchronously (it lives in the device's pinned memory); false on the JVM. */
    public boolean isPinned(KernelArray array) {
        return nativeDevice != null && nativeDevice.isPinned(array.segment());
    }

    /** The device copy of {@code array}, allocated on first use; {@code created[0]} tells whether it is new. */
    synchronized DeviceBuffer buffer(KernelArray array, boolean[] created) {
        expunge();
        Identity key = new Identity(array, null);
        DeviceBuffer b = buffers.get(key);
        created[0] = b == null;
        if (b == null) {
            b = nativeDevice.allocate(Math.max(array.byteSize(), array.elementBytes()));
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
    synchronized DeviceProgram program(Class<?> owner, String backendName) {
        DeviceProgram p = programs.computeIfAbsent(owner.getName(),
                n -> nativeDevice.build(n, KernelRegistry.source(owner, backendName)));
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
