package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.DeviceException.Kind;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.KernelArg;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.*;

/** A kernel of an {@link OpenClProgram}; {@link #bind} gives each launch its own {@code cl_kernel}. */
final class OpenClKernel implements DeviceKernel {
    final OpenClProgram program;
    private final String name;
    final MemorySegment handle;
    private final int numArgs;

    OpenClKernel(OpenClProgram program, String name, MemorySegment handle) {
        this.program = program;
        this.name = name;
        this.handle = handle;
        OpenClDevice d = program.device;
        try (Arena a = Arena.ofConfined()) {
            this.numArgs = OpenClApi.infoInt(a, (s, v, r) -> d.api.getKernelInfo(handle, OpenClApi.CL_KERNEL_NUM_ARGS, s, v, r),
                    "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", d.id);
        }
    }

    @Override
    public String name() {
        return name;
    }

    int numArgs() {
        return numArgs;
    }

    @Override
    public BoundLaunch bind(KernelArg[] args) {
        OpenClDevice d = program.device;
        if (args == null) throw new DeviceException(Kind.BAD_ARGUMENT, "kernel " + name + ": null argument array");
        if (args.length != numArgs) {
            throw new DeviceException(Kind.BAD_ARGUMENT, "kernel " + name + " on " + d.id + " takes " + numArgs
                    + " arguments (CL_KERNEL_NUM_ARGS), " + args.length + " given");
        }
        OpenClBuffer[] buffers = new OpenClBuffer[args.length];
        for (int i = 0; i < args.length; i++) {
            if (args[i] == null) throw new DeviceException(Kind.BAD_ARGUMENT, "kernel " + name + ": argument " + i + " is null");
            if (args[i] instanceof KernelArg.Buffer(var b)) buffers[i] = d.own(b, "kernel " + name + " argument " + i);
        }
        MemorySegment k = program.createKernel(name);
        try (Arena a = Arena.ofConfined()) {
            for (int i = 0; i < args.length; i++) {
                MemorySegment value = switch (args[i]) {
                    case KernelArg.Buffer ignored -> a.allocateFrom(ADDRESS, buffers[i].mem);
                    case KernelArg.I8(byte v) -> a.allocateFrom(JAVA_BYTE, v);
                    case KernelArg.I16(short v) -> a.allocateFrom(JAVA_SHORT, v);
                    case KernelArg.I32(int v) -> a.allocateFrom(JAVA_INT, v);
                    case KernelArg.I64(long v) -> a.allocateFrom(JAVA_LONG, v);
                    case KernelArg.F32(float v) -> a.allocateFrom(JAVA_FLOAT, v);
                    case KernelArg.F64(double v) -> a.allocateFrom(JAVA_DOUBLE, v);
                };
                int rc = d.api.setKernelArg(k, i, value.byteSize(), value);
                if (rc != OpenClErrors.CL_SUCCESS) {
                    throw new DeviceException(Kind.BAD_ARGUMENT, OpenClErrors.message("clSetKernelArg", rc, d.id)
                            + ": kernel " + name + " argument " + i + " (" + args[i].getClass().getSimpleName()
                            + ", " + value.byteSize() + " bytes) does not match the kernel's parameter");
                }
            }
        } catch (RuntimeException e) {
            int rc = d.api.releaseKernel(k);
            if (rc != OpenClErrors.CL_SUCCESS) e.addSuppressed(OpenClErrors.exception("clReleaseKernel", rc, d.id, name));
            throw e;
        }
        return new OpenClLaunch(this, k, buffers);
    }

    @Override
    public String resourceReport() {
        OpenClDevice d = program.device;
        try (Arena a = Arena.ofConfined()) {
            long wg = wgInfo(a, d, OpenClApi.CL_KERNEL_WORK_GROUP_SIZE, "CL_KERNEL_WORK_GROUP_SIZE");
            long local = wgInfo(a, d, OpenClApi.CL_KERNEL_LOCAL_MEM_SIZE, "CL_KERNEL_LOCAL_MEM_SIZE");
            long priv = wgInfo(a, d, OpenClApi.CL_KERNEL_PRIVATE_MEM_SIZE, "CL_KERNEL_PRIVATE_MEM_SIZE");
            return "maxWorkGroupSize=" + wg + " localMem=" + local + "B privateMem=" + priv + "B";
        }
    }

    private long wgInfo(Arena a, OpenClDevice d, int param, String what) {
        return OpenClApi.infoLong(a, (s, v, r) -> d.api.getKernelWorkGroupInfo(handle, d.device, param, s, v, r),
                "clGetKernelWorkGroupInfo(" + what + ")", d.id);
    }

    @Override
    public String toString() {
        return "OpenCL kernel " + name + " of " + program;
    }
}
