package dev.squall.tasks.api;

import java.lang.foreign.MemorySegment;

/**
 * Where pinned (page-locked) host memory comes from: a device of the runtime
 * ({@code dev.squall.tasks.runtime.Device} implements this). A device copies pinned memory to and
 * from its own memory asynchronously, so transfers of pinned arrays overlap with kernels and with
 * the host; ordinary arrays are copied synchronously.
 *
 * <pre>{@code
 * Device gpu = Devices.get("cuda:0");
 * DoubleArray x = DoubleArray.pinned(1 << 20, gpu);
 * }</pre>
 */
public interface PinnedAllocator {
    /**
     * Zero-filled host memory of {@code bytes} bytes, aligned to {@link KernelArray#ALIGNMENT}, freed when
     * the returned segment becomes unreachable.
     */
    MemorySegment allocatePinned(long bytes);
}
