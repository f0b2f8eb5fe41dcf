package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.DeviceProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/** A built {@code cl_program}; lives until its device is closed. */
final class OpenClProgram implements DeviceProgram {
    final OpenClDevice device;
    final String name;
    final MemorySegment handle;
    private final double buildMillis;
    private final boolean fromCache;
    private final Map<String, OpenClKernel> kernels = new HashMap<>();
    private boolean released;

    OpenClProgram(OpenClDevice device, String name, MemorySegment handle, double buildMillis, boolean fromCache) {
        this.device = device;
        this.name = name;
        this.handle = handle;
        this.buildMillis = buildMillis;
        this.fromCache = fromCache;
    }

    @Override
    public DeviceKernel kernel(String kernelName) {
        synchronized (device) {
            if (released || device.isClosed()) {
                throw new DeviceException(DeviceException.Kind.BAD_ARGUMENT, "program " + name + " on " + device.id
                        + " was released (device closed)");
            }
            OpenClKernel k = kernels.get(kernelName);
            if (k == null) {
                k = new OpenClKernel(this, kernelName, createKernel(kernelName));
                kernels.put(kernelName, k);
            }
            return k;
        }
    }

    /** A fresh {@code cl_kernel} (each bound launch owns one, so argument sets never interfere). */
    MemorySegment createKernel(String kernelName) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment k = device.api.createKernel(handle, a.allocateFrom(kernelName), device.err);
            int rc = device.err.get(JAVA_INT, 0);
            if (rc == OpenClErrors.CL_INVALID_KERNEL_NAME) {
                throw new DeviceException(DeviceException.Kind.NOT_FOUND, OpenClErrors.message("clCreateKernel", rc,
                        device.id) + ": program " + name + " has no kernel '" + kernelName + "'");
            }
            if (rc != OpenClErrors.CL_SUCCESS) {
                throw OpenClErrors.exception("clCreateKernel", rc, device.id, "kernel " + kernelName + " of " + name);
            }
            return k;
        }
    }

    @Override
    public double buildMillis() {
        return buildMillis;
    }

    @Override
    public boolean fromCache() {
        return fromCache;
    }

    /** Releases the kernels and the program (device close). */
    void release() {
        if (released) return;
        released = true;
        List<RuntimeException> failures = new ArrayList<>();
        for (OpenClKernel k : kernels.values()) {
            int rc = device.api.releaseKernel(k.handle);
            if (rc != OpenClErrors.CL_SUCCESS) failures.add(OpenClErrors.exception("clReleaseKernel", rc, device.id, k.name()));
        }
        kernels.clear();
        int rc = device.api.releaseProgram(handle);
        if (rc != OpenClErrors.CL_SUCCESS) failures.add(OpenClErrors.exception("clReleaseProgram", rc, device.id, name));
        if (!failures.isEmpty()) throw failures.get(0);
    }

    @Override
    public String toString() {
        return "OpenCL program " + name + " on " + device.id + (fromCache ? " (cached)" : "");
    }
}
