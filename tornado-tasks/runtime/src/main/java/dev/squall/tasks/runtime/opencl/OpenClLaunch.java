package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.DeviceException.Kind;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A {@code cl_kernel} with its arguments set once. {@link #launch} only writes the sizes into
 * pre-allocated native arrays and enqueues: no allocation on the launch path. Launches serialise on
 * this object, as they share those arrays; the kernel may be enqueued on any queue of its device.
 */
final class OpenClLaunch implements BoundLaunch {
    private final OpenClKernel kernel;
    private final OpenClDevice device;
    private final MemorySegment handle;
    private final OpenClBuffer[] buffers; // null where the argument is a scalar
    private final Arena arena = Arena.ofAuto(); // any thread may launch; freed with this object
    private final MemorySegment globalSizes;
    private final MemorySegment localSizes;
    private boolean released;

    OpenClLaunch(OpenClKernel kernel, MemorySegment handle, OpenClBuffer[] buffers) {
        this.kernel = kernel;
        this.device = kernel.program.device;
        this.handle = handle;
        this.buffers = buffers;
        this.globalSizes = arena.allocate(JAVA_LONG, 3);
        this.localSizes = arena.allocate(JAVA_LONG, 3);
        device.launchCreated(this);
    }

    @Override
    public void launch(long[] global, long[] local) {
        launch(null, global, local);
    }

    @Override
    public synchronized void launch(NativeQueue on, long[] global, long[] local) {
        if (released) throw bad("launch of a released binding");
        OpenClQueue q = device.queue(on);
        if (q == null) throw bad(on + " is not a queue of this device");
        if (q.isReleased()) throw bad("the queue was released");
        MemorySegment queue = q.handle;
        if (device.isClosed()) throw bad("device is closed");
        int dims = global == null ? 0 : global.length;
        if (dims < 1 || dims > 3) throw bad("global size must have 1..3 entries: " + Arrays.toString(global));
        if (local != null && local.length != dims) {
            throw bad("global " + Arrays.toString(global) + " and local " + Arrays.toString(local) + " differ in rank");
        }
        for (int i = 0; i < dims; i++) {
            long g = global[i];
            if (g <= 0) throw bad("global size " + Arrays.toString(global) + " must be positive");
            if (local != null && (local[i] <= 0 || g % local[i] != 0)) {
                throw bad("global size " + Arrays.toString(global) + " is not a multiple of local size "
                        + Arrays.toString(local));
            }
            globalSizes.setAtIndex(JAVA_LONG, i, g);
            if (local != null) localSizes.setAtIndex(JAVA_LONG, i, local[i]);
        }
        for (OpenClBuffer b : buffers) {
            if (b != null && b.isReleased()) throw bad("argument buffer was released: " + b);
        }
        int rc = device.api.enqueueNDRangeKernel(queue, handle, dims, globalSizes,
                local == null ? MemorySegment.NULL : localSizes);
        if (rc != OpenClErrors.CL_SUCCESS) {
            long total = 0;
            for (OpenClBuffer b : buffers) if (b != null) total += b.byteSize();
            throw device.commandError("clEnqueueNDRangeKernel", rc, "kernel " + kernel.name() + " global "
                    + Arrays.toString(global) + " local " + Arrays.toString(local) + ", buffers totalling " + total
                    + " bytes");
        }
    }

    private DeviceException bad(String what) {
        return new DeviceException(Kind.BAD_ARGUMENT, "kernel " + kernel.name() + " on " + device.id + ": " + what);
    }

    @Override
    public void release() {
        synchronized (device) {
            if (released) return;
            released = true;
            device.launchReleased(this);
            OpenClErrors.check(device.api.releaseKernel(handle), "clReleaseKernel", device.id);
        }
    }
}
