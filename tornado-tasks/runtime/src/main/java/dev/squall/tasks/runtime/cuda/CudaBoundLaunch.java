package dev.squall.tasks.runtime.cuda;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.KernelArg;
import dev.squall.tasks.runtime.spi.NativeQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Arguments marshaled once: a native {@code void* kernelParams[n]} whose entries point into a
 * block of 8-byte slots holding each value (a buffer as its 64-bit CUdeviceptr, scalars at their
 * own width). {@link #launch} only validates sizes and calls {@code cuLaunchKernel}; it allocates
 * nothing.
 */
final class CudaBoundLaunch implements BoundLaunch {
    private final CudaKernel kernel;
    private final CudaDevice device;
    private final MemorySegment function;
    private final Arena arena;
    private final MemorySegment params;
    private final CudaBuffer[] buffers;
    private final long maxBlockX, maxBlockY, maxBlockZ, maxGridX, maxGridY, maxGridZ;
    private final long maxThreads;
    private volatile boolean released;

    CudaBoundLaunch(CudaKernel kernel, KernelArg[] args) {
        this.kernel = kernel;
        this.device = kernel.device;
        device.ensureCurrent();
        this.function = kernel.function;
        this.maxBlockX = device.maxBlock[0];
        this.maxBlockY = device.maxBlock[1];
        this.maxBlockZ = device.maxBlock[2];
        this.maxGridX = device.maxGrid[0];
        this.maxGridY = device.maxGrid[1];
        this.maxGridZ = device.maxGrid[2];
        this.maxThreads = kernel.maxThreadsPerBlock;
        int n = args.length;
        Arena a = Arena.ofShared();
        try {
            MemorySegment p = a.allocate(ADDRESS.byteSize() * Math.max(1, n), ADDRESS.byteAlignment());
            MemorySegment values = a.allocate(8L * Math.max(1, n), 8);
            List<CudaBuffer> bufs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                MemorySegment slot = values.asSlice(8L * i, 8);
                switch (args[i]) {
                    case KernelArg.Buffer b -> {
                        CudaBuffer cb = device.buffer(b.buffer(), "bind " + kernel.name() + " argument " + i);
                        bufs.add(cb);
                        slot.set(JAVA_LONG, 0, cb.dptr);
                    }
                    case KernelArg.I8 v -> slot.set(JAVA_BYTE, 0, v.value());
                    case KernelArg.I16 v -> slot.set(JAVA_SHORT, 0, v.value());
                    case KernelArg.I32 v -> slot.set(JAVA_INT, 0, v.value());
                    case KernelArg.I64 v -> slot.set(JAVA_LONG, 0, v.value());
                    case KernelArg.F32 v -> slot.set(JAVA_FLOAT, 0, v.value());
                    case KernelArg.F64 v -> slot.set(JAVA_DOUBLE, 0, v.value());
                    case null -> throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT,
                            "bind " + kernel.name() + ": argument " + i + " is null");
                }
                p.setAtIndex(ADDRESS, i, slot);
            }
            this.params = p;
            this.buffers = bufs.toArray(new CudaBuffer[0]);
            this.arena = a;
        } catch (RuntimeException e) {
            a.close();
            throw e;
        }
    }

    @Override
    public void launch(long[] global, long[] local) {
        launch(null, global, local);
    }

    @Override
    public void launch(NativeQueue queue, long[] global, long[] local) {
        if (released) throw bad("launch of " + kernel.name() + " after release()");
        CudaQueue q = device.queue(queue);
        if (q == null) throw bad("launch of " + kernel.name() + ": " + queue + " is not a queue of " + device.id());
        if (q.isReleased()) throw bad("launch of " + kernel.name() + ": the queue was released");
        MemorySegment stream = q.stream;
        int dims = global.length;
        if (dims < 1 || dims > 3 || local.length != dims) throw badShape(global, local, "need 1..3 dimensions of equal length");
        long gx = global[0], lx = local[0];
        long gy = dims > 1 ? global[1] : 1, ly = dims > 1 ? local[1] : 1;
        long gz = dims > 2 ? global[2] : 1, lz = dims > 2 ? local[2] : 1;
        if (lx <= 0 || ly <= 0 || lz <= 0 || gx < 0 || gy < 0 || gz < 0) throw badShape(global, local, "sizes must be positive");
        if (gx % lx != 0 || gy % ly != 0 || gz % lz != 0) throw badShape(global, local, "global is not a multiple of local");
        if (gx == 0 || gy == 0 || gz == 0) return; // empty range: nothing to run
        if (lx > maxBlockX || ly > maxBlockY || lz > maxBlockZ || lx * ly * lz > maxThreads) {
            throw badShape(global, local, "block exceeds the limits (" + maxBlockX + ", " + maxBlockY + ", " + maxBlockZ
                    + "; " + maxThreads + " threads for this kernel)");
        }
        long bx = gx / lx, by = gy / ly, bz = gz / lz;
        if (bx > maxGridX || by > maxGridY || bz > maxGridZ) {
            throw badShape(global, local, "grid exceeds the limits (" + maxGridX + ", " + maxGridY + ", " + maxGridZ + ")");
        }
        for (CudaBuffer b : buffers) {
            if (b.isReleased()) throw bad("launch of " + kernel.name() + ": a bound buffer was released");
        }
        device.ensureCurrent();
        int rc = CudaApi.cuLaunchKernel(function, (int) bx, (int) by, (int) bz, (int) lx, (int) ly, (int) lz,
                kernel.dynamicSharedBytes, stream, params, MemorySegment.NULL);
        if (rc != CudaErrors.CUDA_SUCCESS) throw CudaErrors.error(rc, "cuLaunchKernel(" + kernel.name() + ")", device.id());
    }

    private DeviceException badShape(long[] global, long[] local, String why) {
        return bad("launch of " + kernel.name() + " on " + device.id() + " with global " + Arrays.toString(global)
                + ", local " + Arrays.toString(local) + ": " + why);
    }

    private static DeviceException bad(String msg) {
        return new DeviceException(DeviceException.Kind.BAD_ARGUMENT, msg);
    }

    @Override
    public void release() {
        synchronized (this) {
            if (released) return;
            released = true;
        }
        arena.close();
    }
}
