package dev.squall.permanent.codegen;

import dev.squall.permanent.codegen.KernelSourceGenerator.Backend;
import dev.squall.tasks.api.DoubleArray;
import dev.squall.tasks.api.IntArray;
import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.LongArray;
import dev.squall.tasks.runtime.Device;
import dev.squall.tasks.runtime.KernelSignature;
import dev.squall.tasks.runtime.KernelSource;

import java.util.List;
import java.util.Map;

/**
 * The C shared by the permanent's generated kernels (real-valued {@link KernelSourceGenerator} and exact
 * {@code ExactSourceGenerator}) in both dialects: the integer typedefs ({@code i64}, {@code u64}, {@code u32}) and
 * {@code CTZ}, the qualifiers of helper functions and global pointers, and the kernel's opening line with the index
 * {@code t} of its work-item. The header is written from the same parameter list as the kernel's
 * {@link KernelSignature}, so the source and the signature the runtime checks arguments against cannot disagree;
 * it follows the runtime's convention for kernels compiled at run time (each array followed by its 64-bit length).
 *
 * <pre>{@code
 * List<KernelPreamble.Parameter> ps = List.of(KernelPreamble.array("plan", LongArray.class, true), KernelPreamble.scalar("threads", int.class));
 * String src = KernelPreamble.types(Backend.CUDA, false) + KernelPreamble.kernelHeader(Backend.CUDA, "k", "", ps) + "  ...\n}\n";
 * RuntimeKernel k = device.compile("k", KernelPreamble.source(Backend.CUDA, src), KernelPreamble.signature(ps));
 * }</pre>
 */
public final class KernelPreamble {
    /**
     * One kernel parameter.
     *
     * @param name     its name in the source
     * @param type     a Squall array class or a primitive class
     * @param readOnly arrays only: the kernel never writes it ({@code const}, and {@code __restrict__} on CUDA)
     */
    public record Parameter(String name, Class<?> type, boolean readOnly) {
        boolean isArray() {
            return KernelArray.class.isAssignableFrom(type);
        }
    }

    private static final Map<Class<?>, String> C_TYPES = Map.of(DoubleArray.class, "double", LongArray.class, "i64", IntArray.class, "int",
            double.class, "double", long.class, "i64", int.class, "int");

    private KernelPreamble() {
    }

    public static Parameter array(String name, Class<? extends KernelArray> type, boolean readOnly) {
        if (!C_TYPES.containsKey(type)) throw new IllegalArgumentException("no C type for " + type.getSimpleName());
        return new Parameter(name, type, readOnly);
    }

    public static Parameter scalar(String name, Class<?> type) {
        if (!C_TYPES.containsKey(type) || KernelArray.class.isAssignableFrom(type)) throw new IllegalArgumentException("no C scalar type for " + type);
        return new Parameter(name, type, false);
    }

    /** The backend whose C a device compiles. */
    public static Backend backendOf(Device device) {
        return switch (device.info().backend()) {
            case "cuda" -> Backend.CUDA;
            case "opencl" -> Backend.OPENCL;
            default -> throw new IllegalArgumentException("generated kernels need a CUDA or OpenCL device, not " + device.id());
        };
    }

    /** The kernel's source for the runtime: CUDA C or OpenCL C. */
    public static KernelSource source(Backend backend, String text) {
        return backend == Backend.CUDA ? KernelSource.cuda(text) : KernelSource.openCl(text);
    }

    /** The signature the runtime checks a task's arguments against. */
    public static KernelSignature signature(List<Parameter> parameters) {
        KernelSignature s = KernelSignature.spmd();
        for (Parameter p : parameters) {
            s = p.isArray() ? s.array(p.name(), p.type().asSubclass(KernelArray.class)) : s.scalar(p.name(), p.type());
        }
        return s;
    }

    /** The typedefs {@code i64}, {@code u64}, {@code u32} and {@code CTZ(v)} (index of the lowest set bit of a 64-bit value). */
    public static String types(Backend backend, boolean fp64) {
        if (backend == Backend.CUDA) {
            return "typedef long long i64;\ntypedef unsigned long long u64;\ntypedef unsigned int u32;\n#define CTZ(v) (__ffsll(v) - 1)\n";
        }
        return (fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "")
                + "typedef long i64;\ntypedef ulong u64;\ntypedef uint u32;\n#define CTZ(v) ((int) (63 - clz((v) & -(v))))\n";
    }

    /** The qualifiers of a helper function called by the kernel. */
    public static String deviceFunction(Backend backend) {
        return backend == Backend.CUDA ? "static __device__ __forceinline__ " : "inline ";
    }

    /** The address-space qualifier of a pointer into global memory ("" on CUDA). */
    public static String global(Backend backend) {
        return backend == Backend.CUDA ? "" : "__global ";
    }

    /**
     * The kernel's opening: its declaration and {@code int t}, the work-item's global index along x.
     *
     * @param cudaAttributes CUDA only, written before the name (e.g. {@code __launch_bounds__(128, 2) }); "" for none
     */
    public static String kernelHeader(Backend backend, String name, String cudaAttributes, List<Parameter> parameters) {
        boolean cuda = backend == Backend.CUDA;
        StringBuilder s = new StringBuilder(cuda ? "extern \"C\" __global__ void " + cudaAttributes : "__kernel void ").append(name).append('(');
        for (int i = 0; i < parameters.size(); i++) {
            Parameter p = parameters.get(i);
            String c = C_TYPES.get(p.type());
            if (i > 0) s.append(", ");
            if (!p.isArray()) {
                s.append(c).append(' ').append(p.name());
                continue;
            }
            s.append(global(backend)).append(p.readOnly() ? "const " : "").append(c).append('*')
                    .append(cuda && p.readOnly() ? " __restrict__ " : " ").append(p.name()).append(", i64 ").append(p.name()).append("__len");
        }
        s.append(") {\n");
        s.append(cuda ? "  int t = (int) (blockIdx.x * blockDim.x + threadIdx.x);\n" : "  int t = (int) get_global_id(0);\n");
        return s.toString();
    }
}
